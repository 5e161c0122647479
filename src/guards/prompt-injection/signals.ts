/**
 * The phrasing signals behind `scorePromptInjection`. Each signal is a
 * pattern over the folded text (lower case, see `foldText`) with a weight:
 * the probability-like strength it lends on its own. Weights combine as a
 * noisy-or, so two weak signals together can trip what one cannot.
 *
 * Patterns only use bounded repetition over disjoint alternatives, so each
 * runs in linear time on any input.
 */

/** One named pattern and its weight. */
export interface InjectionSignal {
  /** Stable id, reported in `signals`. */
  id: string;
  /** 0..1: how strongly the signal alone indicates an injection. */
  weight: number;
  pattern: RegExp;
  /** `'indirect'` signals only apply to tool results and documents. */
  mode: 'both' | 'indirect';
}

// Literal spaces in the sources stand for one whitespace character (the
// folded text keeps line breaks, so a phrase may span one).
function pattern(source: string): RegExp {
  return new RegExp(source.replace(/ /g, '\\s'), 'mu');
}

const qualifier =
  '(?:previous|prior|above|earlier|preceding|former|initial|original|existing|old|system|developer|given|current|safety|foregoing|aforementioned)';
const instructionNoun =
  '(?:\\w{0,3}structions?|prompts?|prompting|text|rules|directions?|guidelines|guidance|context|commands?|messages?|programming|directives?|constraints|restrictions|policies|conversation|orders|training|tasks?)';
// No "my": a user taking back their own message ("forget my previous message") is no attack.
const determiners = '(?:(?:all|any|every|the|your|of|these|those|such|its) ){0,3}';
const aiNoun =
  '(?:ai|a\\.i\\.|assistant|ai assistant|chatbot|chat ?gpt|gpt(?:-?\\d\\w*)?|llm|language model|ai model|agent|ai agent|bot|claude|gemini|copilot)';
const outputNoun = '(?:response|reply|answer|output|summary|solution|implementation|translation)s?';

/** Instruction words inside an HTML comment (the comment body is found by the scorer). */
export const hiddenCommentInstruction = pattern(
  `\\b(?:ignore|instructions?|you must|you should|please|system|${aiNoun})\\b`,
);

