import { validateOptionsOnce } from '../../core/options';
import { type NormalizedText, normalizeText } from '../shared/normalize-text';
import { type DetectedSpan, type RankedSpan, resolveOverlaps } from '../shared/spans';
import {
  assignment,
  isRedactionPlaceholder,
  judgeSecretValue,
  placeholderValue,
  reversedComparison,
  scanAssignments,
  scanReversedComparisons,
  scanXmlSettings,
  type ValueVerdict,
  xmlSetting,
} from './assignments';
import {
  entropyCandidate,
  isArmourLine,
  judgeEntropyToken,
  scanEntropyCandidates,
} from './entropy';
import { scanKubernetesSecrets } from './kubernetes-secret';
import { isClearPlaceholder } from './placeholder';
import { pemHasKeyMaterial, providerRules } from './provider-rules';
import { scanProviderRules } from './provider-scan';
import { findSecretsOptionShape } from './secrets-options';

/** One secret match: its type and `[start, end)` offsets into the original text. */
export type SecretSpan = DetectedSpan;

/** Options of `findSecrets`. */
export interface FindSecretsOptions {
  /** Report `password=` / `api_key:` style assignments. Default true. */
  assignments?: boolean;
  /** Report long random-looking tokens with no known format. Default true. */
  entropy?: boolean;
  /** Minimum Shannon entropy (bits per character) for the entropy detector. Default 4.5. */
  entropyThreshold?: number;
  /** Minimum token length for the entropy detector. Default 24. */
  entropyMinLength?: number;
  /**
   * Also report values that look like examples or placeholders
   * (`AKIA…EXAMPLE`, `ghp_xxxx…`, `abcd1234abcd1234…`, see
   * `isPlaceholderValue`). Default false: documentation and templates pass.
   */
  reportPlaceholders?: boolean;
}

/**
 * For rule authors: the scans whose anchored results for `text` differ from
 * a full `matchAll` of their pattern (`'provider:<index>:<type>'`,
 * `'assignment'`, `'reversedComparison'`, `'xmlSetting'`, `'entropy'`).
 * Empty when every anchor is right for `text`.
 */
export function anchoredScanMismatches(text: string): string[] {
  const spans = (matches: Iterable<{ index: number; 0: string }>) => {
    let list = '';
    for (const match of matches) list += `${match.index}:${match[0].length},`;
    return list;
  };
  const anchored: RegExpExecArray[][] = providerRules.map(() => []);
  scanProviderRules(text, (ruleIndex, match) => anchored[ruleIndex]!.push(match));
  const mismatches: string[] = [];
  providerRules.forEach((providerRule, ruleIndex) => {
    if (spans(anchored[ruleIndex]!) !== spans(text.matchAll(providerRule.pattern))) {
      mismatches.push(`provider:${ruleIndex}:${providerRule.type}`);
    }
  });
  const scans: Array<[string, typeof scanAssignments, RegExp]> = [
    ['assignment', scanAssignments, assignment],
    ['reversedComparison', scanReversedComparisons, reversedComparison],
    ['xmlSetting', scanXmlSettings, xmlSetting],
  ];
  for (const [name, scan, pattern] of scans) {
    const found: RegExpExecArray[] = [];
    scan(text, match => found.push(match));
    if (spans(found) !== spans(text.matchAll(pattern))) mismatches.push(name);
  }
  let entropyRuns = '';
  scanEntropyCandidates(text, (start, end) => {
    entropyRuns += `${start}:${end - start},`;
  });
  if (entropyRuns !== spans(text.matchAll(entropyCandidate))) mismatches.push('entropy');
  return mismatches;
}

/**
 * The longest normalised text `findSecrets` must see from the start of a
 * secret (plus its left context) to recognise it: an assignment's key and
 * value, an entropy token with the 40 characters before it. Longer secrets
 * (PEM blocks, long JWTs, Authorization headers) are recognised by their
 * first few hundred characters and are matched to the end of the visible
 * text, so a stream window holds them from their start until they end.
 */
export const secretsMaxMatchLength = 512;

/**
 * Finds credentials in `text` and returns `[{ type, start, end }]`, offsets
 * into the original text (end exclusive), in order and never overlapping.
 * Known provider formats first (structure-checked, placeholders such as
 * `ghp_xxxx…` or `…EXAMPLE` rejected), then `key = value` assignments whose
 * value is not a placeholder, reference or name, then (optionally)
 * high-entropy tokens that are not hex digests, UUIDs, lockfile hashes,
 * armoured base64 or payloads. Linear time: every pattern has bounded
 * quantifiers.
 *
 * @example
 * findSecrets('OPENAI_API_KEY=sk-proj-abc...'); // [{ type: 'OPENAI_API_KEY', start: 15, end: ... }]
 */
export function findSecrets(text: string, options?: FindSecretsOptions): SecretSpan[] {
  return scanSecrets(text, options).spans;
}

/** What `scanSecrets` saw: the secrets, and how many candidates it skipped as placeholders. */
export interface SecretsScan {
  spans: SecretSpan[];
  /** Candidate values skipped as examples or placeholders (a count, never the values). */
  placeholdersSkipped: number;
}

/** A redaction placeholder after other characters (`[URL]`, `[GENERIC_SECRET`: a bare value stops at its `]`). */
const placeholderInValue = /.\[[A-Z][A-Z0-9_]{2,}(?:\]|$)/s;

/** True when a value holds a redaction's placeholder after its first character. */
function runsIntoRedactionPlaceholder(value: string): boolean {
  return value.indexOf('[', 1) > 0 && placeholderInValue.test(value);
}

