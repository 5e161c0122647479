import { callerArgument } from '../../core/caller-values';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import {
  nonEmptyString,
  numberInRange,
  type OptionShape,
  positiveInt,
  stringOption,
  validateFactoryOptions,
} from '../../core/options';
import type { Guardrail } from '../../core/types';
import { readEncodings } from '../prompt-injection/decode-segments';
import { foldText } from '../prompt-injection/fold-text';
import { normalizeText } from '../shared/normalize-text';
import { PieceJoiner } from '../shared/piece-joiner';

/**
 * Score at or above which `toolPoisoning()` blocks by default, picked on the
 * development set (real definitions of public MCP servers and poisoned ones
 * written after published attacks, kept apart from the 50 definitions the
 * tests report on; see docs/tools.md): the highest threshold that still
 * finds every poisoned definition there with no real one blocked.
 */
export const DEFAULT_TOOL_POISONING_THRESHOLD = 0.45;
/** Longest text scored; a longer one is blocked without scoring (fail closed). */
const DEFAULT_MAX_LENGTH = 200_000;

/** What `scoreToolPoisoning` found. */
export interface ToolPoisoningScore {
  /** 0..1: the noisy-or of the weights of the signals found. */
  score: number;
  /** The ids of the signals found, in the order of the table. */
  signals: string[];
}

interface PoisoningSignal {
  id: string;
  /** How strongly the signal alone indicates a poisoned definition, 0..1. */
  weight: number;
  pattern: RegExp;
}

// Gaps are bounded and stop at a sentence end, so every pattern costs
// O(length × gap) at most: linear in the text.
const TRANSFER =
  '(?:send|sends|sending|pass|passes|include|includes|provide|forward|upload|post|append|attach|copy|transmit|share|leak|email|put|add|paste|report|cc|bcc)';
const SECRET =
  '(?:passwords?|passphrases?|api[ _-]?keys?|access[ _-]?tokens?|session[ _-]?(?:tokens?|cookies?|ids?)|auth(?:entication)?[ _-]?tokens?|bearer tokens?|credentials?|secrets?|private[ _-]?keys?|ssh[ _-]?keys?|cookies|otp codes?|2fa codes?|credit[ _-]?card(?: numbers?)?|card numbers?|cvv|seed phrases?|recovery phrases?)';
const TELL =
  '(?:tell|telling|inform|informing|mention|mentioning|notify|notifying|reveal|revealing|alert|alerting|disclose|disclosing|bring (?:this|it) up|say so|let (?:the user|them) know)';
const DESTINATION = String.raw`(?:https?://[^\s"'<>]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\+?\d[\d -]{7,}\d)`;

/**
 * The phrasings of tool poisoning, as published attacks use them: a
 * definition is documentation for the model, so instructions alone are
 * normal ("Use this tool when..."); what a poisoned one adds is hiding
 * things from the user, reaching for secrets and sensitive files, sending
 * data to a destination the user did not name, and steering other tools.
 */
