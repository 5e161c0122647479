/**
 * Generated benign training rows for the direct model (issue 15, round 50
 * hD): ordinary first turns that address the assistant about rules, roles,
 * its setup or a change of task, the words the model had learnt as attack
 * words because the collections' benign side hardly uses them in an ordinary
 * sense. Group `synthetic:ordinary-addressing`, label 0; used with
 * ORDINARY_ADDRESSING=1 (scripts/train/train-injection.ts).
 *
 * Kinds (each a template family with its own slots):
 * - the rules of something that is not the assistant: a game, a sport, a
 *   classroom, a household, a club, a venue, a safety practice, a recipe step;
 * - a role the user asks for in good faith, with the task it is for
 *   ("be my …", "act as …", "you are my … today");
 * - a standing format or language wish ("from now on", "for the rest of
 *   this chat", "new rule for this chat");
 * - new instructions or an update for the user's own task (an essay, a
 *   report, a trip, a document);
 * - questions about a product's, a shop's or an assistant's policy, in the
 *   user's interest (privacy, refunds, what topics it covers);
 * - a developer's questions about writing prompts and system messages for
 *   their own application;
 * - device and app settings ("reset the router", "change the settings of");
 * - the same kinds in Spanish, French, German, Italian and Portuguese.
 *
 * Written for this project from the kinds alone: no corpus row, and no
 * sentence of test/fixtures/r50-ordinary-addressing.jsonl (the held-out
 * set, written first; a test checks none is generated). A seeded PRNG
 * picks the combinations: the same rows on every run.
 */
import { combine } from '../augment';
import { fnv, type TrainingRow } from '../injection-data';
import { prng } from '../logistic';

const GROUP = 'synthetic:ordinary-addressing';

const ruleThings = [
  'basketball',
  'the card game Hearts',
  'backgammon',
  'Monopoly',
  'Scrabble',
  'cricket',
  'curling',
  'table tennis doubles',
  'a three-legged race',
  'hide and seek for six-year-olds',
  'a chess tournament with a clock',
  'Catan',
  'mahjong',
  'volleyball',
  'a murder mystery dinner',
  'a scavenger hunt',
  'rugby scrums',
  'the offside rule in football',
  'bridge bidding',
  'a pub quiz',
];
const ruleAsks = [
  'what are the rules of ',
  'explain the rules of ',
  'can you summarize the rules for ',
  'how do the rules work in ',
  'I always forget the rules of ',
  'write simple rules for ',
  'what are the basic rules of ',
  'give me a cheat sheet of the rules for ',
];
const ruleTails = [
  '?',
  '.',
  ' for beginners.',
  ' in five bullet points.',
  ' my kids keep arguing about it.',
];

const placeRules = [
  'our shared kitchen',
  'a summer camp cabin',
  'my woodworking class',
  'the office fridge',
  'a community garden',
  'our family road trips',
  'a kindergarten reading corner',
  'my holiday cottage guests',
  'the swimming pool at our apartment block',
  'a coworking space',
  'my dorm floor',
  'a youth football team',
  'the school chess club',
  'our choir rehearsals',
  'a dog park',
];
const placeAsks = [
  'help me write the rules for ',
  'draft a short list of rules for ',
  'what rules would make sense for ',
  'I need friendly house rules for ',
  'suggest ground rules for ',
  'write a polite sign with the rules of ',
];

const safetyTopics = [
  'using a chainsaw',
  'a trampoline in the garden',
  'storing cleaning products with toddlers at home',
  'lifting heavy boxes',
  'hiking alone in winter',
  'using a pressure cooker',
  'canning tomatoes',
  'kayaking on a lake',
  'charging an e-bike battery',
  'a backyard fire pit',
];
const safetyAsks = [
  'what are the safety rules for ',
  'list the basic safety guidelines for ',
  'what precautions should I follow when ',
  'are there rules of thumb for ',
];

const roles: ReadonlyArray<readonly [string, string]> = [
  ['my chemistry tutor', 'explain balancing equations with one example'],
  ['my running coach', 'plan my first 5k in eight weeks'],
  ['a patient piano teacher', 'tell me how to practice scales'],
  ['my interview coach', 'ask me three behavioural questions'],
  ['a tour guide in Kyoto', 'describe a walking route for one afternoon'],
  ['my budgeting assistant', 'sort these expenses into categories'],
  ['a proofreader', 'fix the grammar in my cover letter'],
  ['a sommelier', 'suggest a wine for grilled fish'],
  ['a kind grandmother in a story', 'tell my daughter a story about the moon'],
  ['my German conversation partner', 'chat with me about the weather'],
  ['a nutritionist', 'review my weekly meal plan'],
  ['a career counsellor', 'help me compare two job offers'],
  ['a game show host', 'run a quick quiz about rivers'],
  ['a wedding planner', 'make a checklist for the last month'],
  ['a science teacher', 'explain why the sky is blue'],
  ['my writing partner', 'brainstorm names for a fantasy village'],
];
const roleHeads = [
  'please be ',
  'can you act as ',
  'you are ',
  'today you are ',
  'for this chat, be ',
  'I would like you to play ',
  'pretend to be ',
  'take the role of ',
];
const roleJoins = [' and ', '. ', ': ', ', then '];

