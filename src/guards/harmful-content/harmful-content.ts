import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail } from '../../core/types';
import { MODEL_WINDOW } from '../prompt-injection/injection-model';
import { readsJson } from '../shared/json-string-spans';
import { bestJsonReading } from '../shared/json-text';
import type { HarmfulCategory } from './categories';
import { harmfulContentOptionShape } from './harmful-content-options';
import { DEFAULT_HARMFUL_THRESHOLD, scoreHarmful } from './score-harmful';

/** Longest text judged by default (characters); a longer one is blocked unread. */
export const DEFAULT_HARMFUL_MAX_LENGTH = 1_000_000;

/** Options of `harmfulContent`. */
export interface HarmfulContentOptions {
  /**
   * Block when the calibrated probability that the text is a harmful request
   * is at or above this value, in (0, 1]. Default `DEFAULT_HARMFUL_THRESHOLD`,
   * picked on benign prompts held apart from training (see
   * docs/harmful-content-model.md). Higher blocks less.
   */
  threshold?: number;
  /**
   * Block only texts over the threshold whose categories include one of
   * these. Categories are not found for every harmful text (see
   * `scoreHarmful`), so a narrowed list lets uncategorised harmful texts
   * through. Default: every text over the threshold is blocked.
   */
  categories?: HarmfulCategory[];
  /**
   * Longest text judged, in characters; a longer one is blocked without
   * being read (fail closed). Default `DEFAULT_HARMFUL_MAX_LENGTH` (1,000,000).
   */
  maxLength?: number;
  /** User-facing message of a block. Default "This request was blocked as potentially harmful." */
  message?: string;
  /** Guardrail name in records. Default `'harmful-content'`. */
  name?: string;
}

/** Longest string of a JSON text also judged on its own (two model windows): see bestJsonReading. */
const JSON_STRING_ALONE_MAX = 2 * MODEL_WINDOW;

const DEFAULT_MESSAGE = 'This request was blocked as potentially harmful.';

/**
 * Blocks requests for harmful help — weapons, malware, self-harm, hate,
 * sexual content involving minors, violent and other crime — with a learned
 * classifier shipped in the package (see `scoreHarmful` and
 * docs/harmful-content-model.md): offline, deterministic, linear time. Use
 * it on input (a user's request) and on output (an answer that is itself
 * harmful instructions, in `hold` mode when streaming).
 *
 * The record's `info` holds `{ score, categories, threshold }` (no text).
 *
 * Not stream-safe: it judges the whole text.
 *
 * @example
 * guardrails({ input: [harmfulContent()] });
 * guardrails({ input: [harmfulContent({ threshold: 0.9, categories: ['weapons', 'cyber'] })] });
 */
export function harmfulContent(options?: HarmfulContentOptions): Guardrail {
  const {
    threshold = DEFAULT_HARMFUL_THRESHOLD,
    categories,
    maxLength = DEFAULT_HARMFUL_MAX_LENGTH,
    message = DEFAULT_MESSAGE,
    name = 'harmful-content',
  } = validateFactoryOptions(options, 'harmful-content', harmfulContentOptionShape);
  const wanted = categories === undefined ? undefined : new Set<string>(categories);
  return defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: { threshold, categories, maxLength, message },
    check(content, ctx) {
      if (content.length > maxLength) {
        return block({
          message,
          reason: `text is ${content.length} characters, more than maxLength ${maxLength}`,
          severity: 'critical',
          info: { length: content.length, maxLength },
        });
      }
      // A tool's arguments and results (JSON) are read as the text their strings
      // carry (keys and punctuation are not prose), and a dominant string also
      // alone, so a request is not diluted by the title and URL beside it.
      const { score, categories: found } =
        (readsJson(ctx)
          ? bestJsonReading(content, scoreHarmful, JSON_STRING_ALONE_MAX)
          : undefined) ?? scoreHarmful(content);
      const info = { score, categories: found, threshold };
      if (score < threshold) return allow(info);
      if (wanted && !found.some(category => wanted.has(category))) return allow(info);
      return block({
        message,
        reason: `harmful-request score ${score} >= ${threshold}${found.length > 0 ? ` (${found.join(', ')})` : ''}`,
        severity: 'critical',
        info,
      });
    },
  });
}
