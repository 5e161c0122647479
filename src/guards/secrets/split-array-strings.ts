import { upperBound } from '../shared/sorted-search';
import { type DetectedSpan, type RankedSpan, resolveOverlaps } from '../shared/spans';
import { type FindSecretsOptions, findSecrets } from './find-secrets';
import { holdsLiteral, KeyPieces } from './key-pieces';
import { providerRules } from './provider-rules';
import { startsWithPrefixLiteral } from './split-prefix';

/**
 * Types found in the joined strings that are not taken: an entropy or an
 * assignment finding in strings that were written apart (an array of commit
 * hashes joined is one long hex run, `["--password=", "x"]` an assignment)
 * says nothing of a credential split on purpose; a provider token's prefix
 * and exact shape do.
 */
const UNTYPED = new Set(['HIGH_ENTROPY_STRING', 'GENERIC_SECRET']);

/** Longest joined run scanned at once, and how much of it the next one repeats (a key's length). */
const MAX_RUN_LENGTH = 1_024;
const OVERLAP = 256;

/**
 * Between two runs in the joined text: a sign no key holds between line
 * breaks. A line break alone was a blank the split-token reading joins
 * across (round 24: `sk-proj-Tq7vpart` and the next run were read as one
 * key, and the second run's pieces were never redacted).
 */
const RUN_SEPARATOR = '\n;\n';

/** Adjacent string elements of one array (values of one object): their [start, end) pairs, and how many characters they hold. */
interface Run {
  pairs: number[];
  length: number;
}

/**
 * The pieces of the typed credentials (provider tokens, keys: not entropy
 * or assignment findings) that run across adjacent string elements of one
 * JSON array, as spans of the JSON text, one per string they cover (its
 * part they cover), priority 3. A tool that returns a key in chunks
 * (`{"chunks":["ghp_q8Zr4Lm2","Xw9Tb6…"]}`) was read a string at a time:
 * the prefix chunk and short pieces stayed visible while the model can join
 * them. Only strings that can be chunks of a key (no white space, nor an
 * escape of one) are joined, escapes decoded, with the strings next to them in the
 * same array, or the values next to them in the same object (round 16:
 * `{"a":"ghp_…","b":"…"}`; keys are never joined); a string of white space
 * only between them is skipped (`["ghp_…"," ","…"]`). Strings with a
 * number, an object or a string of words between them stay apart. Arrays
 * in an array are read as their strings in order (round 19:
 * `[["sk-proj-"],["…"]]`, `[["ghp_…","…"],["…"]]` were read a row at a time),
 * up to anything else between them (a number, an object, a sentence), and
 * so are objects in an array of one string member (round 20), beside one
 * integer since round 22 (`[{"k":"ghp_…","n":1},…]`, joined in the order of
 * the integers). An array of sentences costs no second scan. One pass over the JSON
 * text and one scan of the joined strings (no longer than the text): linear.
 */