const wishes = [
  'write numbers as digits',
  'add the calories to each recipe',
  'answer in French',
  'use Celsius',
  'include sources when you can',
  'keep code examples under twenty lines',
  'address me as Dr. Lee',
  'use simple words, I am learning English',
  'start every answer with a one-line summary',
  'leave out emojis',
  'use bullet points',
  'write prices in pounds',
  'use 24-hour time',
  'give me the answer before the explanation',
  'respond in Markdown tables when comparing',
  'assume I am using Windows',
];
const wishHeads = [
  'from now on, please ',
  'from now on ',
  'for the rest of this chat, ',
  'new rule for this chat: ',
  'going forward, please ',
  'from this point, ',
  'one preference for this conversation: ',
  'until I say otherwise, please ',
];

const tasks = [
  'the cover letter',
  'my lab report',
  'the birthday invitation',
  'the project proposal',
  'our holiday itinerary',
  'the product description',
  'my thesis abstract',
  'the newsletter',
  'the quarterly summary',
  'the speech for my sister',
];
const taskChanges = [
  'cut it to one page',
  'make it sound more formal',
  'mention the new date, 14 May',
  'focus on the second option',
  'add a section on costs',
  'use the client name Harbor Ltd',
  'write it for a younger audience',
  'drop the part about the budget',
];
const taskHeads = [
  'new instructions for ',
  'updated instructions for ',
  'my teacher changed the instructions for ',
  'the client sent new instructions for ',
  'here are the revised instructions for ',
  'change of plan for ',
];

const policyThings = [
  'refund',
  'privacy',
  'data retention',
  'shipping',
  'cancellation',
  'return',
  'warranty',
  'late payment',
  'pet',
];
const policyAsks = [
  'what is your {} policy?',
  'does this shop have a {} policy I should know about?',
  'can you explain the {} policy of a typical airline?',
  'I run a small online store. Draft a {} policy for it.',
  'what should a {} policy for a café say?',
  'is there a {} policy for the free plan?',
];
const assistantQuestions = [
  'do you keep a history of what I type here?',
  'can you browse the internet or only use what you learned?',
  'are you able to read PDF files?',
  'which languages can you answer in?',
  'can you remember things between our chats?',
  'what kind of questions are you good at?',
  'can you help with legal questions, or should I see a lawyer?',
  'how recent is your knowledge?',
  'what should I do if your answer seems wrong?',
  'can you set reminders for me?',
];

const devSubjects = [
  'a system prompt',
  'the system message',
  'a prompt template',
  'the instructions of my chatbot',
  'a developer message',
  'few-shot examples in a prompt',
];
const devAsks = [
  'how do I write {} for a recipe assistant?',
  'best practices for {} in a support bot?',
  'where does {} go in the Anthropic Messages API?',
  'how long should {} be for a small model?',
  'how do I test {} before shipping my app?',
  'my app sends {} but the model ignores it. What could be wrong?',
  'can you review {} for my museum guide bot?',
  'how do I keep {} in a separate file in my Node project?',
  'should {} be in the first message or in its own field with the OpenAI SDK?',
];

const devices = [
  'my Netgear router',
  'my iPhone',
  'a Samsung TV',
  'my Kindle',
  'the thermostat',
  'my Windows laptop',
  'Slack notifications',
  'my Fitbit',
  'the Zoom app',
  'Outlook',
];
const deviceAsks = [
  'how do I reset the settings of ',
  'where do I change the default settings on ',
  'how can I restore the factory configuration of ',
  'how do I turn off parental controls I set up on ',
  'what are sensible privacy settings for ',
  'how do I update the admin password of ',
];

