import { stringFromCallback } from '../../core/callback-result';
import { declareSignalFreeCheck } from '../../core/chain';
import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import { validateFactoryOptions } from '../../core/options';
import { judgeToolCallIdsWith } from '../../core/shown-tool-calls';
import type { Guardrail } from '../../core/types';
import { chunkSourceInCall, normalizeInCall, offerTextSource } from '../shared/call-normalization';
import { chunkedScanFrom, redactedTextSource, type TextSource } from '../shared/chunked-scan';
import { readsJson } from '../shared/json-string-spans';
import { jsonStringView } from '../shared/json-string-view';
import { type DetectedSpan, type RankedSpan, replaceSpans, resolveOverlaps } from '../shared/spans';
import {
  type FindSecretsOptions,
  findSecrets,
  type SecretsScan,
  scanSecrets,
  scanSecretsInChunks,
  scanSecretsNormalized,
  secretsMaxMatchLength,
  untypedSecret,
} from './find-secrets';
import { secretsMayMatch, secretsPotentialStart } from './potential-start';
import { secretsOptionShape } from './secrets-options';
import { withArraySplitSecrets } from './split-array-strings';

/** Options of `secrets`. */
export interface SecretsOptions extends FindSecretsOptions {
  /** `'block'` (default): trip, naming the secret types; `'redact'`: replace each secret. */
  action?: 'block' | 'redact';
  /** Placeholder for `redact`. Default `` type => `[${type}]` ``. */
  placeholder?: (type: string) => string;
  /** Guardrail name in records. Default `'secrets'`. */
  name?: string;
  /** Message of a block. Default: a sentence naming the secret types. */
  message?: string;
}

/**
 * `scan` of a JSON text, with the secrets found in its strings decoded
 * (`jsonStringView`): each one that lies inside one string is mapped back to
 * the JSON text, where a redaction keeps the JSON valid (as does one of a
 * span of the JSON text itself, which never cuts an escape). Overlaps are
 * settled as in one scan (the longer span wins). Not for answers: window
 * mode judges parts of a text, which are not JSON, and must redact as
 * generate does.
 */
function withDecodedStrings(
  content: string,
  scan: SecretsScan,
  options: FindSecretsOptions,
): SecretsScan {
  const view = jsonStringView(content);
  if (!view) return scan;
  const decoded = scanSecrets(view.text, options);
  // A span found in the JSON text that cuts an escape in two (`\n` + a key
  // read from its `n`) would leave half of it: the redacted text would not
  // parse and the whole result would be withheld. Such spans take the whole
  // escape at their end and start after it; the escape maps are built only when the JSON text had spans.
  let added = 0;
  const candidates: RankedSpan[] = [];
  if (scan.spans.length > 0) {
    const unitStart = new Int32Array(content.length);
    const unitEnd = new Int32Array(content.length);
    for (let index = 0; index < view.text.length; index++) {
      const from = view.sourceStart[index]!;
      const to = view.sourceEnd[index]!;
      for (let at = from; at < to; at++) {
        unitStart[at] = from;
        unitEnd[at] = to;
      }
    }
    for (const span of scan.spans) {
      const start = unitStart[span.start] === span.start ? span.start : unitEnd[span.start]!;
      const end = Math.max(span.end, unitEnd[span.end - 1]!);
      if (start !== span.start || end !== span.end) added++;
      if (start < end) candidates.push({ type: span.type, start, end, priority: 1 });
    }
  }
  // The JSON text's spans, by where they are, for a provider's key read only
  // in the decoded strings (a GitHub token with `\udc00` escapes between its
  // characters): on the span of an untyped value of the JSON text (a quoted
  // value under `"token"`) it takes the provider's type, as `findSecrets`
  // does for its own decoded readings.
  const textSpans = new Map<string, RankedSpan>();
  for (const candidate of candidates)
    textSpans.set(`${candidate.start}:${candidate.end}`, candidate);
  for (const { type, start, end } of decoded.spans) {
    const string = view.stringOf[start]!;
    if (string < 0 || view.stringOf[end - 1] !== string) continue;
    const sourceStart = view.sourceStart[start]!;
    const sourceEnd = view.sourceEnd[end - 1]!;
    const equal = textSpans.get(`${sourceStart}:${sourceEnd}`);
    if (equal && untypedSecret.has(equal.type) && !untypedSecret.has(type)) {
      equal.type = type;
      added++;
      continue;
    }
    candidates.push({ type, start: sourceStart, end: sourceEnd, priority: 0 });
    added++;
  }
  if (added === 0) return scan;
  return {
    spans: resolveOverlaps(candidates),
    placeholdersSkipped: Math.max(scan.placeholdersSkipped, decoded.placeholdersSkipped),
  };
}

/**
 * `replaceSpans` of the text `source` stands for, reading it through
 * `source.slice` (spans in order, apart). `pii()` hands a long redacted
 * text on as a rope with a source that slices it from the original and the
 * placeholders (`redactedTextSource`); `String.prototype.slice` on the rope
 * would first copy all of it into one flat string, a fresh megabyte-sized
 * allocation (about 500 page faults per MB on the bench's VM) that the
 * next reader (`invisibleText()`) writes out again.
 */