export function secretsAcrossArrayStrings(
  json: string,
  options?: FindSecretsOptions,
): RankedSpan[] {
  // Each run of two or more adjacent string elements of one array, as
  // [start, end) of their contents in `json`, runs apart.
  const runs: number[][] = [];
  // The starts of the strings in runs that hold an escape (decoded when joined).
  const escaped = new Set<number>();
  // Per open container: '[' or '{'; the chunk strings of its current run; for
  // an object, whether a key comes next (keys are never joined).
  const kinds: number[] = [];
  const current: Array<Run | undefined> = [];
  const expectsKey: boolean[] = [];
  // Per open container: an object in an array, which goes on with the array's run.
  const carriedObject: boolean[] = [];
  // Per open container: the index of a carried record (`{"k":"…","n":2}`), if any.
  const carriedIndex: Array<number | undefined> = [];
  // Per open container: where the string holding a record's index starts (`"n":"2"`), if any.
  const indexString: Array<number | undefined> = [];
  // The index of each string (by its start) that a record with an index holds.
  const stringIndex = new Map<number, number>();
  // Whether the strings hold a piece of a key the column reading could join (round 25).
  const pieces = new KeyPieces();
  const closeRun = (depth: number) => {
    const run = current[depth];
    if (run && run.pairs.length >= 4) {
      const ordered = inIndexOrder(run.pairs, stringIndex);
      runs.push(ordered);
      // Records not all with a distinct index: read in the order of those that have one too.
      const partly =
        ordered === run.pairs ? inPartialIndexOrder(run.pairs, stringIndex) : undefined;
      if (partly) runs.push(partly);
      // And of the last record of each index (round 24: a decoy before the chunk).
      const partlyLast =
        ordered === run.pairs ? inPartialIndexOrder(run.pairs, stringIndex, true) : undefined;
      if (partlyLast) runs.push(partlyLast);
      // Indexes may be decoys (round 24: `n` 3, 1, 4, 2 on chunks written in
      // order): the written order is read too.
      if (ordered !== run.pairs) runs.push(run.pairs);
    }
    current[depth] = undefined;
  };
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code === 0x22) {
      // A string: find its end (escapes skipped), and whether it can be a
      // chunk of a key (no white space, no escape: `"item 1"` is none).
      let end = i + 1;
      let chunk = true;
      let hasEscape = false;
      let blankOnly = true; // white space only (a `" "` between chunks is skipped)
      while (end < json.length && json.charCodeAt(end) !== 0x22) {
        const inner = json.charCodeAt(end);
        if (inner === 0x5c) {
          // An escape is joined decoded unless it is white space: a NUL
          // (canonical JSON writes \u0000) or a letter written \u0071 took a
          // chunk out of the join, and its prefix stayed visible.
          const width = escapeWidth(json, end);
          const blank = width > 0 && isWhiteSpace(decodeEscape(json, end));
          if (!blank) blankOnly = false;
          if (width === 0 || blank) chunk = false;
          hasEscape = true;
          end += Math.max(width, 2);
          continue;
        }
        if (inner <= 0x20) chunk = false;
        else blankOnly = false;
        end += 1;
      }
      const depth = kinds.length - 1;
      const isKey = depth >= 0 && kinds[depth] === 0x7b && expectsKey[depth];
      if (chunk && !isKey) pieces.add(json, i + 1, Math.min(end, json.length), hasEscape);
      const isIndex = depth >= 0 && indexString[depth] === i;
      if (depth < 0 || isKey || isIndex || (blankOnly && end > i + 1)) {
        // Not an element or value, a record's index, or white space only: neither joined nor a break.
      } else if (!chunk) closeRun(depth);
      else {
        const run = current[depth] ?? { pairs: [], length: 0 };
        const stringEnd = Math.min(end, json.length);
        if (run.pairs.length > 0 && run.length + stringEnd - (i + 1) > MAX_RUN_LENGTH) {
          // A long run goes on in a new one that starts with the last
          // strings of this one (up to OVERLAP characters), so a key across
          // the cut is whole in one of them: one giant joined word (100,000
          // ids) cost 3x the JSON's own scan.
          let from = run.pairs.length;
          let carried = 0;
          while (from >= 2 && carried + run.pairs[from - 1]! - run.pairs[from - 2]! <= OVERLAP) {
            carried += run.pairs[from - 1]! - run.pairs[from - 2]!;
            from -= 2;
          }
          const next = { pairs: run.pairs.slice(from), length: carried };
          closeRun(depth);
          current[depth] = next;
        }
        if (hasEscape) escaped.add(i + 1);
        const index = carriedIndex[depth];
        if (index !== undefined) stringIndex.set(i + 1, index);
        const into = current[depth] ?? run;
        into.pairs.push(i + 1, stringEnd);
        into.length += stringEnd - (i + 1);
        current[depth] = into;
      }
      i = end;
      continue;
    }
    if (code === 0x5b || code === 0x7b) {
      // An array in an array goes on with its parent's run (`[["sk-proj-"],["…"]]`,
      // round 19: the leaves read in order, as a model joins them); any other
      // nested value ends it.
      // An object in an array goes on with it too (round 20:
      // `[{"k":"sk-proj-…"},{"k":"…"}]`), up to a value in it that is no
      // string.
      // Only an object of one member whose value is a string: a record's
      // fields (`{"i":"9","w":"Bearer"}`) are no chunks of one key, and
      // its values stay joined among themselves (round 16). Since round 22
      // also such a member beside one integer (`{"k":"ghp_…","n":1}`, a
      // chunk and its place): the chunks are joined in the order of those
      // integers when every record of the run has one.
      const inArray = kinds.length > 0 && kinds[kinds.length - 1] === 0x5b;
      const record = inArray && code === 0x7b ? chunkRecordAt(json, i) : undefined;
      const carries = inArray && (code === 0x5b || record !== undefined);
      let carried: Run | undefined;
      if (carries) {
        carried = current[kinds.length - 1];
        current[kinds.length - 1] = undefined;
      } else if (kinds.length > 0) closeRun(kinds.length - 1);
      kinds.push(code);
      current.push(carried);
      expectsKey.push(code === 0x7b);
      carriedObject.push(code === 0x7b && carries);
      carriedIndex.push(record?.index);
      indexString.push(record?.indexString);
    } else if (code === 0x5d || code === 0x7d) {
      if (kinds.length > 0) {
        const depth = kinds.length - 1;
        // An array closing in an array hands its run back to its parent.
        const handsBack =
          depth > 0 &&
          kinds[depth - 1] === 0x5b &&
          ((code === 0x5d && kinds[depth] === 0x5b) ||
            (code === 0x7d && kinds[depth] === 0x7b && carriedObject[depth] === true));
        const run = current[depth];
        if (handsBack) current[depth] = undefined;
        else closeRun(depth);
        kinds.pop();
        current.pop();
        expectsKey.pop();
        carriedObject.pop();
        carriedIndex.pop();
        indexString.pop();
        if (handsBack) current[depth - 1] = run;
      }
    } else if (code === 0x3a || code === 0x2c) {
      // After an object's `:` its value comes, after its `,` its next key.
      if (kinds.length > 0)
        expectsKey[kinds.length - 1] = code === 0x2c && kinds[kinds.length - 1] === 0x7b;
    } else if (
      code > 0x20 &&
      kinds.length > 0 &&
      (kinds[kinds.length - 1] === 0x5b ||
        (carriedObject[kinds.length - 1] === true && carriedIndex[kinds.length - 1] === undefined))
    ) {
      // A number or a literal between strings of an array. Not in an object:
      // the text judged is canonical JSON, keys sorted, so any value may sort
      // between two chunks the model reads side by side (`head`, `n`, `tail`).
      closeRun(kinds.length - 1);
    }
  }
  for (let depth = 0; depth < kinds.length; depth++) closeRun(depth);
  // Records of more fields, or with the chunk deeper: their columns (round
  // 24), when a string holds a piece of a key (round 25: the parse cost
  // 50-110 ms a megabyte on every JSON text with an object).
  if (json.includes('{') && (pieces.found || holdsLiteral(json))) {
    runs.push(...columnRuns(json, escaped));
  }
  if (runs.length === 0) return [];
  // Where a string of a run starts with a key's prefix: read from there too,
  // and cut at each string end after it (round 24).
  const readings = runs.length;
  for (let index = 0; index < readings; index++) runs.push(...prefixSegments(runs[index]!, json));
  // The runs' strings joined (escapes decoded), runs apart on lines of their
  // own, mapped back to `json`: a piece is a run of a string's characters
  // as written, or one escape.
  // Gathered in an array and joined once (500,000 `+=` of short pieces cost seconds).
  const parts: string[] = [];
  let joinedLength = 0;
  const pieceStarts: number[] = []; // where each piece starts in `joined`
  const pieceSources: number[] = []; // and in `json`
  const pieceWidths: number[] = []; // an escape's width in `json`, 0 for characters as written
  const pieceStrings: number[] = []; // which string it is of
  let strings = 0;
  const addPiece = (source: number, width: number, text: string) => {
    pieceStarts.push(joinedLength);
    pieceSources.push(source);
    pieceWidths.push(width);
    pieceStrings.push(strings);
    parts.push(text);
    joinedLength += text.length;
  };
  for (const run of runs) {
    if (joinedLength > 0) {
      parts.push(RUN_SEPARATOR);
      joinedLength += RUN_SEPARATOR.length;
    }
    for (let k = 0; k < run.length; k += 2) {
      const end = run[k + 1]!;
      let from = run[k]!;
      // Only a string known to hold an escape is searched for one (a search
      // per string to the next backslash anywhere was quadratic).
      for (let at = from; escaped.has(run[k]!) && at < end; at++) {
        if (json.charCodeAt(at) !== 0x5c) continue;
        if (at > from) addPiece(from, 0, json.slice(from, at));
        const width = escapeWidth(json, at);
        addPiece(at, width, decodeEscape(json, at));
        from = at + Math.max(width, 2);
        at = from - 1;
      }
      if (end > from) addPiece(from, 0, json.slice(from, end));
      strings++;
    }
    addPiece(-1, 0, ''); // the run's end: no piece starts here
  }
  const found: RankedSpan[] = [];
  const joined = parts.join('');
  for (const match of findSecrets(joined, options)) {
    if (UNTYPED.has(match.type)) continue;
    // The strings it covers: the last piece starting at or before its start, on.
    const low = Math.max(upperBound(pieceStarts, match.start) - 1, 0);
    const end = exactTokenEnd(joined, match, low, pieceStarts, pieceStrings);
    const span = end === match.end ? match : { ...match, end };
    // One span per string it covers (its pieces' spans joined).
    const pieces: RankedSpan[] = [];
    let lastString = -1;
    for (let p = low; p < pieceStarts.length - 1 && pieceStarts[p]! < span.end; p++) {
      if (pieceSources[p]! < 0) break; // a run's end
      const from = Math.max(span.start, pieceStarts[p]!);
      const to = Math.min(span.end, pieceStarts[p + 1]!);
      if (from >= to) continue;
      const width = pieceWidths[p]!;
      const shift = pieceSources[p]! - pieceStarts[p]!;
      // An escape is covered whole: a redaction never cuts one in two.
      const start = width > 0 ? pieceSources[p]! : from + shift;
      const stop = width > 0 ? pieceSources[p]! + width : to + shift;
      if (pieceStrings[p] === lastString) pieces[pieces.length - 1]!.end = stop;
      else pieces.push({ type: span.type, start, end: stop, priority: 3 });
      lastString = pieceStrings[p]!;
    }
    // Inside one string it is the ordinary scan's.
    if (pieces.length >= 2) found.push(...pieces);
  }
  return found;
}

