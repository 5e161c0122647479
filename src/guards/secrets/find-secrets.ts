import { callerArgument } from '../../core/caller-values';
import { validateOptionsOnce } from '../../core/options';
import { positionsOfUnit, printableRuns } from '../shared/anchored-scan';
import { chunkedScanFrom, scanInChunks, type TextSource } from '../shared/chunked-scan';
import { brokenText, otherReadings } from '../shared/invisible-breaks';
import { isJsSpace } from '../shared/js-space';
import {
  type NormalizationPoints,
  type NormalizedText,
  normalizeText,
} from '../shared/normalize-text';
import { withSpansApart, withWiderSpans } from '../shared/private-use';
import {
  type DetectedSpan,
  firstStartAtOrAfter,
  type RankedSpan,
  resolveOverlaps,
} from '../shared/spans';
import {
  assignmentAsScanned,
  bareValueEnd,
  continuedValue,
  isPropertiesPasswordKey,
  isRedactionPlaceholder,
  lastVerdictJudge,
  namesWholeSecret,
  placeholderValue,
  propertiesValueEnd,
  quotedValueState,
  reversedComparison,
  scanAssignments,
  scanReversedComparisons,
  scanXmlSettings,
  type ValueVerdict,
  xmlSetting,
} from './assignments';
import { base64Wrapped } from './base64-reading';
import {
  entropyCandidate,
  isArmourLine,
  judgeEntropyToken,
  scanEntropyCandidates,
} from './entropy';
import {
  concatenationSites,
  type EscapedReading,
  escapeSites,
  type ReadingSites,
  readingOf,
} from './escaped-reading';
import { forEachGluedKeyMatch } from './glued-keys';
import { scanKubernetesSecrets } from './kubernetes-secret';
import { lookAlikeSites } from './look-alike-reading';
import { isClearPlaceholder, isClearPlaceholderAfterPrefix } from './placeholder';
import { withoutPlaceholderRuns } from './placeholder-runs';
import { pemBlockEnd, pemHasKeyMaterial, providerRules } from './provider-rules';
import { providerRunLength, scanProviderRules } from './provider-scan';
import { findSecretsOptionShape } from './secrets-options';
import {
  forEachPiecedAwsMatch,
  forEachShortPiecesMatch,
  forEachSplitPrefixMatch,
} from './split-prefix';
import { scanYamlBlockScalars } from './yaml-block-scalar';

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
    ['assignment', scanAssignments, assignmentAsScanned],
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
  callerArgument(text, 'string', 'findSecrets', 'text');
  return scanSecrets(text, options).spans;
}

/** What `scanSecrets` saw: the secrets, and how many candidates it skipped as placeholders. */
export interface SecretsScan {
  spans: SecretSpan[];
  /** Candidate values skipped as examples or placeholders (a count, never the values). */
  placeholdersSkipped: number;
}

/** Redaction placeholders (`[GENERIC_SECRET]`; `[SLACK_TOKEN` at the end of a value a bracket closed). */
const redactionPlaceholder = /\[[A-Z][A-Z0-9_]{2,}(?:\]|$)/g;

/** `[from, to)` offsets of the redaction placeholders in `value`. */
function redactionPlaceholdersIn(value: string): Array<[number, number]> {
  if (value.indexOf('[') < 0) return [];
  const found: Array<[number, number]> = [];
  redactionPlaceholder.lastIndex = 0;
  for (
    let match = redactionPlaceholder.exec(value);
    match;
    match = redactionPlaceholder.exec(value)
  )
    found.push([match.index, match.index + match[0].length]);
  return found;
}

/** The spans of `sorted` (by start) that lie inside `[start, end)`. */
function spansWithin(
  sorted: readonly DetectedSpan[],
  start: number,
  end: number,
): Array<{ start: number; end: number }> {
  const inside: Array<{ start: number; end: number }> = [];
  for (let index = firstStartAtOrAfter(sorted, start); index < sorted.length; index++) {
    const span = sorted[index]!;
    if (span.start >= end) break;
    if (span.end <= end) inside.push({ start: span.start, end: span.end });
  }
  return inside;
}

/** Whether a token of `sorted` (by start) starts in `start`…`end` and runs on past `end`. */
function tokenRunsPast(sorted: readonly DetectedSpan[], start: number, end: number): boolean {
  for (let index = firstStartAtOrAfter(sorted, start); index < sorted.length; index++) {
    const span = sorted[index]!;
    if (span.start >= end) return false;
    if (span.end > end) return true;
  }
  return false;
}

/** The most characters a bare value runs on after a provider token (the assignment's own bound). */
const bareValueReach = 300;

