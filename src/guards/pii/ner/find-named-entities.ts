import { upperBound } from '../../shared/sorted-search';
import { bundledNerModel } from './bundled-ner-model';
import { type NerEntity, nerEntities, nerMaxLength } from './labels';
import type { NerModel } from './ner-model';
import {
  type ChunkReading,
  type NerSpan,
  type TypedPlaceholder,
  tagChunk,
  tagText,
} from './tagger';

/** Characters tagged at once. */
export const NER_CHUNK = 65_536;

/**
 * Where the chunk starting at `start` ends: at its last line break in its
 * last quarter, else at a sentence's end there (`。！？`, round 35), else at
 * its last blank there, else after a point there its content picks
 * ({@link isContentCut}), else at `NER_CHUNK` characters (never inside a
 * surrogate pair); a line break or blank only where the quarter holds two.
 * Only an address runs over a line break, and few entities over a blank.
 * A cut found by what the text holds is where it was when a character was
 * added or dropped before it (a text read again with an invisible break as
 * a blank or line break), so the chunks after it are the same text. Round
 * 35: CJK text, which has no blanks, was cut at a fixed size from the last
 * cut, and one break (or its blank, alone in a quarter) moved every later
 * cut: 1 MB with one break was tagged again whole.
 */
export function chunkEnd(text: string, start: number): number {
  const limit = start + NER_CHUNK;
  if (limit >= text.length) return text.length;
  const floor = start + (NER_CHUNK * 3) / 4;
  const range = text.slice(floor, limit);
  const newline = lastOfTwo(range, '\n');
  if (newline >= 0) return floor + newline + 1;
  for (let index = limit - 1; index >= floor; index--) {
    const code = text.charCodeAt(index);
    if (code === 0x3002 || code === 0xff01 || code === 0xff1f || code === 0xff61) return index + 1;
  }
  const blank = lastOfTwo(range, ' ', '\t');
  if (blank >= 0) return floor + blank + 1;
  for (let index = limit - 1; index >= floor; index--) {
    if (isContentCut(text, index)) return index + 1;
  }
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/**
 * The last index in `range` (a chunk's last quarter) whose unit is `unit`
 * or `other`, when the range holds another; else -1. One alone (an
 * invisible break read as a blank or line break in CJK) would move every
 * cut after it. Reads the range only, with the engine's own search (round
 * 43: a test per unit was a twentieth of a reading); `range` is a slice,
 * so `lastIndexOf` never reads back to the text's start.
 */
function lastOfTwo(range: string, unit: string, other?: string): number {
  const lastOf = (before: number) =>
    other === undefined
      ? range.lastIndexOf(unit, before)
      : Math.max(range.lastIndexOf(unit, before), range.lastIndexOf(other, before));
  const last = lastOf(range.length - 1);
  // `lastIndexOf(…, -1)` reads index 0: the one found must not be found again.
  return last > 0 && lastOf(last - 1) >= 0 ? last : -1;
}

/**
 * Whether a chunk may end after `text[index]` by what the text holds
 * there: a hash of its three units up to `index` in 1 of 64 values (about
 * 256 points in a quarter chunk of varied text), never inside a surrogate
 * pair. A text of one repeated unit has none, and its chunks cut at a fixed
 * size are the same text however they shift.
 */
function isContentCut(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code >= 0xd800 && code <= 0xdbff) return false;
  const hash = Math.imul(
    (text.charCodeAt(index - 2) * 31 + text.charCodeAt(index - 1)) * 31 + code,
    0x9e3779b1,
  );
  return hash >>> 26 === 0;
}

/**
 * The placeholders of a redaction in the default formats: `[TYPE]` (`pii`
 * and `secrets` redact with it) and `<TYPE_N>` (`pii`'s pseudonyms), the type
 * in capitals, digits and underscores.
 */
const DEFAULT_PLACEHOLDERS = /\[[A-Z][A-Z0-9_]{0,63}\]|<[A-Z][A-Z0-9_]{0,63}_\d{1,6}>/g;

/**
 * The B label of each text a caller's own format writes for one tagged type
 * alone (round 41), by the pattern `placeholderPattern` made of them: such a
 * placeholder is read as a name of its type, as `[PERSON]` is.
 */
const typedCustomPlaceholders = new WeakMap<RegExp, ReadonlyMap<string, number>>();