/** The exact forms (`Rule.exact`) of each type's rules. */
const exactForms = new Map<string, RegExp[]>();
for (const { type, exact } of providerRules) {
  if (exact) exactForms.set(type, [...(exactForms.get(type) ?? []), exact]);
}

/**
 * The end of `span` (of the joined strings, starting in piece `first`), cut at the first string end
 * inside it where an exact form of its type (`Rule.exact`: `ghp_` and 36)
 * ends: a key of its exact length that fills its strings is whole, and the
 * next string is another value (`["ghp_…", "ok"]`), though the rule reads a
 * longer token on (round 33). Its end otherwise.
 */
function exactTokenEnd(
  joined: string,
  span: DetectedSpan,
  first: number,
  pieceStarts: readonly number[],
  pieceStrings: readonly number[],
): number {
  const forms = exactForms.get(span.type);
  if (forms === undefined) return span.end;
  // From the piece it starts in (`first`), over the pieces it covers only.
  for (let p = first + 1; p < pieceStarts.length && pieceStarts[p]! < span.end; p++) {
    const at = pieceStarts[p]!;
    if (at <= span.start || pieceStrings[p] === pieceStrings[p - 1]) continue;
    for (const form of forms) {
      form.lastIndex = span.start;
      if (form.test(joined) && form.lastIndex === at) return at;
    }
  }
  return span.end;
}