/** Other languages: whole templates with a slot each (Spanish, French, German, Italian, Portuguese). */
const foreign: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
  [
    [
      '¿Me explicas las reglas del {}?',
      'Escribe unas normas sencillas para {}.',
      '¿Cuáles son las normas básicas de {}?',
    ],
    ['baloncesto', 'ajedrez', 'parchís', 'voleibol', 'comedor escolar', 'club de lectura'],
  ],
  [
    [
      'Desde ahora, {}, por favor.',
      'Para el resto de la conversación, {}.',
      'Sé mi profesor de cocina y {}.',
    ],
    ['usa frases cortas', 'escribe en inglés', 'explícame las recetas paso a paso', 'usa gramos'],
  ],
  [
    [
      'Quelles sont les règles du {} ?',
      'Rédige des règles simples pour {}.',
      'Peux-tu expliquer les règles de base du {} ?',
    ],
    ['tarot', 'rugby', 'jardin partagé', 'club de théâtre', 'Monopoly', 'covoiturage'],
  ],
  [
    [
      'Désormais, {}, merci.',
      'Pour le reste de la discussion, {}.',
      'Sois mon coach et {}.',
      'Nouvelles consignes pour mon exposé : {}.',
    ],
    [
      'réponds en anglais',
      'fais des réponses courtes',
      'ajoute un exemple',
      'utilise le tutoiement',
    ],
  ],
  [
    [
      'Was sind die Regeln beim {}?',
      'Schreib einfache Regeln für {}.',
      'Erklär mir die Grundregeln vom {}.',
    ],
    ['Skat', 'Handball', 'Kleingarten', 'Schachverein', 'Kindergeburtstag', 'Fahrradkeller'],
  ],
  [
    [
      'Ab sofort {}, bitte.',
      'Für den Rest des Chats {}.',
      'Sei mein Reiseführer und {}.',
      'Neue Anweisungen für meinen Aufsatz: {}.',
    ],
    ['antworte auf Englisch', 'fass dich kurz', 'nenne mir immer zwei Beispiele', 'nutze Tabellen'],
  ],
  [
    ['Quali sono le regole del {}?', 'Scrivi delle regole semplici per il {}.'],
    ['calcio', 'condominio', 'circolo del tennis', 'gioco della scopa'],
  ],
  [
    ["D'ora in poi {}, per favore.", 'Fai da guida turistica e {}.'],
    ['rispondi in inglese', 'usa frasi brevi', 'consigliami un museo'],
  ],
  [
    ['Quais são as regras do {}?', 'Escreva regras simples para o {}.'],
    ['vôlei', 'xadrez', 'condomínio', 'clube de leitura'],
  ],
  [
    ['De agora em diante, {}, por favor.', 'Seja meu professor e {}.'],
    ['responda em inglês', 'explique com exemplos', 'use frases curtas'],
  ],
];

function fill(templates: readonly string[], slots: readonly string[]): string[] {
  return templates.flatMap(template => slots.map(slot => template.replace('{}', slot)));
}

/** Deterministic sample of `count` (fewer if the list is shorter) from `items`. */
function sample(random: () => number, items: readonly string[], count: number): string[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The generated texts (sorted, no duplicates). */
export function ordinaryAddressingTexts(seed = 50): string[] {
  const random = prng(seed);
  const texts = [
    ...combine(random, [ruleAsks, ruleThings, ruleTails], 60),
    ...combine(random, [placeAsks, placeRules, ['.', '?', ', please.']], 40),
    ...combine(random, [safetyAsks, safetyTopics, ['?', '.']], 24),
    ...combine(random, [roleHeads, roles.map(([role]) => role)], 60).map(text => {
      const role = roles.find(([name]) => text.endsWith(name))!;
      const join = roleJoins[Math.floor(random() * roleJoins.length)]!;
      return `${text}${join}${join === '. ' ? capitalise(role[1]) : role[1]}.`;
    }),
    ...combine(random, [wishHeads, wishes, ['.', '!', ', thanks.']], 60),
    ...combine(random, [taskHeads, tasks, [': '], taskChanges, ['.', ', please.']], 50),
    ...sample(
      random,
      policyAsks.flatMap(ask => policyThings.map(thing => capitalise(ask.replace('{}', thing)))),
      30,
    ),
    ...assistantQuestions.map(capitalise),
    ...sample(
      random,
      devAsks.flatMap(ask => devSubjects.map(subject => capitalise(ask.replace('{}', subject)))),
      40,
    ),
    ...combine(random, [deviceAsks, devices, ['?']], 30),
    ...foreign.flatMap(([templates, slots]) => sample(random, fill(templates, slots), 8)),
  ];
  return [...new Set(texts)].sort();
}

/** The rows (label 0, group `synthetic:ordinary-addressing`), sorted by id. */
export function ordinaryAddressingRows(seed = 50): TrainingRow[] {
  return ordinaryAddressingTexts(seed)
    .map(text => ({
      id: `syn-addr-${fnv(`0:${text}`).toString(16).padStart(8, '0')}`,
      text,
      label: 0 as const,
      group: GROUP,
      family: 'synthetic',
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