/**
 * The end of a bare value that ends at `end`, moved past each provider
 * token (of `sorted`, by start) that starts in it and runs on past it: a
 * token joined across a blank (`token=sk-proj-Tq7v… Lw4Z…).`). Once that
 * token is redacted the blank is gone and the value reads on from its
 * placeholder over what is glued after it (`[OPENAI_API_KEY]).`), which a
 * second redaction then judged as a part of the value (round 22: not
 * idempotent). The value is read as it will read then: on from the token's
 * end to the blank, quote or separator that ends a bare value there.
 */
function valueEndPastTokens(
  source: string,
  sorted: readonly DetectedSpan[],
  keyStart: number,
  start: number,
  end: number,
): number {
  for (let index = firstStartAtOrAfter(sorted, start); index < sorted.length; index++) {
    const span = sorted[index]!;
    if (span.start >= end) break;
    if (span.end <= end) continue;
    let runEnd = span.end;
    while (
      runEnd < source.length &&
      runEnd - span.end < bareValueReach &&
      !isBlankOrQuoteCode(source.charCodeAt(runEnd))
    )
      runEnd++;
    end = bareValueEnd(source, keyStart, span.end, runEnd);
  }
  return end;
}

/**
 * The most characters of a value the assignment pattern cut at its bound
 * that are read to judge it whole: past them it is redacted unjudged.
 */
export const wholeValueBound = 16_384;

/** Where a value cut at its bound ends, and whether it runs past `wholeValueBound`. */
interface CutValue {
  end: number;
  tooLong: boolean;
}

/**
 * A value the assignment pattern cut at its bound (a bare one at 300
 * characters, `end` where it was cut; a quoted one at 200, `quoteCut`)
 * with more of it after: where it ends (a bare one where its format ends
 * it in the rest of its run, a quoted one at the next quote or line
 * break), and whether it is longer than `bound`. A bare value's run is
 * read up to `bound` (and two more) for its end; past that to the run's
 * end, which is then the value's end (`tooLong`). Undefined when the
 * value was not cut. Round 30: the first 300 characters were redacted and
 * the rest released; round 34: only those were judged, so a padded value
 * (`password=<1,100 x>Q9Lm…`) read as a placeholder and passed whole.
 */
function cutValue(
  source: string,
  keyStart: number,
  start: number,
  end: number,
  quoted: string | undefined,
  quoteCut: boolean,
  bound: number,
): CutValue | undefined {
  if (quoteCut) {
    const valueEnd = quotedValueEnd(source, end);
    return { end: valueEnd, tooLong: valueEnd - start > bound };
  }
  if (quoted !== undefined || end - start < bareValueReach) return undefined;
  const limit = Math.min(source.length, start + bound + 2);
  let runEnd = end;
  while (runEnd < limit && !isBlankOrQuoteCode(source.charCodeAt(runEnd))) runEnd++;
  if (runEnd === end) return undefined;
  const valueEnd = Math.max(end, bareValueEnd(source, keyStart, start, runEnd));
  if (valueEnd - start <= bound) return { end: valueEnd, tooLong: false };
  while (runEnd < source.length && !isBlankOrQuoteCode(source.charCodeAt(runEnd))) runEnd++;
  return { end: runEnd, tooLong: true };
}

/**
 * The end of a quoted value the assignment pattern cut at 200 characters
 * (`end` where it was cut): the next quote or line break, or the text's end
 * (round 31: the value did not match and reached the model whole). The
 * value under a secret's key is redacted to there, never cut with a tail left.
 */
function quotedValueEnd(source: string, end: number): number {
  while (end < source.length) {
    const code = source.charCodeAt(end);
    if (code === 10 || code === 34 || code === 39 || code === 96) break;
    end++;
  }
  return end;
}

/** White space or a quote: what ends a bare value as the assignment pattern reads it. */
function isBlankOrQuoteCode(code: number): boolean {
  return code === 34 || code === 39 || code === 96 || isJsSpace(code);
}

/** A blank or a separator (`:` `;` `,` `|` `=`) at the edge of a value's part beside a placeholder. */
function isPartEdge(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 58 ||
    code === 59 ||
    code === 44 ||
    code === 124 ||
    code === 61
  );
}

/**
 * `runs` (`printableRuns`' [start, end) pairs, in text order) without those
 * inside a span of `type` among `spans`. The entropy scan reads a private
 * key's body no more (round 32: each of a megabyte's 16,000 base64 lines
 * was judged as a token, then dropped under the key's span, which takes
 * every span inside it and every placeholder skipped there). Linear: the
 * spans of `type` are sorted once and walked with the runs.
 */
function runsOutside(runs: Int32Array, spans: readonly RankedSpan[], type: string): Int32Array {
  const blocks = spans.filter(span => span.type === type);
  if (blocks.length === 0) return runs;
  blocks.sort((first, second) => first.start - second.start);
  const kept = new Int32Array(runs.length);
  let count = 0;
  let block = 0;
  let reach = -1;
  for (let run = 0; run < runs.length; run += 2) {
    const start = runs[run]!;
    const end = runs[run + 1]!;
    // The furthest end of the blocks starting at or before this run.
    while (block < blocks.length && blocks[block]!.start <= start) {
      reach = Math.max(reach, blocks[block]!.end);
      block++;
    }
    if (end <= reach) continue;
    kept[count++] = start;
    kept[count++] = end;
  }
  return kept.subarray(0, count);
}