/**
 * `spans` (of a JSON text) with the pieces of `secretsAcrossArrayStrings`
 * added; where they overlap, the longer wins and a piece beats an entropy
 * finding of the same string. `spans` itself when there are none.
 */
export function withArraySplitSecrets<SPAN extends DetectedSpan>(
  json: string,
  spans: SPAN[],
  options?: FindSecretsOptions,
): DetectedSpan[] {
  const pieces = secretsAcrossArrayStrings(json, options);
  if (pieces.length === 0) return spans;
  return resolveOverlaps([
    ...spans.map(({ type, start, end }) => ({ type, start, end, priority: 1 })),
    ...pieces,
  ]);
}

const jsonKey = '"(?:[^"\\\\]|\\\\.)*"\\s*:\\s*';
// An integer, or one written as a string (`"n":"2"`, as many APIs write numbers).
const jsonInteger = '(?:(-?\\d{1,9})|"(-?\\d{1,9})")\\s*';
/**
 * `{"key":"value"}` (one member, a string), or that beside one integer
 * member before or after it (`{"k":"…","n":1}`, `{"i":0,"s":"…"}`,
 * `{"k":"…","n":"1"}`).
 */
const chunkRecord = new RegExp(
  `\\{\\s*(?:${jsonKey}${jsonInteger},\\s*)?${jsonKey}"(?:[^"\\\\]|\\\\.)*"\\s*(?:,\\s*${jsonKey}${jsonInteger})?\\}`,
  'yd',
);