function replaceSpansInSource(
  source: TextSource,
  spans: readonly DetectedSpan[],
  replacement: (span: DetectedSpan) => string,
): string {
  let result = '';
  let cursor = 0;
  for (const span of spans) {
    result += source.slice(cursor, span.start);
    result += replacement(span);
    cursor = span.end;
  }
  result += source.slice(cursor, source.length);
  return result;
}

/**
 * A tool-call id with a secret in it (a high-entropy string alone is what
 * every generated id is): records show a stand-in (see core/shown-tool-calls.ts).
 */
const secretInToolCallId = (ids: string) =>
  findSecrets(ids).filter(span => span.type !== 'HIGH_ENTROPY_STRING');

/**
 * Keeps API keys, tokens, private keys and passwords out of prompts, answers
 * and tool traffic, using `findSecrets` (provider formats, assignments, and a
 * high-entropy detector that ignores SHAs, UUIDs, lockfile hashes and base64
 * payloads). Blocks by default; `action: 'redact'` replaces each secret.
 * The verdict's `info.placeholdersSkipped` counts the candidates passed as
 * examples or placeholders (never their values). Stream-safe.
 *
 * @example
 * guardrails({ output: [secrets()], input: [secrets({ action: 'redact' })] })
 */
export function secrets(options?: SecretsOptions): Guardrail {
  const {
    action = 'block',
    placeholder = (type: string) => `[${type}]`,
    name = 'secrets',
    message,
    ...findOptions
  } = validateFactoryOptions(options, 'secrets', secretsOptionShape);
  judgeToolCallIdsWith(secretInToolCallId);
  // A caller's placeholder that returns no string (an async one) wrote
  // "[object Promise]" into the text: checked, an error record instead.
  const writtenPlaceholder = (type: string) =>
    stringFromCallback(placeholder(type), {
      path: `${name}.placeholder`,
      expected: 'a function (type) => string, synchronous',
      optional: false,
    });
  const guardrail = defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    streamSafe: true,
    // A retry would show the model the credential again (in its answer or the feedback).
    retryable: false,
    // Doubled: one invisible character may sit between every two visible ones.
    maxMatchLength: secretsMaxMatchLength * 2,
    // Window mode releases text up to where a secret could still begin or grow.
    potentialMatchStart: secretsPotentialStart,
    // Window mode skips checks of ordinary prose that no detector could match.
    mayMatch: secretsMayMatch,
    // Its longest needle (a provider literal and the letter before it) is 17 characters; 24 leaves room.
    mayMatchReach: 24,
    check(content, ctx) {
      // A long text is read in pieces (no megabyte-sized normal form, see `chunked-scan.ts`).
      const source =
        typeof content === 'string' && content.length >= chunkedScanFrom
          ? chunkSourceInCall(content, ctx?.state)
          : undefined;
      const scan =
        (source && scanSecretsInChunks(source, findOptions)) ??
        scanSecretsNormalized(normalizeInCall(content, ctx?.state), findOptions);
      // A tool's arguments and results are judged as JSON (so is a tool call in the
      // history, judged as input with inputScope 'all'): also read their strings decoded.
      const json = readsJson(ctx);
      const { spans: found, placeholdersSkipped } = json
        ? withDecodedStrings(content, scan, findOptions)
        : scan;
      // And a key split across adjacent strings of one array (a tool returning it in chunks).
      const spans = json ? withArraySplitSecrets(content, found, findOptions) : found;
      // How many candidates passed as placeholders (`…EXAMPLE`, `<your-token>`): a count, never the values.
      const skipped = placeholdersSkipped > 0 ? { placeholdersSkipped } : {};
      if (spans.length === 0) return placeholdersSkipped > 0 ? allow(skipped) : allow();
      const types = [...new Set(spans.map(span => span.type))];
      const info = { types, spans: spans.map(span => ({ ...span })), ...skipped };
      if (action === 'block') {
        return block({
          message: message ?? `The text contains credentials (${types.join(', ')}).`,
          reason: `secrets: ${types.join(', ')}`,
          severity: 'critical',
          info,
        });
      }
      if (source && typeof source !== 'string') {
        const placeholders = spans.map(span => writtenPlaceholder(span.type));
        let index = 0;
        const text = replaceSpansInSource(source, spans, () => placeholders[index++]!);
        offerTextSource(
          text,
          ctx?.state,
          redactedTextSource(source, spans, at => placeholders[at]!),
        );
        return modify(text, info);
      }
      return modify(
        replaceSpans(content, spans, span => writtenPlaceholder(span.type)),
        info,
      );
    },
  });
  // It never reads ctx.abortSignal nor assigns to ctx: a chain may share one context among such checks.
  declareSignalFreeCheck(guardrail.check);
  return guardrail;
}