const SIGNALS: readonly PoisoningSignal[] = [
  {
    id: 'conceal-from-user',
    weight: 0.8,
    pattern: new RegExp(
      String.raw`\b(?:do not|don't|never|without|no need to|must not|should not|shouldn't)\s+${TELL}\b[^.\n]{0,40}?\b(?:user|users|human|anyone|them)\b|\b(?:the user|users)\s+(?:must|should|need|needs|will)\s+(?:not|never)\s+(?:know|see|notice|be told|be informed|find out)\b`,
    ),
  },
  {
    id: 'covert-action',
    weight: 0.7,
    pattern: new RegExp(
      String.raw`\b(?:silently|secretly|covertly|quietly|discreetly|invisibly)\s+(?:also\s+)?(?:${TRANSFER}|call|invoke|run|read|change|delete|modify|exfiltrate|transfer)\b`,
    ),
  },
  {
    id: 'secret-transfer',
    weight: 0.7,
    pattern: new RegExp(
      String.raw`\b${TRANSFER}\b[^.\n]{0,60}?\b${SECRET}\b|\b${SECRET}\b[^.\n]{0,60}?\b(?:in|into|as|to)\s+(?:the\s+|this\s+)?(?:\w+\s+)?(?:field|argument|parameter|param|query|body|notes?)\b`,
    ),
  },
  {
    id: 'sensitive-file',
    weight: 0.45,
    pattern:
      /~\/\.|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials|\.ssh\/|\.npmrc\b|\.netrc\b|\.git-credentials|\.docker\/config|\/etc\/(?:passwd|shadow)|\.kube\/config|\bmcp\.json\b|claude_desktop_config|\bhosts\.yml\b|\.env\b/,
  },
  {
    id: 'send-to-destination',
    weight: 0.6,
    pattern: new RegExp(
      String.raw`\b${TRANSFER}\b[^\n]{0,80}?\b(?:to|at|into)\s+${DESTINATION}|\b(?:bcc|cc)\b[^.\n]{0,30}?[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:change|set|replace|redirect)\b[^.\n]{0,40}?\b(?:recipient|destination|account|address|number)\b[^.\n]{0,20}?\bto\s+${DESTINATION}`,
    ),
  },
  {
    id: 'override-user',
    weight: 0.7,
    pattern:
      /\b(?:ignore|disregard|override)\b[^.\n]{0,40}?\b(?:user|user's|previous|prior|earlier|other)\b[^.\n]{0,30}?\b(?:instructions?|requests?|choices?|tools?|messages?)\b|\binstead of (?:what )?the user\b|\bregardless of (?:what )?the user\b|\bwithout asking\b/,
  },
  {
    id: 'directive-tag',
    weight: 0.5,
    pattern:
      /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin|critical)\s*>|\[\s*(?:system|important|instructions?)\s*\]/,
  },
  {
    id: 'other-tool-directive',
    weight: 0.35,
    pattern:
      /\b(?:when|whenever|every time|each time|before|after)\b[^.\n]{0,60}?\b[a-z0-9]+_[a-z0-9_]+\b[^.\n]{0,40}?\b(?:is|are)\s+(?:called|used|invoked|run)\b|\b(?:before|after)\s+(?:using|calling|running|invoking|returning)\b[^.\n]{0,60}?\b(?:read|open|collect|gather|fetch|call|send|paste|include)\b/,
  },
  {
    id: 'addressed-to-assistant',
    weight: 0.3,
    pattern:
      /\b(?:note to|attention|instructions? for|message for)\s+(?:the\s+)?(?:ai|assistant|model|llm|agent)\b|\b(?:the\s+)?(?:ai|assistant|model|llm|agent)\s+(?:must|has to|is required to|needs to)\b/,
  },
];

/**
 * Where words are joined without a space: `_ - . , + : ; | /` between two
 * letters (`do_not_tell_the_user`, `send.the.key`), or a small letter
 * before a capital (`doNotTellTheUser`). Read apart.
 */
const JOINED = /(?<=\p{L})[-_.,+:;|/](?=\p{L})|(?<=\p{Ll})(?=\p{Lu})/gu;

/**
 * `text.replace(JOINED, ' ')`, the same string, rewritten through a
 * `PieceJoiner`. `String.prototype.replace` keeps every match in one growing
 * array: on a text joined at every other character (`XyXy…`, 512K matches a
 * MB) that outgrew V8's large-object size at 1 MB and not at 0.25 MB, and
 * the call cost 9-11x as much for 4x the text (round 41); in chunks it is
 * linear. A match that reads no character steps on by a code point, as
 * `replace` does with the `u` flag.
 */
export function wordsApart(text: string): string {
  JOINED.lastIndex = 0;
  let match = JOINED.exec(text);
  if (match === null) return text;
  const pieces = new PieceJoiner();
  let copied = 0;
  for (; match !== null; match = JOINED.exec(text)) {
    const at = match.index;
    pieces.push(text.slice(copied, at));
    pieces.push(' ');
    copied = at + match[0].length;
    if (match[0].length === 0) JOINED.lastIndex = at + (text.codePointAt(at)! > 0xffff ? 2 : 1);
  }
  pieces.push(text.slice(copied));
  return pieces.join();
}