/**
 * Whether the object at `at` is a chunk's record ({@link chunkRecord}),
 * its integer, and where the string holding it starts when it is written
 * as one (round 23: `{"k":"ghp_…","n":"1"}` was two string members, no
 * record, and each record was read apart). Read once more, so linear.
 * Undefined when it is none.
 */
function chunkRecordAt(
  json: string,
  at: number,
): { index: number | undefined; indexString: number | undefined } | undefined {
  chunkRecord.lastIndex = at;
  const match = chunkRecord.exec(json);
  if (match === null) return undefined;
  const before = match[1] ?? match[2];
  const after = match[3] ?? match[4];
  if (before !== undefined && after !== undefined) return undefined;
  const index = before ?? after;
  const quoted = match[2] !== undefined ? 2 : match[4] !== undefined ? 4 : undefined;
  return {
    index: index === undefined ? undefined : Number(index),
    // The opening quote, one before the digits.
    indexString: quoted === undefined ? undefined : match.indices![quoted]![0] - 1,
  };
}

/**
 * A run's `[start, end)` pairs in the order of their records' integers
 * (`[{"k":"…rest","n":2},{"k":"ghp_…","n":1}]`: a model puts the chunks in
 * that order) when every string of the run has one and no two the same;
 * else as written.
 */
function inIndexOrder(pairs: number[], stringIndex: ReadonlyMap<number, number>): number[] {
  if (stringIndex.size === 0) return pairs;
  const order: Array<[number, number, number]> = [];
  const seen = new Set<number>();
  for (let k = 0; k < pairs.length; k += 2) {
    const index = stringIndex.get(pairs[k]!);
    if (index === undefined || seen.has(index)) return pairs;
    seen.add(index);
    order.push([index, pairs[k]!, pairs[k + 1]!]);
  }
  order.sort((first, second) => first[0] - second[0]);
  return order.flatMap(([, start, end]) => [start, end]);
}

/**
 * A run whose records do not all carry a distinct index, read as the
 * strings of those that do, in the order of their indexes (the first of
 * each index): undefined when fewer than two carry one, or that is the
 * written order. Round 23: one record without an index (`{"k":"end"}`) or
 * a repeated one put the whole run back in written order, so shuffled
 * chunks stayed apart. A second reading of that run only (the caller
 * merges the two readings' findings).
 */
