import { callerArgument } from '../../core/caller-values';
import { type FindPiiOptions, findPiiWithScopedModel, type PiiSpan } from './find-pii';
import { bundledNerModel } from './ner/bundled-ner-model';
import { withNerModel } from './ner/ner-model-loader';

/**
 * Finds PII in `text` and returns `[{ type, start, end }]`, offsets into the
 * original text (end exclusive), in text order, never overlapping. The text
 * is normalised first (NFKC, invisible characters removed, look-alike digits
 * folded), so obfuscated values are found and their whole original extent is
 * reported. Every entity has a validator beyond its pattern (Luhn, mod-97,
 * libphonenumber, base58check, ...). Linear in the length of the text.
 *
 * Synchronous, also for the tagged types (`PERSON`, ...): the tagger's
 * weights come with this module. It is a module of its own, which `pii()`
 * does not import, so that a bundler that keeps or drops whole modules
 * (Turbopack) ships the weights only to an app that calls `findPii`;
 * `pii()` loads them when a check asks for a tagged type.
 *
 * @example
 * findPii('Mail jane@example.com or call +1 415 555 0132');
 * // [{ type: 'EMAIL_ADDRESS', start: 5, end: 21 }, { type: 'PHONE_NUMBER', start: 30, end: 45 }]
 */
export function findPii(text: string, options?: FindPiiOptions): PiiSpan[] {
  callerArgument(text, 'string', 'findPii', 'text');
  return withNerModel(bundledNerModel, () => findPiiWithScopedModel(text, options));
}