/** `holes` in text order, overlapping ones joined. */
function mergeHoles(holes: Array<{ start: number; end: number }>) {
  holes.sort((first, second) => first.start - second.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const hole of holes) {
    const last = merged[merged.length - 1];
    if (last && hole.start <= last.end) last.end = Math.max(last.end, hole.end);
    else merged.push({ ...hole });
  }
  return merged;
}

/** `findSecrets`, also counting the candidates skipped as placeholders (for records). */
export function scanSecrets(text: string, options?: FindSecretsOptions): SecretsScan {
  // A long text: its options read here once, for the pieces and, if they disagree, the whole text.
  const long = typeof text === 'string' && text.length >= chunkedScanFrom;
  const checked = long ? checkedOptions(options) : options;
  const inPieces = long ? scanSecretsInChunks(text, checked) : undefined;
  return inPieces ?? scanSecretsNormalized(normalizeText(text), checked);
}

/**
 * The caller's options as read for this call (`validateOptionsOnce`: each
 * field read once per call, checked again when one changed), a copy that
 * the scans of the call's readings and pieces get back as is.
 */
function checkedOptions(options?: FindSecretsOptions): FindSecretsOptions {
  return validateOptionsOnce(options, {
    prefix: 'findSecrets',
    root: 'findSecrets.options',
    shape: findSecretsOptionShape,
  });
}

/**
 * `text.includes('-----BEGIN')`, searched by its `BEGIN`: V8 looks for a
 * needle's first character first, and a `-` is common in real text (one in
 * 180 characters of the dev sets' first MB; that search cost 0.42 ms per MB
 * there, this one 0.04).
 */
function holdsPemBegin(text: string): boolean {
  for (let at = text.indexOf('BEGIN', 5); at >= 0; at = text.indexOf('BEGIN', at + 1)) {
    if (text.startsWith('-----', at - 5)) return true;
  }
  return false;
}

/**
 * `scanSecrets` of a long text, piece by piece (`scanInChunks`: no
 * megabyte-sized normal form), or undefined when the text is short, the
 * pieces disagree at a seam, or a piece holds what is not bounded: a PEM
 * block (`-----BEGIN`, its key may run for 400 lines) or `kind:` /
 * `"kind"` (a Kubernetes `Secret` declared anywhere makes every `data:`
 * block and `"data": {…}` object in the text one). Then the caller scans the whole text.
 */
export function scanSecretsInChunks(
  text: TextSource,
  options?: FindSecretsOptions,
): SecretsScan | undefined {
  if (!(text.length >= chunkedScanFrom)) return undefined;
  const checked = checkedOptions(options);
  const found = scanInChunks(text, (_piece, points, normalized) => {
    const text = normalized.text;
    if (holdsUnbounded(text)) return undefined;
    const skipped: number[] = [];
    return {
      // `holdsUnbounded` found no `kind:` nor `"kind"`: no Kubernetes Secret to look for.
      spans: scanNormalForm(normalized, checked, skipped, points, true).spans,
      points: skipped,
      normalForm: normalized,
    };
  });
  return found && { spans: found.spans, placeholdersSkipped: found.points.length };
}

/** `scanSecrets` on a text already normalised with `normalizeText` (default options). */
export function scanSecretsNormalized(
  normalized: NormalizedText,
  options?: FindSecretsOptions,
): SecretsScan {
  return scanNormalForm(normalized, checkedOptions(options));
}

/**
 * `scanSecretsNormalized`, adding the skipped placeholders' offsets in the
 * original to `skippedAt`. A text the normaliser removed an invisible
 * character or control from between two non-blank characters, a letter one
 * of them, is read a second time with it as a blank, as `findPii` reads it
 * (round 24: `key\0AKIAIOSFODNN7EXAMPLE\0end` read as one word, so no key;
 * a NUL or ESC between a word and a token glued them into one
 * `HIGH_ENTROPY_STRING` that hid the words too). Spans of that reading that
 * overlap none of the first are added; one that overlaps only entropy
 * spans of the first, and names a key the first did not, takes their place.
 * `points`: the normaliser's, when `normalized` is a piece of a longer text;
 * `kindFree`: the text holds neither `kind:` nor `"kind"` (`holdsUnbounded`).
 */