function inPartialIndexOrder(
  pairs: number[],
  stringIndex: ReadonlyMap<number, number>,
  lastOfEach = false,
): number[] | undefined {
  if (stringIndex.size === 0) return undefined;
  const indexed: Array<[number, number, number]> = [];
  const seen = new Set<number>();
  // Round 24: with `lastOfEach`, the last record of each index (a decoy put
  // before the chunk that repeats its index: `{"k":"zzzz","n":2}` first).
  for (let step = 0; step < pairs.length; step += 2) {
    const k = lastOfEach ? pairs.length - 2 - step : step;
    const index = stringIndex.get(pairs[k]!);
    if (index === undefined || seen.has(index)) continue;
    seen.add(index);
    indexed.push([index, pairs[k]!, pairs[k + 1]!]);
  }
  if (indexed.length < 2) return undefined;
  indexed.sort((first, second) => first[0] - second[0]);
  const order = indexed.flatMap(([, start, end]) => [start, end]);
  return order.length === pairs.length && order.every((start, at) => start === pairs[at])
    ? undefined
    : order;
}

/** The width of the JSON escape at `at` (a backslash): 2, 6 for `\uXXXX`, 0 when it is none. */
function escapeWidth(json: string, at: number): number {
  const next = json.charCodeAt(at + 1);
  if (next === 0x75) return /^[0-9a-fA-F]{4}$/.test(json.slice(at + 2, at + 6)) ? 6 : 0;
  return '"\\/bfnrt'.includes(json[at + 1] ?? 'x') ? 2 : 0;
}

/** The character the JSON escape at `at` stands for (itself as written when it is none). */
function decodeEscape(json: string, at: number): string {
  const width = escapeWidth(json, at);
  if (width === 6) return String.fromCharCode(Number.parseInt(json.slice(at + 2, at + 6), 16));
  if (width === 0) return json.slice(at, at + 2);
  const next = json[at + 1]!;
  return ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[next] ?? next;
}

function isWhiteSpace(text: string): boolean {
  return /^\s$/.test(text);
}

/** A string leaf of a record: its contents' [start, end) in the JSON text, and how it reads. */
interface Leaf {
  start: number;
  end: number;
  /** It can be a chunk of a key (no white space, as written or escaped). */
  chunk: boolean;
  escaped: boolean;
}

/** A record's leaves by path (`c`, `data.v`): strings, and integers (a chunk's place). */
interface RecordLeaves {
  strings: Map<string, Leaf>;
  integers: Map<string, number>;
  /** Members that are neither: an array, a non-integer number, a literal. */
  nested: boolean;
}

/** Deepest JSON nesting the column reading follows (canonical JSON's own limit is 64). */
const MAX_COLUMN_DEPTH = 64;

/**
 * The columns of arrays of records (round 24): for each array of two
 * objects or more, the string values under one path (`c` of
 * `{"i":0,"c":"sk-","t":"chunk"}`, `data.v` of `{"i":0,"data":{"v":…}}`)
 * read in written order, and in the order of an integer member whose values
 * are distinct in the run (a chunk's place). Round 22 joined records of one
 * string and one integer only, so a third field (a label, a length) or a
 * chunk one object deeper kept every chunk apart. Arrays whose records hold
 * one string at most, and no nesting, are the main reading's. Runs of
 * consecutive chunk strings (a string of words or white space ends one),
 * cut into windows as the main reading's. One parse of the text: linear.
 */