/**
 * A pattern of the default placeholders and of `placeholders` (the strings
 * a caller's own format writes, e.g. `pii`'s `placeholder` for each type),
 * for `findNamedEntities`. Empty strings are left out. Given by type (type
 * → text), a text that one tagged type alone writes (`<name>` for PERSON)
 * is read as a name of that type, as the default `[PERSON]` is (round 41);
 * a text several types write (`***`) names none and stays no name.
 */
export function placeholderPattern(
  placeholders: readonly string[] | ReadonlyMap<string, string>,
): RegExp {
  const texts = Array.isArray(placeholders) ? placeholders : [...placeholders.values()];
  const escaped = [...new Set(texts)]
    .filter(placeholder => placeholder.length > 0)
    .sort((a, b) => b.length - a.length)
    .map(placeholder => placeholder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (escaped.length === 0) return DEFAULT_PLACEHOLDERS;
  const pattern = new RegExp(`${DEFAULT_PLACEHOLDERS.source}|${escaped.join('|')}`, 'g');
  if (!Array.isArray(placeholders)) {
    const writers = new Map<string, number>();
    for (const text of texts) writers.set(text, (writers.get(text) ?? 0) + 1);
    const typed = new Map<string, number>();
    for (const [type, text] of placeholders as ReadonlyMap<string, string>) {
      const entity = nerEntities.indexOf(type as NerEntity);
      if (entity >= 0 && text.length > 0 && writers.get(text) === 1)
        typed.set(text, 1 + 2 * entity);
    }
    if (typed.size > 0) typedCustomPlaceholders.set(pattern, typed);
  }
  return pattern;
}

/**
 * `text` with each placeholder replaced by as many `0`s, and where they
 * were; `undefined` when it holds none. A run of digits is what most
 * redacted values were (numbers, ids), is never a name, and joins a word
 * written against it by a hyphen into one token, as the value did
 * (`555-0132-Fax`), so the word beside it is judged as it was before.
 */
function maskPlaceholders(
  text: string,
  placeholders: RegExp,
): { masked: string; ranges: Array<[number, number]>; typed: TypedPlaceholder[] } | undefined {
  let masked = '';
  let last = 0;
  const ranges: Array<[number, number]> = [];
  const typed: TypedPlaceholder[] = [];
  const custom = typedCustomPlaceholders.get(placeholders);
  // The B label each placeholder text is read as (-1: none), found once per text (round 43: a
  // text read again as redacted holds thousands of `[PERSON]`, each typed by a regex before).
  const beginOf = new Map<string, number>();
  placeholders.lastIndex = 0;
  for (const match of text.matchAll(placeholders)) {
    const start = match.index;
    const end = start + match[0].length;
    if (end === start) continue;
    masked += text.slice(last, start) + '0'.repeat(end - start);
    ranges.push([start, end]);
    let begin = beginOf.get(match[0]);
    if (begin === undefined) {
      begin = custom?.get(match[0]) ?? defaultBegin(match[0]);
      beginOf.set(match[0], begin);
    }
    if (begin >= 0) typed.push({ start, end, begin });
    last = end;
  }
  if (ranges.length === 0) return undefined;
  return { masked: masked + text.slice(last), ranges, typed };
}

/**
 * A default placeholder (`[PERSON]`, `<PERSON_1>`) and its type; a tagged
 * type's is read as a name of that type (see `tagTokens`). A caller's own
 * format is typed by `placeholderPattern` when it is given by type.
 */
const TYPED_PLACEHOLDER = /^\[([A-Z][A-Z0-9_]*)\]$|^<([A-Z][A-Z0-9_]*)_\d+>$/;

/** The B label of the tagged type a default placeholder names (`[PERSON]`), else -1. */
function defaultBegin(placeholder: string): number {
  const parts = TYPED_PLACEHOLDER.exec(placeholder);
  const entity = nerEntities.indexOf((parts?.[1] ?? parts?.[2]) as NerEntity);
  return entity >= 0 ? 1 + 2 * entity : -1;
}

/**
 * The tagger's spans of chunks already tagged, by chunk text: a text read
 * again with a few characters changed (`findPiiInNormalForm` reads a text
 * with invisible breaks as blanks after reading it without them) tags only
 * the chunks whose text changed. `tagText` reads nothing but its chunk, so
 * a chunk's spans are the same whatever text it is cut from. Keyed by a
 * 32-bit hash of the chunk and its length (V8 hashes a string longer than
 * 16 Ki units by its length alone), each entry checked by comparing the
 * chunk itself, so a collision costs a tagging, never a wrong span. One per
 * `findPii` call: dropped with it.
 *
 * Round 36: it also keeps where the first text read with it was cut, so a
 * later reading whose chunk holds a change goes back to those cuts after it
 * (`cutter`): the cuts `chunkEnd` picks depend on where a chunk starts, and
 * two breaks in the quarter where a CJK chunk's cut is looked for (two
 * blanks in the second reading, none in the first) moved every later cut,
 * so the whole rest of the text was tagged again.
 */
export class TaggedChunks {
  private readonly byHash = new Map<number, Array<{ chunk: string; spans: NerSpan[] }>>();
  /** How many chunks were tagged (not found here). */
  tagged = 0;
  /** The cuts of the first text cut with this memo. */
  private first: FirstCuts | undefined;
  /** The chunks of the second readings (see `readAgain`), made when one is read. */
  private again: TaggedChunks | undefined;

  /**
   * The memo of the texts read again as redacted (`tagNamedEntities`' second
   * reading), apart from this one's so its cuts and counts are the first
   * readings' alone. Round 44: each text `findPiiInNormalForm` reads (read
   * through, breaks as blanks) had its second reading tagged whole, every
   * chunk, where the first tags only the chunks a break changed: a 3.9 MB
   * text with breaks was read again in full three times. A chunk's spans are
   * a function of its text (the second reading reads no typed placeholder),
   * so one found here is the one a tagging gives.
   */
  get readAgain(): TaggedChunks {
    this.again ??= new TaggedChunks();
    return this.again;
  }

  /** `tagText(chunk, …)`, from an earlier call when it tagged the same text. */
  spansOf(chunk: string, tag: (chunk: string) => NerSpan[]): NerSpan[] {
    const hash = chunkHash(chunk);
    let entries = this.byHash.get(hash);
    if (entries !== undefined) {
      for (const entry of entries) if (entry.chunk === chunk) return entry.spans;
    } else {
      entries = [];
      this.byHash.set(hash, entries);
    }
    const spans = tag(chunk);
    this.tagged++;
    entries.push({ chunk, spans });
    return spans;
  }

  /** Whether `chunk` was tagged before. */
  private has(chunk: string): boolean {
    return this.byHash.get(chunkHash(chunk))?.some(entry => entry.chunk === chunk) ?? false;
  }

  /**
   * Where each chunk of `text` ends, given where it starts: `chunkEnd`'s cut;
   * on a text after the first, when that chunk was not tagged before (it
   * holds a change, or its cut moved), the last of the first text's cuts
   * found in its reach instead (`followedCut`), so the next chunk starts
   * where the first reading's did and is found here.
   */
  cutter(text: string): (start: number) => number {
    const first = this.first;
    if (first === undefined) {
      const cuts: FirstCuts = { length: text.length, at: [], around: [] };
      this.first = cuts;
      return start => {
        const end = chunkEnd(text, start);
        // Cuts after a line break or blank are not followed: where a text has them, a later
        // reading cuts where it did before (round 35), and keeps doing so.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last !== 10 && last !== 32 && last !== 9) {
          cuts.at.push(end);
          cuts.around.push(text.slice(end - CUT_CONTEXT, end + CUT_CONTEXT));
        }
        return end;
      };
    }
    // This reading's text is the first's with characters added (breaks read as blanks) or
    // taken out (read through), never both: a cut moves by at most the difference, one way.
    const grown = text.length - first.length;
    let shift = 0;
    return start => {
      const end = chunkEnd(text, start);
      if (end === text.length || this.has(text.slice(start, end))) return end;
      const followed = followedCut(
        text,
        start,
        first,
        Math.min(shift, grown),
        Math.max(shift, grown),
      );
      if (followed === undefined) return end;
      shift = followed.shift;
      return followed.end;
    };
  }
}