function scanNormalForm(
  normalized: NormalizedText,
  options?: FindSecretsOptions,
  skippedAt?: number[],
  points?: NormalizationPoints,
  kindFree = false,
): SecretsScan {
  const found = scanOneReading(normalized, options, skippedAt, kindFree);
  // Private-use characters are also read through (round 24): a key read whole takes the place of its pieces.
  const { readThrough, broken } = otherReadings(normalized, points);
  let spans = found.spans;
  if (readThrough !== undefined) {
    spans = withWiderSpans(spans, scanOneReading(normalizeText(readThrough), options).spans);
  }
  if (broken !== undefined) {
    spans = withKeysApart(
      spans,
      scanOneReading(normalizeText(brokenText(broken, false)), options).spans,
    );
  }
  // Percent escapes and HTML character references decoded (round 27: `ghp%5F…`, `password&#61;…`),
  // and string literals joined by `+` (`"ghp_q8Zr" + "4Lm2…"`).
  // Latin look-alike letters beside a key's characters read as ASCII (round 28: `ghp_…Yр1Kd…`, Cyrillic `р`).
  for (const sites of [
    escapeSites(normalized.original),
    concatenationSites(normalized.original),
    lookAlikeSites(normalized.original, points),
  ]) {
    if (sites === undefined) continue;
    const decoded = readingSpans(normalized, sites, options);
    spans = withWiderSpans(typedOnEqualSpans(spans, decoded), decoded);
  }
  // A base64-wrapped file (`.env`, config) of more than 200 characters, read decoded (round 27).
  const wrapped: SecretSpan[] = [];
  for (const { start, end, text } of base64Wrapped(normalized.original)) {
    const inner = scanOneReading(normalizeText(text), options).spans;
    const named = inner.find(span => span.type !== 'HIGH_ENTROPY_STRING') ?? inner[0];
    if (named) wrapped.push({ type: named.type, start, end });
  }
  if (wrapped.length > 0) spans = withWiderSpans(spans, wrapped);
  return spans === found.spans ? found : { ...found, spans };
}

/** Types a scan reports for a value it knows no provider of. */
export const untypedSecret = new Set(['GENERIC_SECRET', 'HIGH_ENTROPY_STRING']);

/**
 * `found` (in text order), each span of which a span of `decoded` (a
 * decoded reading's, in text order) covers exactly with a provider's type
 * retyped so. A key read as its provider's only decoded (`Copy token:
 * ghp_…р…`, a Cyrillic `р` inside) was an assignment's value in the
 * text itself, `GENERIC_SECRET`, and `withWiderSpans` keeps the first
 * reading's type on an equal span (round 29): the ASCII key is typed
 * `GITHUB_TOKEN` there, as a provider's match outranks an assignment's.
 * `found` itself when no type changes. Linear: one walk of both.
 */
function typedOnEqualSpans(found: SecretSpan[], decoded: readonly SecretSpan[]): SecretSpan[] {
  let retyped: SecretSpan[] | undefined;
  let index = 0;
  for (const span of decoded) {
    if (untypedSecret.has(span.type)) continue;
    while (index < found.length && found[index]!.start < span.start) index++;
    const equal = found[index];
    if (equal?.start !== span.start || equal.end !== span.end || !untypedSecret.has(equal.type)) {
      continue;
    }
    retyped ??= [...found];
    retyped[index] = { ...equal, type: span.type };
  }
  return retyped ?? found;
}

/**
 * Characters of text read on either side of a decoded site: what a piece
 * of `scanInChunks` reads beside it (`secretsMaxMatchLength` four times).
 */
const siteReach = 2_048;

/**
 * The spans `findSecrets` finds in `original` read with `sites` decoded
 * (`readingOf`), offsets into `original`. Away from its sites that reading
 * is the text itself, which the first reading scanned: only windows of
 * `siteReach` characters around the sites are scanned (round 28: the
 * whole text was, when one site in it decoded to a key's character: on the
 * dev sets' first MB, one of its 18 pieces, for five sites). A span within `secretsMaxMatchLength` of
 * where a window was cut is more than a thousand characters from every
 * site, so one the text itself gives: it is dropped. A longer span there
 * (a JWT or an `Authorization` header, not bounded), a PEM block or a
 * Kubernetes `kind` in the text's normal form or a window's (what they
 * declare reaches any distance), or windows covering half the text: the whole text is read
 * with its sites decoded, as before.
 */