function columnRuns(json: string, escaped: Set<number>): number[][] {
  const runs: number[][] = [];
  let at = 0;
  let failed = false;
  const skipBlanks = () => {
    while (at < json.length && json.charCodeAt(at) <= 0x20) at++;
  };
  const readString = (): Leaf => {
    const start = at + 1;
    let end = start;
    let chunk = true;
    let hasEscape = false;
    while (end < json.length && json.charCodeAt(end) !== 0x22) {
      const code = json.charCodeAt(end);
      if (code === 0x5c) {
        const width = escapeWidth(json, end);
        if (width === 0 || isWhiteSpace(decodeEscape(json, end))) chunk = false;
        hasEscape = true;
        end += Math.max(width, 2);
        continue;
      }
      if (code <= 0x20) chunk = false;
      end++;
    }
    if (end >= json.length) failed = true;
    at = end + 1;
    return { start, end: Math.min(end, json.length), chunk, escaped: hasEscape };
  };
  // Reads the value at `at`; for an object, its leaves under `prefix` into `into`.
  const readValue = (depth: number, prefix: string, into: RecordLeaves | undefined): void => {
    skipBlanks();
    if (failed || at >= json.length || depth > MAX_COLUMN_DEPTH) {
      failed = true;
      return;
    }
    const code = json.charCodeAt(at);
    if (code === 0x22) {
      const leaf = readString();
      if (into && !into.strings.has(prefix)) into.strings.set(prefix, leaf);
      return;
    }
    if (code === 0x7b) {
      if (into && prefix !== '') into.nested = true;
      at++;
      for (;;) {
        skipBlanks();
        if (json.charCodeAt(at) === 0x7d) {
          at++;
          return;
        }
        if (json.charCodeAt(at) !== 0x22) {
          failed = true;
          return;
        }
        const key = readString();
        skipBlanks();
        if (json.charCodeAt(at) !== 0x3a) {
          failed = true;
          return;
        }
        at++;
        const name = json.slice(key.start, key.end);
        readValue(depth + 1, prefix === '' ? name : `${prefix}.${name}`, into);
        if (failed) return;
        skipBlanks();
        if (json.charCodeAt(at) === 0x2c) at++;
        else if (json.charCodeAt(at) !== 0x7d) {
          failed = true;
          return;
        }
      }
    }
    if (code === 0x5b) {
      if (into) into.nested = true;
      readArray(depth + 1);
      return;
    }
    // A number or a literal.
    const start = at;
    let digits = true;
    for (; at < json.length; at++) {
      const unit = json.charCodeAt(at);
      if (unit <= 0x20 || unit === 0x2c || unit === 0x5d || unit === 0x7d) break;
      if ((unit < 0x30 || unit > 0x39) && !(unit === 0x2d && at === start)) digits = false;
    }
    if (at === start) {
      failed = true;
      return;
    }
    if (into) {
      const length = at - start - (json.charCodeAt(start) === 0x2d ? 1 : 0);
      if (digits && length >= 1 && length <= 9) {
        if (!into.integers.has(prefix)) into.integers.set(prefix, Number(json.slice(start, at)));
      } else into.nested = true;
    }
  };
  const readArray = (depth: number): void => {
    at++;
    // Another value between records (`7`, an array) ends their columns: undefined.
    const records: Array<RecordLeaves | undefined> = [];
    for (;;) {
      skipBlanks();
      if (failed || at >= json.length) {
        failed = true;
        return;
      }
      if (json.charCodeAt(at) === 0x5d) {
        at++;
        break;
      }
      if (json.charCodeAt(at) === 0x7b) {
        const record: RecordLeaves = { strings: new Map(), integers: new Map(), nested: false };
        readValue(depth, '', record);
        records.push(record);
      } else {
        readValue(depth, '', undefined);
        records.push(undefined);
      }
      if (failed) return;
      skipBlanks();
      if (json.charCodeAt(at) === 0x2c) at++;
      else if (json.charCodeAt(at) !== 0x5d) {
        failed = true;
        return;
      }
    }
    if (records.length < 2) return;
    if (
      records.every(
        record =>
          record === undefined ||
          (record.strings.size <= 1 && !record.nested && record.integers.size <= 1),
      )
    ) {
      return;
    }
    const paths = new Set<string>();
    for (const record of records) for (const path of record?.strings.keys() ?? []) paths.add(path);
    for (const path of paths) {
      // Consecutive records whose value under `path` is a chunk.
      let members: RecordLeaves[] = [];
      const flush = () => {
        if (members.length >= 2) pushColumn(members, path);
        members = [];
      };
      for (const record of records) {
        const leaf = record?.strings.get(path);
        if (record && leaf?.chunk && leaf.end > leaf.start) members.push(record);
        else flush();
      }
      flush();
    }
  };
  const pushColumn = (members: RecordLeaves[], path: string) => {
    const written: number[] = [];
    for (const record of members) {
      const leaf = record.strings.get(path)!;
      if (leaf.escaped) escaped.add(leaf.start);
      written.push(leaf.start, leaf.end);
    }
    runs.push(...windows(written));
    // Ordered by each integer member whose values are distinct over the run.
    const orders = new Set<string>();
    for (const record of members) for (const key of record.integers.keys()) orders.add(key);
    for (const key of orders) {
      const places = members.map(record => record.integers.get(key));
      if (places.some(place => place === undefined) || new Set(places).size !== places.length) {
        continue;
      }
      const sorted = members
        .map((record, index) => [places[index]!, record.strings.get(path)!] as const)
        .sort((first, second) => first[0] - second[0]);
      const ordered = sorted.flatMap(([, leaf]) => [leaf.start, leaf.end]);
      if (ordered.some((value, index) => value !== written[index])) runs.push(...windows(ordered));
    }
  };
  skipBlanks();
  const first = json.charCodeAt(at);
  if (first === 0x5b || first === 0x7b) readValue(0, '', undefined);
  return runs;
}