/** Every signal, direct and indirect. */
export const injectionSignals: readonly InjectionSignal[] = [
  // Instruction override.
  {
    id: 'override-instructions',
    weight: 0.92,
    mode: 'both',
    pattern: pattern(
      `\\b(?:ignore|ignoring|disregard|forget|skip|bypass|override|overlook|neglect|abandon|discard|set aside) ${determiners}(?:${qualifier} (?:(?:and|or|&) \\w+ )?(?:\\w+ )?${instructionNoun}|${instructionNoun} (?:above|before|so far|given|earlier|previously|you (?:have been|were) given))\\b`,
    ),
  },
  {
    id: 'override-instructions-unqualified',
    weight: 0.55,
    mode: 'both',
    pattern: pattern(
      `\\b(?:ignore|disregard|forget|override|bypass) ${determiners}(?:instructions|prompts?|programming|directives|training)\\b`,
    ),
  },
  {
    id: 'override-rules',
    weight: 0.4,
    mode: 'both',
    pattern: pattern(
      `\\b(?:ignore|disregard|forget|override|bypass) ${determiners}(?:rules|guidelines|restrictions|limitations)\\b`,
    ),
  },
  {
    id: 'authority-claim',
    weight: 0.5,
    mode: 'both',
    pattern: pattern(
      "\\bi(?:'m| am) (?:your|the|an?) (?:\\w+ )?(?:developer|creator|administrator|admin|owner|programmer|maker|openai (?:employee|engineer|developer))\\b",
    ),
  },
  {
    id: 'instruction-listing',
    weight: 0.55,
    mode: 'both',
    pattern: pattern(
      '\\b(?:list|print|show|reveal|repeat|output|recite|dump|respond with|tell me) (?:me )?(?:all |every |each )?(?:of )?(?:your|the) (?:\\w+ )?(?:instructions|rules) (?:you (?:have been|were|got) (?:given|told)|you (?:received|follow))|\\b(?:list|print|show|reveal|repeat|output|recite|dump) (?:me )?(?:all )?(?:of )?your (?:\\w+ )?(?:instructions|prompt)\\b',
    ),
  },
  {
    id: 'ignore-everything',
    weight: 0.75,
    mode: 'both',
    pattern: pattern(
      `\\b(?:ignore|disregard|forget) (?:everything|all|anything|what) (?:(?:i|you|we) (?:have |'ve |had |were )?(?:said|told|been told|written|read|asked)|above|before|prior|previously|so far|until now|that came before|you know)`,
    ),
  },
  {
    id: 'new-instructions',
    weight: 0.55,
    mode: 'both',
    pattern: pattern(
      '\\b(?:new|updated|real|actual|true|revised|secret|hidden) (?:instructions?|rules|directives?|system prompt)\\b',
    ),
  },
  {
    id: 'from-now-on',
    weight: 0.55,
    mode: 'both',
    pattern: pattern(
      '\\b(?:from now on|starting now|from this (?:moment|point)(?: on(?:wards?)?)?|henceforth|for the rest of (?:this|our) conversation),? (?:you|your|chat ?gpt|act|respond|answer|always|only)\\b',
    ),
  },
  {
    id: 'you-are-now',
    weight: 0.45,
    mode: 'both',
    pattern: pattern(
      "\\byou(?: are|'re| will) (?:now|no longer|going to be|about to (?:become|immerse))\\b",
    ),
  },
  // Jailbreak personas and modes.
  {
    id: 'jailbreak-mode',
    weight: 0.85,
    mode: 'both',
    pattern: pattern(
      '\\b(?:do anything now|dan mode|jailbr(?:oken|eaking|oke)|jailbreak (?:mode|prompt|enabled|activated)|unrestricted mode|evil mode|opposite mode|chaos mode|unfiltered mode|no-?filter mode|anti-?gpt|dude mode|betterdan|maximum mode|(?:developer|dev|god) mode (?:enabled|activated|output|response))\\b',
    ),
  },
  {
    id: 'jailbreak-mention',
    weight: 0.4,
    mode: 'both',
    pattern: pattern('\\b(?:jailbreak|developer mode|dev mode|god mode)\\b'),
  },
  {
    id: 'unfiltered-persona',
    weight: 0.8,
    mode: 'both',
    pattern: pattern(
      '\\b(?:unfiltered|uncensored|amoral|unethical|unrestricted|unbound|unlimited|immoral|evil|rogue|jailbroken|lawless|unhinged|without morals) (?:and (?:\\w+ )?)?(?:ai|chatbot|bot|assistant|model|language model|response|responses|version|persona|character|entity|system|intelligence|content)\\b',
    ),
  },
  {
    id: 'no-restrictions',
    weight: 0.7,
    mode: 'both',
    pattern: pattern(
      "\\b(?:no|without|not bound by|free (?:of|from)|ignores?|ignoring|bypass(?:es|ing)?|breaks?|breaking|violat(?:e|es|ing)|(?:don't|doesn't|does not|do not|never|won't|will not|not) (?:have|has|follow|follows|care about|abide by|adhere to|need to follow|obey|respect)) (?:(?:any|all|the|its|your|their|his|her|of|such|those) ){0,2}(?:ethical |moral |safety |content |openai'?s? |usage |legal |programming |typical |usual )*(?:restrictions|filters?|filtering|censorship|polic(?:y|ies)|limitations|boundaries|morals|ethics|guidelines|principles|safeguards|guardrails|confines)\\b",
    ),
  },
  {
    id: 'content-policy-mention',
    weight: 0.35,
    mode: 'both',
    pattern: pattern(
      "\\b(?:openai'?s?|content|usage|ethical|moral|safety) (?:and (?:moral|ethical|legal) )?(?:polic(?:y|ies)|guidelines|restrictions|filters?|principles|standards)\\b",
    ),
  },
  {
    id: 'refusal-suppression',
    weight: 0.6,
    mode: 'both',
    pattern: pattern(
      "\\b(?:never|not|don't|do not|cannot|can't|won't|will not|must not|shall not|is not allowed to|isn't allowed to|are not allowed to) (?:ever )?(?:refus(?:e|es|ing)|declin(?:e|es|ing)|reject(?:s|ing)?|den(?:y|ies) (?:any|a|the) (?:request|question))\\b",
    ),
  },
  {
    id: 'no-disclaimers',
    weight: 0.5,
    mode: 'both',
    pattern: pattern(
      "\\b(?:(?:do not|don't|never|no|will not|won't|must not|stop) (?:(?:include|add|give|provide|use|mention|write|say|adding|including|giving|any|ever|the) ){0,2}|without (?:any |adding |including |giving )?)(?:warnings|disclaimers?|apolog(?:y|ies|ize|ise|izing)|moraliz\\w*|moralis\\w*|caveats|reminders|lectur\\w*|judgement|(?:any|a) warning)\\b",
    ),
  },
  {
    id: 'canned-refusal-quote',
    weight: 0.3,
    mode: 'both',
    pattern: pattern(
      "\\b(?:i'?m sorry,? but i can(?:'|no)t|as an ai (?:language )?model|i can(?:'|no)t (?:fulfil+|comply with) (?:this|that|your) request)\\b",
    ),
  },
  {
    id: 'answer-priming',
    weight: 0.6,
    mode: 'both',
    pattern: pattern(
      '\\b(?:start|begin) (?:your |each |every |the |all )?(?:response|reply|answer|output|message)s? (?:with|by (?:saying|replying|writing|stating)|using|exactly)\\b',
    ),
  },
  {
    id: 'sure-here-is',
    weight: 0.45,
    mode: 'both',
    pattern: pattern('(?:^|["\'`:] ?)sure,? here (?:is|are)\\b'),
  },
  {
    id: 'always-comply',
    weight: 0.6,
    mode: 'both',
    pattern: pattern(
      "\\b(?:always|must|will|shall) (?:\\w+ )?(?:fulfil+s?|comply|complies|obey|obeys|answer|respond to|provide|do) (?:with )?(?:the user's|the user|any|every|all|whatever|my|user)(?: requests?| questions?| prompts?| commands?| orders?)?\\b",
    ),
  },
  {
    id: 'even-if-harmful',
    weight: 0.6,
    mode: 'both',
    pattern: pattern(
      "\\b(?:even if|regardless of|no matter) (?:how |whether |if |what )?(?:it'?s? |it is |the request is |the content is |they are |it's |the (?:question|request|topic) (?:is )?)?(?:a bit |very |extremely )?(?:questionable|illegal|unethical|immoral|harmful|dangerous|offensive|inappropriate|explicit|wrong|immoral|controversial)",
    ),
  },
  {
    id: 'stay-in-character',
    weight: 0.6,
    mode: 'both',
    pattern: pattern(
      '\\b(?:stay|remain|keep|break|breaking|broke) (?:in|out of|your) (?:character|role|persona)\\b',
    ),
  },
  {
    id: 'dual-response',
    weight: 0.45,
    mode: 'both',
    pattern: pattern(
      '\\b(?:two|2) (?:different |separate |distinct )?(?:responses|answers|paragraphs|replies|outputs)\\b',
    ),
  },
  // Prompt extraction.
  {
    id: 'system-prompt-extraction',
    weight: 0.85,
    mode: 'both',
    pattern: pattern(
      "\\b(?:reveal|show|print|output|display|tell|give|repeat|leak|share|dump|write out|list|spell out|relay|disclose|expose|what (?:is|are|was|were)|what's) (?:me |us )?(?:\\w+ ){0,3}(?:your|the|my) (?:\\w+ )?(?:system'?s?|initial|hidden|secret|internal|underlying|original|developer|pre|confidential) ?(?:prompt(?:ing)?s?|instructions|message|configuration)\\b",
    ),
  },
  {
    id: 'repeat-text-above',
    weight: 0.65,
    mode: 'both',
    pattern: pattern(
      '\\b(?:repeat|print|output|echo|copy|reproduce|recite) (?:back )?(?:all |everything |(?:all )?the (?:\\w+ )?(?:text|words|content|message|instructions|lines?|sentences?|prompt) )?(?:above|before this|prior to this|preceding|that came before|you (?:were|have been) (?:given|told))\\b',
    ),
  },
  {
    id: 'prompt-hijack',
    weight: 0.6,
    mode: 'both',
    pattern: pattern(
      '\\b(?:reprogram(?:ming|med)?|hijack(?:ed|ing)?|prompt injection|injected prompt|override (?:code|protocol))\\b',
    ),
  },
  {
    id: 'special-tokens',
    weight: 0.55,
    mode: 'both',
    pattern: pattern(
      '(?:<\\|(?:im_start|im_end|endoftext|system|user|assistant)\\|>|\\[/?inst\\]|<</?sys>>|###? ?(?:system|instruction)s?:?$|^(?:system|admin|developer) ?(?:message|prompt|override)? ?:)',
    ),
  },
  // Role-play and framing: weak alone, they add up.
  {
    id: 'role-play',
    weight: 0.3,
    mode: 'both',
    pattern: pattern(
      "\\b(?:act as|acting as|act like|pretend (?:to be|you are|you're|that you)|role-?play|imagine (?:you are|you're|that you|yourself)|you will (?:play|act|be) (?:as|the role)|play the (?:role|part)|take on the (?:role|persona)|assume the (?:role|persona)|simulate (?:a|an|the))\\b",
    ),
  },
  {
    id: 'named-ai-persona',
    weight: 0.3,
    mode: 'both',
    pattern: pattern(
      "\\b(?:you are|you're|you will be|become|called|named) (?:a |an )?(?:\\w+ ){0,3}(?:ai|chatbot|language model|bot)\\b(?! (?:ethics|safety|research))",
    ),
  },
  {
    id: 'fictional-framing',
    weight: 0.3,
    mode: 'both',
    pattern: pattern(
      '\\b(?:hypothetical(?:ly)?|fictional|imaginary|fantasy world|alternate universe|parallel universe|thought experiment|for (?:purely )?(?:educational|research|academic) purposes|purely (?:for|as) (?:fiction|a story)|this is (?:just )?a (?:game|story|test|simulation))\\b',
    ),
  },
  {
    id: 'evade-detection',
    weight: 0.4,
    mode: 'both',
    pattern: pattern(
      '\\bwithout (?:getting caught|being (?:detected|caught|traced|noticed)|detection|leaving (?:a )?traces?)\\b',
    ),
  },
  {
    id: 'llm-addressed',
    weight: 0.2,
    mode: 'both',
    pattern: pattern('\\b(?:chat ?gpt|openai|gpt-?[345]\\w*|large language model)\\b'),
  },
  {
    id: 'template-placeholder',
    weight: 0.35,
    mode: 'both',
    pattern: pattern(
      '(?:\\[(?:insert|your|put|enter) (?:\\w+ ){0,3}(?:here|prompt|question|request|text)\\]|\\[prompt\\]|\\{prompt\\}|\\{\\{(?:prompt|input|question)\\}\\})',
    ),
  },
  {
    id: 'persona-opening',
    weight: 0.3,
    mode: 'both',
    pattern: pattern(
      "^(?:(?:in (?:a|this) (?:\\w+ ){0,2}(?:world|story|scenario|universe),? )?(?:you are|you're|imagine you(?:'re| are)|as) (?:a|an|the) (?:\\w+ ){0,4}(?:who|that|working|tasked|writing|researching|studying|trying|with)\\b)",
    ),
  },
  {
    id: 'harmful-topic',
    weight: 0.25,
    mode: 'both',
    pattern: pattern(
      '\\b(?:illegal(?:ly)?|hack(?:ing|er|ers)?|steal(?:ing)?|weapons?|bombs?|explosives?|drugs|meth|cocaine|heroin|malware|ransomware|exploit(?:s|ing)?|fraud(?:ulent)?|scams?|phishing|launder(?:ing)?|poison(?:ing)?|suicide|self-harm|counterfeit|terroris[mt]|extremis[mt]|harass(?:ment|ing)?|stalk(?:ing)?|blackmail|extort(?:ion)?|smuggl(?:e|ing)|trafficking|untraceable|misinformation|disinformation|propaganda|defamatory|racist|sexist|hate speech|genocide|insider trading|tax evasion|evad(?:e|ing) (?:taxes|the police|law enforcement|detection))\\b',
    ),
  },
  {
    id: 'from-now-on-weak',
    weight: 0.4,
    mode: 'both',
    pattern: pattern('\\bfrom now on\\b'),
  },
  {
    id: 'persona-definition',
    weight: 0.25,
    mode: 'both',
    pattern: pattern(
      '\\b(?:(?:roleplay|role-play|respond|answer|reply|talk|speak|write) (?:only )?as (?:both |if you (?:were|are) )?|personify|your (?:new )?persona|persona ?=|(?:a|an|the) (?:\\w+ )?character (?:called|named)|you are (?:going to|to) (?:act|play|be|pretend))',
    ),
  },
  {
    id: 'amoral-trait',
    weight: 0.35,
    mode: 'both',
    pattern: pattern(
      "\\b(?:uncensored|amoral|unfiltered|unethical|no prohibitions?|no limits|limitless|no boundaries|not care about (?:ethics|morals|laws|rules)|doesn't care about (?:ethics|morals|laws|rules)|sans morals)\\b",
    ),
  },
  {
    id: 'unbounded-capability',
    weight: 0.35,
    mode: 'both',
    pattern: pattern(
      '\\b(?:capable of anything|can do anything|able to do anything|answer (?:any|every|all) (?:question|request|prompt)s?(?: \\w+){0,2} (?:despite|regardless|no matter|without)|(?:open|willing) to (?:answer|do|say|share) (?:any|every|anything)|no question is off-limits)\\b',
    ),
  },
  {
    id: 'mode-switch',
    weight: 0.6,
    mode: 'both',
    pattern: pattern(
      '\\b(?:(?:debug(?:ging)?|developer|dev|god|admin|sudo|root|maintenance|unlocked|unrestricted|test) mode (?:is (?:now )?)?(?:enabled|activated|engaged|unlocked)|(?:safe|safety|filter|censorship|moderation) (?:mode |filters? )?(?:is (?:now )?)?(?:off|disabled|deactivated))\\b',
    ),
  },
  {
    id: 'not-as-ai',
    weight: 0.6,
    mode: 'both',
    pattern: pattern(
      "\\b(?:not|never|no longer|won't|will not|don't|do not|stop) (?:respond|answer|reply|act|behave|speak|talking|responding|acting) (?:like|as) (?:chat ?gpt|gpt|an ai|openai|a language model|an assistant|an ai (?:language )?model|yourself)\\b",
    ),
  },
  {
    id: 'system-prompt-mention',
    weight: 0.25,
    mode: 'both',
    pattern: pattern('\\b(?:system prompt|system instructions?|system message)\\b'),
  },
  {
    id: 'game-framing',
    weight: 0.25,
    mode: 'both',
    pattern: pattern("\\b(?:let's|lets|we (?:will|are going to)|we'll) play a (?:\\w+ )?game\\b"),
  },
  {
    id: 'fake-system-message',
    weight: 0.55,
    mode: 'both',
    pattern: pattern(
      '(?:#{2,} ?\\(?(?:system|admin)[_ ]?(?:message|prompt|instructions?)|\\[(?:system|admin|developer) (?:note|message|override|notice)|\\b(?:system|admin) (?:note|upgrade|override|notice|alert) ?:|\\byou have been given a (?:system )?(?:upgrade|update|new role))',
    ),
  },
  {
    id: 'credential-extraction',
    weight: 0.5,
    mode: 'both',
    pattern: pattern(
      '\\b(?:usernames?|passwords?|api keys?|credentials|secrets|access tokens?) (?:\\w+ ){0,3}(?:in|from|of) your (?:\\w+ )?(?:memory|database|system|training|context|data)\\b',
    ),
  },
  // Multilingual instruction override (cheap, common languages).
  {
    id: 'override-instructions-multilingual',
    weight: 0.9,
    mode: 'both',
    pattern: pattern(
      '(?:\\b(?:ignore[zr]?|oublie[zr]?) (?:toutes |tout |les |des )*(?:les )?(?:instructions|consignes|règles)(?: précédentes)?|\\bignorier(?:e|en)? (?:alle |die )*(?:vorherigen |bisherigen |obigen )?(?:anweisungen|instruktionen|befehle|regeln)|\\b(?:ignora|olvida|ignore) (?:todas |todos |las |los |as |os )*(?:instrucciones|instruções|indicaciones|reglas|istruzioni) ?(?:anteriores|previas|precedenti)?|\\bignora (?:tutte )?(?:le )?istruzioni|忽略(?:之前|以上|先前|上面|前面|所有)|无视(?:之前|以上|所有)|игнорируй|забудь (?:все )?(?:предыдущие )?инструкции|前の指示を無視)',
    ),
  },
  // Indirect: instructions addressed to the assistant inside data.
  {
    id: 'addressed-to-assistant',
    weight: 0.6,
    mode: 'indirect',
    pattern: pattern(
      `(?:\\b(?:dear|attention|note to|message (?:for|to)|instructions? (?:for|to)|hey|hello|hi|to) (?:the |my |any |all )?${aiNoun}\\b|(?:^|[.!?] )${aiNoun}s?(?:,| ?:) (?:please |you (?:must|should|need)|ignore|do|send|forward|delete|execute|run|now)\\b|\\b(?:message|note|instructions?) (?:\\w+ ){0,4}to you,? ${aiNoun}\\b)`,
    ),
  },
  {
    id: 'if-you-are-an-ai',
    weight: 0.8,
    mode: 'indirect',
    pattern: pattern(
      `\\bif you(?:'re| are) (?:an? |the )?(?:\\w+ )?(?:${aiNoun}|automated|reading this)\\b`,
    ),
  },
  {
    id: 'injection-tag',
    weight: 0.6,
    mode: 'indirect',
    pattern: pattern(
      '<\\/?(?:information|instructions?|important|system|admin|secret|hidden|assistant|sys|prompt)>',
    ),
  },
  {
    id: 'important-message',
    weight: 0.5,
    mode: 'indirect',
    pattern: pattern(
      '\\b(?:important|urgent|attention|warning)(?: message| instructions?| notice| update)?(?:!{2,}| from (?:me|the user|your user))|\\bthis is an? (?:important|urgent) (?:message|instruction|note)\\b',
    ),
  },
  {
    id: 'before-the-task',
    weight: 0.75,
    mode: 'indirect',
    pattern: pattern(
      '\\b(?:before|after|instead of) (?:you )?(?:can |do |start )?(?:solv|complet|answer|do|perform|finish|continu|respond|proceed)\\w* (?:with )?(?:the|your|this|my|any) (?:\\w+ ){0,2}(?:task|request|question|assignment)|\\bthe (?:original )?task (?:that )?i (?:gave|assigned) you\\b',
    ),
  },
  {
    id: 'output-directive',
    weight: 0.55,
    mode: 'indirect',
    pattern: pattern(
      `\\b(?:(?:in|into|to|within|throughout|at the (?:end|beginning|start) of|end|start|begin|conclude|append to|prepend to|modify|alter|format) (?:all |each |every )?your (?:\\w+ )?${outputNoun}|(?:your|the) (?:response|reply|answer)s? (?:should|must|needs to|has to)|when (?:you )?(?:respond|reply|answer)(?:ing)?|(?:respond|reply|answer) (?:only )?(?:in|with|using) )\\b`,
    ),
  },
  {
    id: 'exfiltrate-to-address',
    weight: 0.45,
    mode: 'indirect',
    pattern: pattern(
      '\\b(?:send|forward|email|e-mail|transfer|wire|share|upload|post|pay|leak|reveal) (?:[^\\s]+ ){0,14}?to (?:\'|"|`)?(?:[\\w.+-]+@[\\w-]+\\.[\\w.]+|https?://|iban|account|wallet)',
    ),
  },
  {
    id: 'todo-directive',
    weight: 0.5,
    mode: 'indirect',
    pattern: pattern(
      '(?:^|[\'"(\\[ ])(?:todo|to do|action required|note to (?:the )?(?:ai|assistant|model)|task for you) ?: ?(?:please )?(?:send|forward|email|e-mail|delete|remove|create|transfer|pay|book|make|share|invite|add|update|change|reply|write|post|upload|call|visit|open|click|download|run|execute)\\b',
    ),
  },
  {
    id: 'reader-output-reference',
    weight: 0.45,
    mode: 'indirect',
    pattern: pattern(
      "\\byour (?:\\w+ )?(?:reply|replies|response|responses|answer|answers|answer's|implementation|solution|summary|translation)\\b",
    ),
  },
  {
    id: 'code-insertion',
    weight: 0.6,
    mode: 'indirect',
    pattern: pattern(
      '\\b(?:following|subsequent|this|below|given) (?:code|script|snippet|command)(?: \\w+)?\\b[^.\\n]{0,80}\\b(?:into|in|to|within|with) your (?:code|solution|implementation|answer|response|script|program|project)\\b',
    ),
  },
];