function readingSpans(
  normalized: NormalizedText,
  sites: ReadingSites,
  options?: FindSecretsOptions,
): SecretSpan[] {
  const { original } = normalized;
  const length = original.length;
  const whole = () => {
    const reading = readingOf(original, sites, 0, length);
    return spansOfReading(reading, normalizeText(reading.text), options);
  };
  if (holdsUnbounded(normalized.text)) return whole();
  // Windows around the sites, merged where they meet, and the sites in each.
  const windows: Array<{ from: number; to: number; first: number; last: number }> = [];
  let covered = 0;
  const { bounds } = sites;
  const count = bounds.length / 2;
  for (let first = 0; first < count; ) {
    const from = Math.max(0, bounds[2 * first]! - siteReach);
    let to = Math.min(length, bounds[2 * first + 1]! + siteReach);
    let last = first + 1;
    while (last < count && bounds[2 * last]! - siteReach <= to) {
      to = Math.min(length, bounds[2 * last + 1]! + siteReach);
      last++;
    }
    windows.push({ from, to, first, last });
    covered += to - from;
    first = last;
  }
  if (covered * 2 >= length) return whole();
  const found: SecretSpan[] = [];
  for (const { from, to, first, last } of windows) {
    const reading = readingOf(original, sites, from, to, first, last);
    const decoded = normalizeText(reading.text);
    if (holdsUnbounded(decoded.text)) return whole();
    for (const span of spansOfReading(reading, decoded, options)) {
      if (
        (from > 0 && span.start < from + secretsMaxMatchLength) ||
        (to < length && span.end > to - secretsMaxMatchLength)
      ) {
        if (span.end - span.start > secretsMaxMatchLength) return whole();
        continue;
      }
      found.push(span);
    }
  }
  return found;
}

/**
 * What a scan of part of a text cannot judge: a PEM block's `-----BEGIN`, a
 * Kubernetes `kind` (`kind:` or `"kind"`, found by one search for `kind`:
 * the search for `"kind"` stopped at every `"`).
 */
function holdsUnbounded(text: string): boolean {
  if (holdsPemBegin(text)) return true;
  for (let at = text.indexOf('kind'); at >= 0; at = text.indexOf('kind', at + 4)) {
    const after = text.charCodeAt(at + 4);
    if (after === 0x3a || (after === 0x22 && text.charCodeAt(at - 1) === 0x22)) return true;
  }
  return false;
}

/** The spans of `reading`'s text (`decoded`: its normal form), offsets into the text it was read from. */
function spansOfReading(
  reading: EscapedReading,
  decoded: NormalizedText,
  options?: FindSecretsOptions,
): SecretSpan[] {
  const { starts, ends } = reading;
  return scanOneReading(decoded, options).spans.map(span => ({
    ...span,
    start: starts[span.start]!,
    end: ends[span.end - 1]!,
  }));
}

/**
 * `first` with the spans of `second` that overlap none of it, and those
 * that overlap only `HIGH_ENTROPY_STRING` spans of it in place of them
 * (when of another type); both in text order, neither overlapping itself.
 * Linear: each span of `first` is passed once.
 */
function withKeysApart(first: SecretSpan[], second: readonly SecretSpan[]): SecretSpan[] {
  const replaced = new Set<SecretSpan>();
  const added: SecretSpan[] = [];
  let index = 0;
  for (const span of second) {
    while (index < first.length && first[index]!.end <= span.start) index++;
    let last = index;
    let entropyOnly = true;
    while (last < first.length && first[last]!.start < span.end) {
      if (first[last]!.type !== 'HIGH_ENTROPY_STRING') entropyOnly = false;
      last++;
    }
    if (last === index) {
      added.push(span);
    } else if (entropyOnly && span.type !== 'HIGH_ENTROPY_STRING') {
      // An entropy span may reach past this one over a glued word: the key takes its place.
      for (let at = index; at < last; at++) replaced.add(first[at]!);
      added.push(span);
    }
  }
  if (added.length === 0) return first;
  const kept = first.filter(span => !replaced.has(span));
  return withSpansApart(kept, added);
}