/** Units either side of a cut that tell it in another reading of the text. */
const CUT_CONTEXT = 16;
/** The first reading's cuts tried per chunk: each a search of one chunk's text. */
const CUT_TRIES = 4;

/**
 * Where the first text read with a memo was cut (not after a line break or
 * blank): its length, each cut's offset and the text around it.
 */
interface FirstCuts {
  length: number;
  at: number[];
  around: string[];
}

/**
 * The last of the first reading's cuts found in `text(start, start +
 * NER_CHUNK]`, with how far it moved; undefined when none is. A cut that
 * moved by `low` to `high` units is looked for there only, by the text
 * around it (`CUT_CONTEXT` units either side); the `CUT_TRIES` last such
 * cuts are tried, so the work per chunk is bounded.
 */
function followedCut(
  text: string,
  start: number,
  first: FirstCuts,
  low: number,
  high: number,
): { end: number; shift: number } | undefined {
  const reach = Math.min(text.length - 1, start + NER_CHUNK);
  // The first reading's last cut at or before `reach - low`.
  let index = first.at.length;
  for (let step = 1 << 30; step > 0; step >>= 1) {
    if (index - step >= 0 && first.at[index - step]! > reach - low) index -= step;
  }
  for (let tries = 0; tries < CUT_TRIES && --index >= 0; tries++) {
    const at = first.at[index]!;
    if (at + high <= start) break;
    const from = Math.max(0, Math.max(start + 1, at + low) - CUT_CONTEXT);
    const to = Math.min(reach, at + high) + CUT_CONTEXT;
    const found = text.slice(from, to).lastIndexOf(first.around[index]!);
    if (found < 0) continue;
    const end = from + found + CUT_CONTEXT;
    if (end > start && end <= reach) return { end, shift: end - at };
  }
  return undefined;
}