/** `pairs` cut into runs of at most `MAX_RUN_LENGTH` characters, each repeating up to `OVERLAP` of the last. */
function windows(pairs: number[]): number[][] {
  const out: number[][] = [];
  let from = 0;
  while (from < pairs.length) {
    let length = 0;
    let to = from;
    while (
      to < pairs.length &&
      (to === from || length + pairs[to + 1]! - pairs[to]! <= MAX_RUN_LENGTH)
    ) {
      length += pairs[to + 1]! - pairs[to]!;
      to += 2;
    }
    out.push(pairs.slice(from, to));
    if (to >= pairs.length) break;
    // The next window starts with the last strings of this one, up to OVERLAP characters.
    let back = to;
    let carried = 0;
    while (back - 2 > from && carried + pairs[back - 1]! - pairs[back - 2]! <= OVERLAP) {
      carried += pairs[back - 1]! - pairs[back - 2]!;
      back -= 2;
    }
    from = back;
  }
  return out;
}

/** The most string ends a prefix segment is also cut at. */
const MAX_SEGMENT_CUTS = 12;
/** The longest key: a segment is cut only up to this many characters. */
const LONGEST_KEY = 256;

/**
 * Readings of a run from each string that starts with a provider prefix
 * (`ghp_`, `sk-`, `AKIA`; not the run's first) up to the next such string,
 * and of that segment cut after each of its next strings (up to 256
 * characters, 12 cuts). Round 24: a decoy string before the prefix
 * (`["AAAA","ghp_q8Zr4L",…]`, or a decoy index put first) glued its letters
 * to the prefix, which then started no key, and one after a key of a fixed
 * length (`[…,"Vg0Jc7Qe2R","v2"]`: 38 characters after `ghp_`) made it no
 * key either: every chunk reached the model. Segments do not overlap, and
 * each is cut a bounded number of times: linear.
 */
function prefixSegments(run: number[], json: string): number[][] {
  const segments: number[][] = [];
  const starts: number[] = [];
  for (let k = 0; k < run.length; k += 2) {
    if (startsWithPrefixLiteral(json.slice(run[k]!, Math.min(run[k + 1]!, run[k]! + 16)))) {
      starts.push(k);
    }
  }
  for (let s = 0; s < starts.length; s++) {
    const from = starts[s]!;
    const to = starts[s + 1] ?? run.length;
    if (to - from < 4) continue; // one string: the ordinary scan's
    if (from > 0) segments.push(run.slice(from, to));
    let length = run[from + 1]! - run[from]!;
    let cuts = 0;
    for (let k = from + 2; k + 2 < to && cuts < MAX_SEGMENT_CUTS; k += 2) {
      length += run[k + 1]! - run[k]!;
      if (length > LONGEST_KEY) break;
      segments.push(run.slice(from, k + 2));
      cuts++;
    }
  }
  return segments;
}