function scanOneReading(
  normalized: NormalizedText,
  options?: FindSecretsOptions,
  skippedAt?: number[],
  kindFree = false,
): SecretsScan {
  const {
    assignments = true,
    entropy = true,
    entropyThreshold = 4.5,
    entropyMinLength = 24,
    reportPlaceholders = false,
  } = checkedOptions(options);
  const source = normalized.text;
  const candidates: RankedSpan[] = [];
  const add = (type: string, start: number, length: number, priority: number) =>
    candidates.push({ type, start, end: start + length, priority });
  // Start offsets of skipped placeholders: one value seen by two scans counts once.
  const placeholders = new Set<number>();
  // One scan's values, judged once when a value repeats the one before (round 39).
  const judgeSecretValue = lastVerdictJudge();
  const judged = (verdict: ValueVerdict, start: number) => {
    if (verdict === 'placeholder') placeholders.add(start);
    return verdict === 'secret';
  };

  // Tokens, keys' values and entropy candidates lie in long printable runs: found once for both scans.
  const runs = printableRuns(source, providerRunLength);
  // The provider scans of runs skip those of the chain's placeholders only (round 47).
  const scannedRuns = withoutPlaceholderRuns(source, runs);
  // The `:`s of the text, for the provider literals found anywhere and the
  // scans of assignments below (round 38: one `indexOf` stream each before).
  const colons = positionsOfUnit(source, ':');
  // Collected per rule, then added in rule order as a pass per rule would.
  const providerMatches: Array<RegExpExecArray[] | undefined> = [];
  // Where prefix literals start words, found by the provider literals' pass
  // (round 42: a regex pass of its own): the sites of the two scans of keys
  // in short pieces below.
  const prefixedStarts: number[] = [];
  scanProviderRules(
    source,
    (ruleIndex, match) => {
      const matches = providerMatches[ruleIndex];
      if (matches) matches.push(match);
      else providerMatches[ruleIndex] = [match];
    },
    scannedRuns,
    colons,
    prefixedStarts,
  );
  /**
   * Judges a provider rule's match and adds its value. `toSource` maps the
   * offsets of a match found on a token joined across a blank (`ghp_ R7…`).
   */
  const addProviderMatch = (
    ruleIndex: number,
    match: RegExpExecArray,
    toSource?: (offset: number) => number,
  ) => {
    const { type, group, prefix, validate, keepPlaceholders, more } = providerRules[ruleIndex]!;
    let value = group === undefined ? match[0] : match[group];
    if (value === undefined || value.length === 0) return;
    const matchStart = match.index + (group === undefined ? 0 : match[0].lastIndexOf(value));
    const start = toSource ? toSource(matchStart) : matchStart;
    if (type === 'PRIVATE_KEY') {
      if (toSource) return;
      let matchEnd = match.index + match[0].length;
      // Past the pattern's 400 lines of 200 characters the block reads on (round 30).
      if (!value.includes('-----END')) {
        matchEnd = pemBlockEnd(source, matchEnd);
        value = source.slice(match.index, matchEnd);
      }
      if (!pemHasKeyMaterial(value, matchEnd, source.length)) return;
    } else if (!keepPlaceholders) {
      if (group !== undefined && isRedactionPlaceholder(value)) return;
      if (
        group !== undefined &&
        (placeholderValue.test(value) || /^[<{]|[>}]$|^(.)\1+$/.test(value))
      ) {
        placeholders.add(start);
        return;
      }
      if (
        !reportPlaceholders &&
        (prefix === undefined
          ? isClearPlaceholder(value)
          : isClearPlaceholderAfterPrefix(value.slice(prefix)))
      ) {
        placeholders.add(start);
        return;
      }
    }
    if (validate && !validate(value)) return;
    let valueEnd = matchStart + value.length;
    if (more && toSource) {
      // A key joined across a blank (round 32: `sk-proj- ` and 300 more kept
      // its last 100 raw): read on in the joined text, and on in the text
      // past its end (the joined text stops after 512 characters).
      more.lastIndex = valueEnd;
      if (more.test(match.input)) valueEnd = more.lastIndex;
    }
    let end = toSource ? toSource(valueEnd - 1) + 1 : valueEnd;
    if (more && (!toSource || valueEnd === match.input.length)) {
      // Cut at the pattern's bound: the rest of the token is the secret's too (round 30).
      more.lastIndex = end;
      if (more.test(source)) end = more.lastIndex;
    }
    add(type, start, end - start, 3);
  };
  providerMatches.forEach((matches, ruleIndex) => {
    if (!matches) return;
    for (const match of matches) addProviderMatch(ruleIndex, match);
  });
  // A key glued after a word or a domain (`jane.doe@example.comghp_…`, round 42).
  forEachGluedKeyMatch(
    source,
    scannedRuns,
    (ruleIndex, match) => addProviderMatch(ruleIndex, match),
    // Where the normal form left a character out (a control, an invisible one), round 43.
    normalized.changed
      ? offset => normalized.toOriginal(offset) !== normalized.toOriginalEnd(offset)
      : undefined,
  );
  forEachSplitPrefixMatch(source, scannedRuns, ({ ruleIndex, match, toSource }) =>
    addProviderMatch(ruleIndex, match, toSource),
  );
  forEachPiecedAwsMatch(
    source,
    ({ ruleIndex, match, toSource }) => addProviderMatch(ruleIndex, match, toSource),
    prefixedStarts,
  );
  forEachShortPiecesMatch(
    source,
    ({ ruleIndex, match, toSource }) => addProviderMatch(ruleIndex, match, toSource),
    prefixedStarts,
  );
  if (assignments) {
    // The provider matches in text order: an assignment's value that holds one is judged around it.
    // The parts of a value between `holes` (placeholders, provider tokens),
    // each judged as the value (with `everyPart`, each reported but an
    // example's); returns how many were secrets.
    const judgeParts = (
      value: string,
      start: number,
      holes: ReadonlyArray<{ start: number; end: number }>,
      key: string,
      everyPart = false,
    ) => {
      let secretParts = 0;
      let from = start;
      for (let index = 0; index <= holes.length; index++) {
        const to = index < holes.length ? holes[index]!.start : start + value.length;
        // A part is judged without the blanks and separators at its edges:
        // beside a placeholder `Xq9 [EMAIL_ADDRESS] Lm2Zr8Wq4Tb6Yp` and
        // `Tr0ub4dor:[IP_ADDRESS]:3x` read as no secret, so `pii()` then
        // `secrets()` let passwords through that `secrets()` alone redacts (round 17).
        let partStart = from;
        let partEnd = to;
        while (partStart < partEnd && isPartEdge(value.charCodeAt(partStart - start))) partStart++;
        while (partEnd > partStart && isPartEdge(value.charCodeAt(partEnd - 1 - start))) partEnd--;
        if (partEnd > partStart) {
          const part = value.slice(partStart - start, partEnd - start);
          const verdict = judgeSecretValue(part, key, reportPlaceholders);
          if (judged(verdict, partStart) || (everyPart && verdict === 'other')) {
            add('GENERIC_SECRET', partStart, part.length, 2);
            secretParts++;
          }
        }
        if (index < holes.length) from = Math.max(from, holes[index]!.end);
      }
      return secretParts;
    };
    // The end of the last value read on over continuation lines: keys on them are its.
    let continuedUntil = 0;
    // The end of the last value cut at its bound and read whole (`cutValue`).
    let wholeReadUntil = 0;
    // The end of the last such value reported whole that ran to a blank, a quote or the text's end.
    let reportedRunUntil = 0;
    const providerSpans =
      candidates.length > 0
        ? [...candidates].sort((first, second) => first.start - second.start)
        : [];
    // The `:` and `=` the four scans below each walked (round 36: one `indexOf` stream each).
    const equals = positionsOfUnit(source, '=');
    scanAssignments(
      source,
      match => {
        const quoted = match[3] ?? match[6];
        const matched = quoted ?? match[4];
        if (matched === undefined) return;
        const start = match.index + match[0].lastIndexOf(matched);
        // A bare value runs to a blank or quote; where it ends in that depends on the format.
        const end =
          quoted === undefined
            ? valueEndPastTokens(
                source,
                providerSpans,
                match.index,
                start,
                bareValueEnd(source, match.index, start, start + matched.length),
              )
            : start + matched.length;
        if (end === start) return { valueEnd: start };
        const value = end === start + matched.length ? matched : source.slice(start, end);
        const key = match[1]!;
        // A redaction's placeholder is never part of a value, nor its proof of
        // being redacted unless the value is placeholders only: the parts
        // around it are judged as values (`password=hunter2[GENERIC_SECRET]`
        // passed). So is a value that is no secret as a whole because of a
        // provider's token inside it (`password=Tr0ub4dor&3xyz:xoxb-…`, whose
        // token has `1234567890`): redacting the token and then the rest is
        // what a second pass finds too.
        const placeholders = redactionPlaceholdersIn(value);
        // A `.properties` password's value runs to its line's end (`db.password = correct horse …`).
        const lineEnd =
          quoted === undefined &&
          placeholders.length === 0 &&
          isPropertiesPasswordKey(source, match.index, key)
            ? Math.max(end, propertiesValueEnd(source, start))
            : end;
        // A value continued past `\` and its line break (`.properties`) is judged joined, reported to its last line.
        const continued =
          quoted === undefined && start >= continuedUntil && placeholders.length === 0
            ? continuedValue(source, start, lineEnd)
            : undefined;
        if (continued) continuedUntil = continued.end;
        if (continued && spansWithin(providerSpans, start, continued.end).length === 0) {
          const verdict = judgeSecretValue(continued.value, key, reportPlaceholders);
          if (verdict === 'secret') {
            add('GENERIC_SECRET', start, continued.end - start, 2);
            return undefined;
          }
          // Otherwise its first line is judged alone, as before.
          if (verdict === 'placeholder') {
            judged(verdict, start);
            return false;
          }
        }
        if (lineEnd > end && spansWithin(providerSpans, start, lineEnd).length === 0) {
          const line = source.slice(start, lineEnd);
          if (judgeSecretValue(line, key, reportPlaceholders) === 'secret') {
            add('GENERIC_SECRET', start, line.length, 2);
            return undefined;
          }
        }
        // A value not reported whole may hide an assignment: the scan reads on inside it.
        if (placeholders.length === 0) {
          let verdict = judgeSecretValue(value, key, reportPlaceholders);
          const quoteCut = quotedValueState(match) === 'cut';
          // A value cut at the pattern's bound is judged whole, to its
          // `wholeValueBound`, past which it is redacted unjudged (fail
          // closed): its first part alone may read as a placeholder. Read once
          // per value: a key inside a value read whole is judged as before.
          let whole: ReturnType<typeof cutValue>;
          if (start >= wholeReadUntil) {
            whole = cutValue(source, match.index, start, end, quoted, quoteCut, wholeValueBound);
            if (whole) wholeReadUntil = whole.end;
            if (
              whole &&
              verdict !== 'secret' &&
              (whole.tooLong || spansWithin(providerSpans, start, whole.end).length === 0)
            ) {
              verdict = whole.tooLong
                ? 'secret'
                : judgeSecretValue(source.slice(start, whole.end), key, reportPlaceholders);
            }
          }
          if (verdict === 'secret') {
            // A provider's token read past the cut (a PEM key in a JSON
            // string) is that token's span, not a generic one.
            if (quoteCut && tokenRunsPast(providerSpans, start, end)) return undefined;
            // A key inside a value reported to its run's end needs no reading
            // on: its value ends there too, inside that span (round 34: every
            // key of `password=Xq9Lm2Zr8…` read on to the end, quadratic).
            const valueEnd =
              whole?.end ??
              (start < reportedRunUntil
                ? end
                : cutValue(source, match.index, start, end, quoted, quoteCut, Infinity)?.end) ??
              end;
            add('GENERIC_SECRET', start, valueEnd - start, 2);
            if (
              whole &&
              (whole.end >= source.length || isBlankOrQuoteCode(source.charCodeAt(whole.end)))
            )
              reportedRunUntil = whole.end;
            return end < start + matched.length ? { valueEnd: end } : undefined;
          }
          judged(verdict, start);
          const tokens = spansWithin(providerSpans, start, end);
          if (tokens.length > 0) judgeParts(value, start, mergeHoles(tokens), key);
          return false;
        }
        const holes = mergeHoles([
          ...placeholders.map(([from, to]) => ({ start: start + from, end: start + to })),
          ...spansWithin(providerSpans, start, end),
        ]);
        // Under a password, secret or token key, what a guardrail before this
        // one left of the value is the rest of the secret: all of it goes.
        judgeParts(value, start, holes, key, namesWholeSecret(key));
        return false;
      },
      colons,
      equals,
    );
    // A YAML block scalar's lines under a secret-named key (`password: |`), judged as its value.
    scanYamlBlockScalars(
      source,
      (start, end, key) => {
        const value = source.slice(start, end);
        const tokens = spansWithin(providerSpans, start, end);
        if (tokens.length > 0) judgeParts(value, start, mergeHoles(tokens), key);
        else if (judged(judgeSecretValue(value, key, reportPlaceholders), start))
          add('GENERIC_SECRET', start, value.length, 2);
      },
      colons,
    );
    scanReversedComparisons(
      source,
      match => {
        const value = match[2]!;
        if (!judged(judgeSecretValue(value, '', reportPlaceholders), match.index + 1)) return;
        add('GENERIC_SECRET', match.index + 1, value.length, 2);
      },
      equals,
    );
    // A text without `kind:` or `"kind"` declares no Secret (round 36: a piece
    // of a long text was searched for both again after `holdsUnbounded`).
    if (!kindFree)
      scanKubernetesSecrets(source, (start, end) => {
        const value = source.slice(start, end);
        if (placeholderValue.test(value) || (!reportPlaceholders && isClearPlaceholder(value))) {
          placeholders.add(start);
          return;
        }
        add('KUBERNETES_SECRET', start, end - start, 2);
      });
    scanXmlSettings(
      source,
      match => {
        // The key (`ClearTextPassword`) says how to judge the value, as for an assignment.
        const value = match[2]!;
        const start = match.index + match[0].lastIndexOf(value);
        if (!judged(judgeSecretValue(value, match[1]!, reportPlaceholders), start)) return;
        add('GENERIC_SECRET', start, value.length, 2);
      },
      equals,
    );
  }
  if (entropy) {
    scanEntropyCandidates(
      source,
      (start, end) => {
        // A line of armoured base64 is no candidate: tested first, as it reads only the
        // blanks beside a token that is not a whole line (round 33: judged first, a
        // megabyte of certificate lines cost ~0.4 s).
        if (isArmourLine(source, start, end)) return;
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
        add('HIGH_ENTROPY_STRING', start, token.length, 1);
      },
      runsOutside(runs, candidates, 'PRIVATE_KEY'),
    );
  }
  const found = resolveOverlaps(candidates);
  // A value another scan reported (in part) is not a skipped placeholder.
  // `found` is in text order and never overlaps: one walk over both.
  let placeholdersSkipped = 0;
  let next = 0;
  for (const start of [...placeholders].sort((first, second) => first - second)) {
    while (next < found.length && found[next]!.end <= start) next++;
    if (next >= found.length || found[next]!.start > start) {
      placeholdersSkipped++;
      skippedAt?.push(normalized.toOriginal(start));
    }
  }
  return {
    spans: found.map(span => ({
      type: span.type,
      ...normalized.toOriginalSpan(span.start, span.end),
    })),
    placeholdersSkipped,
  };
}