/** FNV-1a over the UTF-16 units of `text`, mixed with its length. Linear. */
function chunkHash(text: string): number {
  let hash = 0x811c9dc5 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Finds names of people, street addresses, places and organisations in
 * `text` with the shipped token tagger (an averaged perceptron over
 * capitalisation, shape, affix, context-word and gazetteer features; see
 * docs/pii-ner-model.md). Returns `[{ type, start, end }]` in text order,
 * offsets into `text`, only of the `entities` asked for. Linear in the
 * length of the text, tagged in chunks of `NER_CHUNK` characters cut at line
 * breaks or blanks (bounded memory); a token's label looks at most two tokens ahead, and no
 * span is longer than `nerMaxLength` of its type. Placeholders a redaction
 * wrote (`placeholders`: by default `[TYPE]` and `<TYPE_N>`, see
 * `placeholderPattern`) are masked: never part of a span, and (other than
 * a tagged type's, round 41: see `readNames`) no context that makes a word
 * beside them a name. The text is then read again as it will be redacted
 * (see `tagNamedEntities`), so window mode's re-check of redacted text
 * finds what generate found: at most 2 readings of the text, 3 more of a
 * chunk holding a typed placeholder (linear). `memo`: chunks tagged by earlier calls, reused where a
 * chunk's text is the same (see `TaggedChunks`); same spans, fewer taggings.
 */
export function findNamedEntities(
  text: string,
  entities: readonly NerEntity[] = nerEntities,
  placeholders: RegExp = DEFAULT_PLACEHOLDERS,
  memo?: TaggedChunks,
): NerSpan[] {
  return tagNamedEntities(bundledNerModel, text, entities, placeholders, memo);
}

/**
 * `findNamedEntities` with the model `model` gives, asked for only when
 * there is something to tag (`pii()` passes the model it loaded, so its
 * bundle need not carry the weights; see `ner-model-loader.ts`).
 */
export function tagNamedEntities(
  model: () => NerModel,
  text: string,
  entities: readonly NerEntity[] = nerEntities,
  placeholders: RegExp = DEFAULT_PLACEHOLDERS,
  memo?: TaggedChunks,
): NerSpan[] {
  if (entities.length === 0 || text.length === 0) return [];
  // The first reading's plain chunk readings, kept for a text of a few chunks (bounded memory).
  const readings: ChunkAt[] | undefined = text.length <= REUSED_LENGTH ? [] : undefined;
  const found = readNames(model, text, entities, placeholders, memo, true, readings);
  if (found.length === 0) return found;
  // Round 41: the text is read again as it will be redacted, each name found replaced by the
  // placeholder it gets, placeholders read as no name. Window mode re-checks released text so
  // redacted, and reads it so (`readNames`): a word the names' placeholders make a name there
  // (`Dear [PERSON], \nSiemens announced`) is one here too, so stream == generate, on the side
  // that redacts more. Only adds: a name found stays.
  const typedTexts = typedCustomPlaceholders.get(placeholders);
  /** Where each placeholder ends in `written`, and how far the text after it moved. */
  const ends: number[] = [];
  const shifts: number[] = [];
  let written = '';
  let cursor = 0;
  for (const span of found) {
    written += text.slice(cursor, span.start);
    written += placeholderTextOf(span.type, typedTexts);
    ends.push(written.length);
    shifts.push(span.end - written.length);
    cursor = span.end;
  }
  written += text.slice(cursor);
  // Round 42: `written` is the first text but for the placeholders, so its tokens away from them
  // take their labels from the first reading (`tagChunk`): the same spans, few tokens scored.
  const base =
    readings === undefined || readings.length === 0
      ? undefined
      : { readings, offsetOf: (offset: number) => offsetBefore(offset, ends, found, shifts) };
  const again = readNames(
    model,
    written,
    entities,
    placeholders,
    memo?.readAgain,
    false,
    undefined,
    base,
  );
  if (again.length === 0) return found;
  const spans: NerSpan[] = [];
  let at = 0;
  for (const span of again) {
    // The last placeholder ending at or before the span (none lies in it: see `readNames`).
    const before = upperBound(ends, span.start) - 1;
    const shift = before >= 0 ? shifts[before]! : 0;
    const start = span.start + shift;
    while (at < found.length && found[at]!.start < start) spans.push(found[at++]!);
    spans.push({ type: span.type, start, end: span.end + shift });
  }
  while (at < found.length) spans.push(found[at++]!);
  return spans;
}

/** Texts at most this long keep their first reading's tokens for the second (a few chunks' worth). */
const REUSED_LENGTH = 4 * NER_CHUNK;

/** A chunk's plain reading, its text and spans, and where the chunk was in its text. */
interface ChunkAt {
  start: number;
  end: number;
  text: string;
  spans: NerSpan[];
  reading: ChunkReading;
}

/**
 * The first readings of a text and where an offset of another text (the
 * first with some of its spans replaced) was in it: -1 inside a replacement.
 */
interface BaseReadings {
  readings: readonly ChunkAt[];
  offsetOf: (offset: number) => number;
}

/**
 * Where `offset` of the written text (names replaced by placeholders ending
 * at `ends`, the text after each moved by `shifts`) was in the first text;
 * -1 inside a placeholder.
 */
function offsetBefore(
  offset: number,
  ends: readonly number[],
  found: readonly NerSpan[],
  shifts: readonly number[],
): number {
  const next = upperBound(ends, offset);
  // Inside the next placeholder: it starts where its name started.
  if (next < ends.length && offset >= found[next]!.start - (next > 0 ? shifts[next - 1]! : 0))
    return -1;
  return offset + (next > 0 ? shifts[next - 1]! : 0);
}

/**
 * The first reading of the chunk `[start, end)` of a changed text, and
 * where each offset of the chunk was in that reading's chunk (-1 where it
 * changed or lies in another chunk); undefined when none was kept.
 */
function baseOf(
  base: BaseReadings | undefined,
  start: number,
  end: number,
): { chunk: ChunkAt; offsetOf: (offset: number) => number } | undefined {
  if (base === undefined) return undefined;
  let first = -1;
  for (let offset = start; offset < end && first < 0; offset++) first = base.offsetOf(offset);
  if (first < 0) return undefined;
  const chunk = base.readings.find(at => at.start <= first && first < at.end);
  if (chunk === undefined) return undefined;
  return {
    chunk,
    offsetOf: offset => {
      const at = base.offsetOf(start + offset);
      return at >= chunk.start && at < chunk.end ? at - chunk.start : -1;
    },
  };
}

/** The placeholder `type` gets: the caller's own text for it when one was given by type, else `[TYPE]`. */
function placeholderTextOf(
  type: NerEntity,
  typedTexts: ReadonlyMap<string, number> | undefined,
): string {
  if (typedTexts !== undefined) {
    const begin = 1 + 2 * nerEntities.indexOf(type);
    for (const [text, label] of typedTexts) if (label === begin) return text;
  }
  return `[${type}]`;
}

/**
 * One reading of `text` (see `tagNamedEntities`). Placeholders are masked;
 * `memo`: chunks tagged before (the first reading also cuts where the
 * memo's first text was cut: `TaggedChunks.cutter`). With `firstReading`, a
 * chunk holding a placeholder of a tagged type is read
 * three ways: plain (the placeholder no name), typed (read as a name of its
 * type, see `tagTokens`) and with those placeholders as blanks (only a name
 * right after one is taken from it). A name any reading finds is kept
 * (round 41: a placeholder the text writes itself must not hide the name
 * after it); overlapping ones are one span of the typed reading's type
 * (window mode's re-check then types a name as generate did beside the
 * real name).
 */
function readNames(
  model: () => NerModel,
  text: string,
  entities: readonly NerEntity[],
  placeholders: RegExp,
  memo: TaggedChunks | undefined,
  firstReading: boolean,
  readings?: ChunkAt[],
  base?: BaseReadings,
): NerSpan[] {
  const { gazetteers, score } = model();
  // A text redacted once is redacted again unchanged (window mode re-checks released text as
  // context): a placeholder is neither a name nor what makes the word beside it one.
  const mask = maskPlaceholders(text, placeholders);
  const tagged = mask?.masked ?? text;
  const spans: NerSpan[] = [];
  let range = 0;
  let typedAt = 0;
  /** `text` with the typed placeholders as blanks, made when a chunk holds one. */
  let blanked: string | undefined;
  /** Adds the chunk's spans of the asked types that take in no placeholder, offsets into `text`. */
  const keep = (chunkSpans: readonly NerSpan[], start: number, into: NerSpan[]) => {
    for (const span of chunkSpans) {
      if (!entities.includes(span.type)) continue;
      const from = span.start + start;
      const to = span.end + start;
      if (mask) {
        // A span that takes in a placeholder is dropped whole: what is left of it was not a
        // name when the value was there.
        const ranges = mask.ranges;
        while (range < ranges.length && ranges[range]![1] <= from) range++;
        if (range < ranges.length && ranges[range]![0] < to) continue;
      }
      into.push({ type: span.type, start: from, end: to });
    }
  };
  // Tagged a chunk at a time, so memory stays bounded on a 10 MB text. A second reading cuts where
  // `chunkEnd` does, as before its chunks were kept (round 44): only its chunks' spans are reused.
  const cut =
    memo === undefined || !firstReading
      ? (start: number) => chunkEnd(tagged, start)
      : memo.cutter(tagged);
  for (let start = 0; start < tagged.length; ) {
    const end = cut(start);
    const chunk = tagged.slice(start, end);
    // The typed placeholders in this chunk (none crosses a cut: a cut is at a blank), offsets
    // into it.
    const typed: TypedPlaceholder[] = [];
    const all = firstReading ? mask?.typed : undefined;
    for (; all !== undefined && typedAt < all.length && all[typedAt]!.start < end; typedAt++) {
      const placeholder = all[typedAt]!;
      typed.push({
        ...placeholder,
        start: placeholder.start - start,
        end: placeholder.end - start,
      });
    }
    // The chunk's plain reading when it is tagged here (not found in `memo`), for the readings
    // after it to take labels from.
    let reading: ChunkReading | undefined;
    const read = (piece: string) => {
      const from = baseOf(base, start, end);
      // A chunk of the first text unchanged (no name in it) has its spans: a chunk's are a
      // function of its text.
      if (from !== undefined && from.chunk.text === piece) return from.chunk.spans;
      const tagged = tagChunk(piece, gazetteers, score, [], from?.chunk.reading, from?.offsetOf);
      reading = tagged.reading;
      return tagged.spans;
    };
    const plain = memo === undefined ? read(chunk) : memo.spansOf(chunk, read);
    if (reading !== undefined) readings?.push({ start, end, text: chunk, spans: plain, reading });
    if (typed.length === 0) keep(plain, start, spans);
    else {
      // A chunk with a placeholder of a tagged type (where a name was, or where the text
      // wrote one) is read twice more: typed (tagged afresh: its masked text does not say the
      // type) and with those placeholders as blanks (as if the text had not written them).
      // Each reading's spans are kept: a placeholder the text wrote hides no name after it.
      // The blank reading adds only a name right after such a placeholder (blanks and
      // punctuation between): what it hid. Farther on, the placeholder was no context.
      const rangeAt = range;
      let before = 0;
      const ways: NerSpan[][] = [[], [], []];
      // Both take the labels of the tokens the placeholders leave as they were from the plain
      // reading (round 42; the typed one its tokens too: the same text).
      keep(tagChunk(chunk, gazetteers, score, typed, reading).spans, start, ways[0]!);
      range = rangeAt;
      keep(plain, start, ways[1]!);
      range = rangeAt;
      blanked ??= blankPlaceholders(text, mask!.typed);
      const blank = blanked.slice(start, end);
      keep(
        reading === undefined
          ? tagText(blank, gazetteers, score)
          : tagChunk(blank, gazetteers, score, [], reading, sameOffset).spans,
        start,
        ways[2]!,
      );
      // Round 46 (r46-hN): not an item of a list of places, right after a LOCATION placeholder
      // and a `,`, `&` or `/`, where the plain reading read a name of another type (`[LOCATION],
      // Gdansk, [LOCATION]`: an ORGANIZATION there, a PERSON here): window mode's re-check of
      // released context hid `Gdansk` where generate had not, the context came back changed
      // and was dropped. Elsewhere (`[PERSON] Olu Adeyemi called.`) the name stays (round 41).
      let other = 0;
      ways[2] = ways[2]!.filter(span => {
        while (before + 1 < typed.length && typed[before + 1]!.end + start <= span.start) before++;
        const after = typed[before]!.end + start;
        while (other < plain.length && plain[other]!.end + start <= span.start) other++;
        const read = plain[other];
        const gap = text.slice(after, Math.min(span.start, after + 9));
        return (
          after <= span.start &&
          PLACEHOLDER_GAP.test(gap) &&
          (read === undefined ||
            read.start + start >= span.end ||
            read.type === span.type ||
            typed[before]!.begin !== LOCATION_BEGIN ||
            !LIST_GAP.test(gap))
        );
      });
      unite(ways, spans);
    }
    start = end;
  }
  return spans;
}

/** The blanked chunk's offsets are the chunk's. */
const sameOffset = (offset: number) => offset;

/** The B label of a LOCATION placeholder. */
const LOCATION_BEGIN = 1 + 2 * nerEntities.indexOf('LOCATION');

/** A gap that joins the items of a list (`, `, ` & `, `/`). */
const LIST_GAP = /[,&/]/;

/**
 * Gap characters allowed between a placeholder and the name after it: blanks
 * and punctuation on the placeholder's line. Round 47 (hL): no line break.
 * With one, a placeholder ending a line made the first word of the next a
 * name (`data [PERSON] \nSam we`) where generate, reading the name that was
 * there (`data Paris \nSam we`), had not: window mode re-checks the
 * released line so redacted and hid `Sam`. A placeholder the text wrote
 * itself still hides no name after it on its own line.
 */
const PLACEHOLDER_GAP = /^(?:[^\S\n\r\v\f\u0085\u2028\u2029]|\p{P}){0,8}$/u;

/** `text` with each of `placeholders` written as as many blanks. */
function blankPlaceholders(text: string, placeholders: readonly TypedPlaceholder[]): string {
  let blanked = '';
  let last = 0;
  for (const { start, end } of placeholders) {
    blanked += text.slice(last, start) + ' '.repeat(end - start);
    last = end;
  }
  return blanked + text.slice(last);
}

/**
 * Appends to `into` the spans of `readings` (each in text order, no two of
 * one overlapping), overlapping ones joined into one span over all of them,
 * of the type of the first reading among them. Linear: a merge of the
 * readings.
 */
function unite(readings: readonly NerSpan[][], into: NerSpan[]): void {
  const heads = readings.map(() => 0);
  let current: NerSpan | undefined;
  let currentRank = 0;
  for (;;) {
    let rank = -1;
    for (let index = 0; index < readings.length; index++) {
      const span = readings[index]![heads[index]!];
      if (span !== undefined && (rank < 0 || span.start < readings[rank]![heads[rank]!]!.start))
        rank = index;
    }
    if (rank < 0) break;
    const span = readings[rank]![heads[rank]!++]!;
    if (current !== undefined && span.start < current.end) {
      current.end = Math.max(current.end, span.end);
      if (rank < currentRank) {
        current.type = span.type;
        currentRank = rank;
      }
      continue;
    }
    if (current !== undefined) into.push(current);
    current = { type: span.type, start: span.start, end: span.end };
    currentRank = rank;
  }
  if (current !== undefined) into.push(current);
}

export { type NerEntity, type NerSpan, nerEntities, nerMaxLength };