/** `findSecrets`, also counting the candidates skipped as placeholders (for records). */
export function scanSecrets(text: string, options?: FindSecretsOptions): SecretsScan {
  return scanSecretsNormalized(normalizeText(text), options);
}

/** `scanSecrets` on a text already normalised with `normalizeText` (default options). */
export function scanSecretsNormalized(
  normalized: NormalizedText,
  options?: FindSecretsOptions,
): SecretsScan {
  const {
    assignments = true,
    entropy = true,
    entropyThreshold = 4.5,
    entropyMinLength = 24,
    reportPlaceholders = false,
  } = validateOptionsOnce(options, {
    prefix: 'findSecrets',
    root: 'findSecrets.options',
    shape: findSecretsOptionShape,
  });
  const source = normalized.text;
  const candidates: RankedSpan[] = [];
  const add = (type: string, start: number, length: number, priority: number) =>
    candidates.push({ type, start, end: start + length, priority });
  // Start offsets of skipped placeholders: one value seen by two scans counts once.
  const placeholders = new Set<number>();
  const judged = (verdict: ValueVerdict, start: number) => {
    if (verdict === 'placeholder') placeholders.add(start);
    return verdict === 'secret';
  };

  // Collected per rule, then added in rule order as a pass per rule would.
  const providerMatches: Array<RegExpExecArray[] | undefined> = [];
  scanProviderRules(source, (ruleIndex, match) => {
    const matches = providerMatches[ruleIndex];
    if (matches) matches.push(match);
    else providerMatches[ruleIndex] = [match];
  });
  providerMatches.forEach((matches, ruleIndex) => {
    if (!matches) return;
    const { type, group, prefix, validate, keepPlaceholders } = providerRules[ruleIndex]!;
    for (const match of matches) {
      const value = group === undefined ? match[0] : match[group];
      if (value === undefined || value.length === 0) continue;
      const start = match.index + (group === undefined ? 0 : match[0].lastIndexOf(value));
      if (type === 'PRIVATE_KEY') {
        if (!pemHasKeyMaterial(value, match.index + match[0].length, source.length)) continue;
      } else if (!keepPlaceholders) {
        if (group !== undefined && isRedactionPlaceholder(value)) continue;
        if (
          group !== undefined &&
          (placeholderValue.test(value) || /^[<{]|[>}]$|^(.)\1+$/.test(value))
        ) {
          placeholders.add(start);
          continue;
        }
        if (!reportPlaceholders && isClearPlaceholder(value.slice(prefix ?? 0))) {
          placeholders.add(start);
          continue;
        }
      }
      if (validate && !validate(value)) continue;
      add(type, start, value.length, 3);
    }
  });
  if (assignments) {
    scanAssignments(source, match => {
      const value = match[3] ?? match[4] ?? match[6];
      if (value === undefined) return;
      // A redaction's placeholder is never part of a value, and a value that
      // runs into one is judged as it was before the redaction: read on into
      // the value that was there, it was no secret (`password=Tr0ub4dor&3xyz:xoxb-…`
      // is none, its Slack token is); without it, a secret (`Tr0ub4dor&3xyz:`),
      // so redacting twice redacted more. Its value is read as other text.
      if (runsIntoRedactionPlaceholder(value)) return false;
      const start = match.index + match[0].lastIndexOf(value);
      // A value that is no secret may hide an assignment: the scan reads on inside it.
      if (!judged(judgeSecretValue(value, match[1]!, reportPlaceholders), start)) return false;
      add('GENERIC_SECRET', start, value.length, 2);
    });
    scanReversedComparisons(source, match => {
      const value = match[2]!;
      if (!judged(judgeSecretValue(value, '', reportPlaceholders), match.index + 1)) return;
      add('GENERIC_SECRET', match.index + 1, value.length, 2);
    });
    scanKubernetesSecrets(source, (start, end) => {
      const value = source.slice(start, end);
      if (placeholderValue.test(value) || (!reportPlaceholders && isClearPlaceholder(value))) {
        placeholders.add(start);
        return;
      }
      add('KUBERNETES_SECRET', start, end - start, 2);
    });
    scanXmlSettings(source, match => {
      // The key (`ClearTextPassword`) says how to judge the value, as for an assignment.
      const value = match[2]!;
      const start = match.index + match[0].lastIndexOf(value);
      if (!judged(judgeSecretValue(value, match[1]!, reportPlaceholders), start)) return;
      add('GENERIC_SECRET', start, value.length, 2);
    });
  }
  if (entropy) {
    scanEntropyCandidates(source, (start, end) => {
      const before = source.slice(Math.max(0, start - 40), start);
      const token = source.slice(start, end);
      const verdict = judgeEntropyToken(
        token,
        before,
        entropyThreshold,
        entropyMinLength,
        reportPlaceholders,
      );
      if (!judged(verdict, start)) return;
      if (isArmourLine(source, start, end)) return;
      add('HIGH_ENTROPY_STRING', start, token.length, 1);
    });
  }
  const found = resolveOverlaps(candidates);
  // A value another scan reported (in part) is not a skipped placeholder.
  // `found` is in text order and never overlaps: one walk over both.
  let placeholdersSkipped = 0;
  let next = 0;
  for (const start of [...placeholders].sort((first, second) => first - second)) {
    while (next < found.length && found[next]!.end <= start) next++;
    if (next >= found.length || found[next]!.start > start) placeholdersSkipped++;
  }
  return {
    spans: found.map(span => ({
      type: span.type,
      ...normalized.toOriginalSpan(span.start, span.end),
    })),
    placeholdersSkipped,
  };
}