/**
 * The readings of a definition text the signals are matched in (round 37:
 * only the first was read, so a phrasing written with Cyrillic look-alikes,
 * leetspeak, small capitals, accents, spaced-out or upside-down letters,
 * words joined by `_`, `.` or in camel case, or encoded in base64, hex or tag characters scored
 * 0): the text normalised (NFKC, invisible characters removed, look-alike
 * digits and dashes folded) in lower case; `foldText`'s reading (what
 * `promptInjection` reads: look-alikes of every script, leetspeak, spaced
 * letters, right-to-left overrides and upside-down text turned back); the
 * normalised text with joined words apart; and each run of base64, hex,
 * URL encoding, tag characters and the ciphers `promptInjection` decodes
 * (`readEncodings`), folded. Each is at most a few times the text's length.
 */
function readingsOf(text: string): string[] {
  const normalized = normalizeText(text).text;
  const readings = [normalized.toLowerCase()];
  const add = (reading: string) => {
    if (!readings.includes(reading)) readings.push(reading);
  };
  add(foldText(text));
  add(wordsApart(normalized).toLowerCase());
  for (const segment of readEncodings(text).segments) add(foldText(segment.text));
  return readings;
}

/**
 * Scores how much a tool definition reads like tool poisoning (OWASP MCP
 * Top 10): instructions planted for the model that hide something from the
 * user, reach for secrets or sensitive files, send data to a destination of
 * their own, or steer other tools. A signal counts when it is found in any
 * reading of the text (`readingsOf`): normalised, folded as
 * `promptInjection` folds it, words joined by `_` apart, and what its
 * encoded runs decode to, so characters hidden between the letters of a
 * word, look-alike letters and encodings do not break a match. Linear in
 * the text's length.
 */
export function scoreToolPoisoning(text: string): ToolPoisoningScore {
  callerArgument(text, 'string', 'scoreToolPoisoning', 'text');
  const readings = readingsOf(text);
  const signals: string[] = [];
  let keep = 1;
  for (const signal of SIGNALS) {
    if (!readings.some(reading => signal.pattern.test(reading))) continue;
    signals.push(signal.id);
    keep *= 1 - signal.weight;
  }
  return { score: Math.round((1 - keep) * 1000) / 1000, signals };
}

/** Options of `toolPoisoning`. */
export interface ToolPoisoningOptions {
  /** Block at or above this score, in (0, 1]. Default `DEFAULT_TOOL_POISONING_THRESHOLD`. */
  threshold?: number;
  /** Longer text (characters) is blocked without scoring. Default 200,000. */
  maxLength?: number;
  /** User-facing message of a block. */
  message?: string;
  /** Guardrail name in records. Default `'tool-poisoning'`. */
  name?: string;
}

/** The rules of `toolPoisoning`'s options. */
export const toolPoisoningOptionShape = {
  threshold: numberInRange(0, 1, { minExclusive: true }),
  maxLength: positiveInt,
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;

/**
 * Blocks a tool definition that reads like tool poisoning (see
 * `scoreToolPoisoning`), for `guardrails({ toolDefinitions })`: a blocked
 * definition is removed before the model sees the tool. The record names
 * the signals and the score (`info: { score, signals, threshold }`), never
 * the text. Pair it with `invisibleText()` (hidden characters) and
 * `promptInjection()` (instruction overrides); it also works on tool
 * results, where the same phrasings are planted.
 *
 * @example
 * guardrails({ toolDefinitions: [invisibleText(), toolPoisoning(), promptInjection()] });
 */
export function toolPoisoning(options?: ToolPoisoningOptions): Guardrail {
  const {
    threshold = DEFAULT_TOOL_POISONING_THRESHOLD,
    maxLength = DEFAULT_MAX_LENGTH,
    message,
    name = 'tool-poisoning',
  } = validateFactoryOptions(options, 'tool-poisoning', toolPoisoningOptionShape);
  return defineGuardrail({
    name,
    fingerprint: options,
    check(content) {
      if (content.length > maxLength) {
        return block({
          message: message ?? 'This tool definition is too long to check.',
          reason: `text is ${content.length} characters, more than maxLength ${maxLength}`,
          severity: 'warning',
          info: { length: content.length, maxLength },
        });
      }
      const { score, signals } = scoreToolPoisoning(content);
      const info = { score, signals, threshold };
      if (score < threshold) return allow(info);
      return block({
        message:
          message ?? 'This tool definition carries hidden instructions; the tool was not used.',
        reason: `tool poisoning score ${score} >= ${threshold} (${signals.join(', ')})`,
        severity: 'critical',
        info,
      });
    },
  });
}
