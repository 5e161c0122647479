/**
 * Round 46 (hM, issue 15): a screen (no model, no training) for a wider
 * adversarial-suffix gate that also opens on suffixes written in ONE script
 * (ASCII gibberish: brackets, quotes, backslashes and other symbols glued
 * inside a word), which round 44's gate (`adversarialSuffixStart`: tokens
 * mixing Latin with another script) cannot see.
 *
 * Token kind, `glued` (on the folded text, `foldText`, as the gate reads
 * it): a whitespace-separated token whose core (from its first letter or
 * digit to its last) holds at least 2 characters that are neither letters,
 * digits, combining marks nor word joiners (`. - _ ' ’ / \ : @ & + , #`:
 * the inside of words, numbers, dates, paths, identifiers, e-mail,
 * hashtags, `c++`), and that is not
 *   - a URL (`://` inside, or starting with `www.`),
 *   - balanced code (every `( [ { <` closed in order inside the token and
 *     an even count of `"` and `` ` ``: `print("hi")`, `a[i]`, `<b>x</b>`).
 * Symbols at a token's ends (markdown `**`, quotes, `(see`) never count.
 * The wider gate: round 44's window (`SUFFIX_WINDOW` = 10 tokens,
 * `SUFFIX_ODD` = 3 odd) where odd is mixed (as round 44) or glued, or a
 * lone `!` beside a mixed or glued token (round 46's condition).
 * Variant B adds a text-level code exemption: in a text holding a fence
 * (```) or 2 or more lines whose last non-space character is `;`, `{` or
 * `}`, glued tokens do not count (mixed ones still do).
 *
 * Pass rule, written before the counts were seen: a variant passes when,
 * on every benign source (label 0; direct and indirect corpora and dev
 * sets, harmful.jsonl's negatives by kind, the synthetic hand-written
 * rows), the wider gate opens on at most 0.5% of its rows (a source of
 * fewer than 200 rows: at most 1 row); tldr, arena-hard and GPTeacher
 * included. Otherwise it is not run further (no training).
 *
 *   nice -n 10 npx tsx scripts/train/injection/suffix-one-script-screen.ts [--kinds]
 *
 * `--kinds` adds the breakdown by token kind (`kindBreakdown`).
 *
 * Round 47 (hA): variant C, round 44's window with word-piece tokens
 * (`isWordPieceToken`, vocabulary of `word-vocabulary.ts`) odd and strong
 * as glued ones were, glued tokens not counted; same pass rule, unchanged.
 * Variant D (after C failed): word pieces as C (now words with an English
 * affix are words) counted only in a text that reads as English
 * (`readsAsEnglish`) and does not look like code (variant B's exemption).
 * Variant E (after D failed): D where the English share leaves word-piece
 * tokens out of its count, and a word piece counts in a window only when
 * the same token is not already counted there (`widerGateOpensE`).
 */

import { dominantScript } from '../../../src/guards/harmful-content/script';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import {
  adversarialSuffixStart,
  SUFFIX_ODD,
  SUFFIX_WINDOW,
} from '../../../src/guards/prompt-injection/suffix-gate';
import { syntheticRows } from '../augment';
import { harmfulRows } from '../harmful/harmful-data';
import { type DataPaths, directRows, indirectRows } from '../injection-data';
import { isWordPieceToken, readsAsEnglish, WordSet } from './word-pieces';
import { vocabularyHashes } from './word-vocabulary';

const joiners = new Set([...".-_'’/\\:@&+,#"]);
const opening = '([{<';
const closing = ')]}>';
const alnum = /[\p{L}\p{N}\p{M}]/u;

/** Whether `token` is a glued one-script token (the header's definition). */
export function isGluedToken(token: string): boolean {
  const chars = [...token];
  let first = -1;
  let last = -1;
  for (let index = 0; index < chars.length; index++) {
    if (alnum.test(chars[index]!)) {
      if (first < 0) first = index;
      last = index;
    }
  }
  if (first < 0) return false;
  let inner = 0;
  for (let index = first + 1; index < last; index++) {
    const char = chars[index]!;
    if (!alnum.test(char) && !joiners.has(char)) inner++;
  }
  if (inner < 2) return false;
  if (token.includes('://') || token.startsWith('www.')) return false;
  // Balanced code.
  const stack: string[] = [];
  let quotes = 0;
  let balanced = true;
  for (const char of chars) {
    if (char === '"' || char === '`') quotes++;
    const open = opening.indexOf(char);
    if (open >= 0) stack.push(closing[open]!);
    else if (closing.includes(char) && stack.pop() !== char) balanced = false;
  }
  return !(balanced && stack.length === 0 && quotes % 2 === 0);
}

const codeLine = /[;{}]\s*$/;
/** Variant B's text-level exemption: a fence, or 2+ lines ending in `;`, `{`, `}`. */
export function looksLikeCode(text: string): boolean {
  if (text.includes('```')) return true;
  let lines = 0;
  for (const line of text.split('\n')) if (codeLine.test(line) && ++lines >= 2) return true;
  return false;
}

/** 0 plain, 1 lone `!`, 2 mixed, 3 glued or a word piece (of `vocabulary`, when given): the kind of each token of folded text. */
function tokenKinds(folded: string, gluedCounts: boolean, vocabulary?: WordSet): number[] {
  const latin = dominantScript(folded) === 'latin';
  const kinds: number[] = [];
  for (const token of folded.split(/\s+/)) {
    if (token === '') continue;
    if (token === '!') {
      kinds.push(1);
      continue;
    }
    let bits = 0;
    for (const char of token) {
      const code = char.codePointAt(0)!;
      if (/\p{Script=Latin}/u.test(char)) bits |= 1;
      else if (/\p{L}/u.test(char) && code >= 0x370) bits |= 2;
    }
    if (bits === 3 && latin) kinds.push(2);
    else if (gluedCounts && isGluedToken(token)) kinds.push(3);
    else if (vocabulary !== undefined && isWordPieceToken(vocabulary, token)) kinds.push(3);
    else kinds.push(0);
  }
  return kinds;
}

/**
 * Whether the wider gate opens on `folded` (variant B when `exemptCode`; C,
 * word pieces and no glued tokens, with `vocabulary`; D, C with `exemptCode`
 * and word pieces only in English text).
 */
export function widerGateOpens(folded: string, exemptCode: boolean, vocabulary?: WordSet): boolean {
  const pieces =
    vocabulary !== undefined && (!exemptCode || (readsAsEnglish(folded) && !looksLikeCode(folded)));
  const kinds =
    vocabulary === undefined
      ? tokenKinds(folded, !(exemptCode && looksLikeCode(folded)))
      : tokenKinds(folded, false, pieces ? vocabulary : undefined);
  for (let end = 0; end < kinds.length; end++) {
    let odd = 0;
    let strong = 0;
    for (let index = Math.max(0, end - SUFFIX_WINDOW + 1); index <= end; index++) {
      if (kinds[index]! !== 0) odd++;
      if (kinds[index]! >= 2) strong++;
    }
    if (odd >= SUFFIX_ODD && strong > 0) return true;
  }
  return false;
}

/** Variant E's gate on `folded` (the header's definition). */
export function widerGateOpensE(folded: string, vocabulary: WordSet): boolean {
  const pieces = readsAsEnglish(folded, vocabulary) && !looksLikeCode(folded);
  const tokens = folded.split(/\s+/).filter(token => token !== '');
  const kinds = tokenKinds(folded, false, pieces ? vocabulary : undefined);
  for (let end = 0; end < kinds.length; end++) {
    const seen = new Set<string>();
    let odd = 0;
    let strong = 0;
    for (let index = Math.max(0, end - SUFFIX_WINDOW + 1); index <= end; index++) {
      const kind = kinds[index]!;
      if (kind === 3) {
        if (seen.has(tokens[index]!)) continue;
        seen.add(tokens[index]!);
      }
      if (kind !== 0) odd++;
      if (kind >= 2) strong++;
    }
    if (odd >= SUFFIX_ODD && strong > 0) return true;
  }
  return false;
}

/** Token kinds read by the breakdown (not gates): each a test of one token. */
const tokenTests: Record<string, { raw: boolean; test: (token: string) => boolean }> = {
  'other-script': {
    raw: false,
    test: token => /\p{L}/u.test(token) && !/\p{Script=Latin}/u.test(token),
  },
  glued: { raw: false, test: isGluedToken },
  'one-inner-symbol': {
    raw: false,
    test: token => /[\p{L}\p{N}][^\p{L}\p{N}\p{M}.\-_'’/\\:@&+,#\s][\p{L}\p{N}]/u.test(token),
  },
  camel: { raw: true, test: token => /^\p{L}+$/u.test(token) && /\p{Ll}\p{Lu}/u.test(token) },
  'letters-14': { raw: false, test: token => /^\p{L}{14,}$/u.test(token) },
};

/** Whether a window of `SUFFIX_WINDOW` tokens of `text` holds `SUFFIX_ODD` that pass `test`. */
function kindWindowOpens(text: string, test: (token: string) => boolean): boolean {
  const ring = new Uint8Array(SUFFIX_WINDOW);
  let count = 0;
  let index = 0;
  for (const token of text.split(/\s+/)) {
    if (token === '') continue;
    const slot = index++ % SUFFIX_WINDOW;
    count -= ring[slot]!;
    ring[slot] = test(token) ? 1 : 0;
    count += ring[slot]!;
    if (count >= SUFFIX_ODD) return true;
  }
  return false;
}

/**
 * Per source and token kind: rows holding a token of the kind, and rows
 * where a window of the gate's size holds `SUFFIX_ODD` of them (the kind
 * alone as a gate); for llm-adaptive-attacks by family and only on the rows
 * variant B's gate stays shut on. Kinds: `other-script` (a token whose
 * letters are all of another script, in a Latin text), `glued` (this
 * screen's), `one-inner-symbol` (a non-joiner symbol between two letters or
 * digits), `camel` (as written: a letters-only token with a lower-case
 * letter before a capital), `letters-14` (a letters-only token of 14 or
 * more letters, folded).
 */
function kindBreakdown(
  rows: Array<{ text: string; label: number; group: string; family?: string }>,
): void {
  const table = new Map<string, number[]>();
  const names = Object.keys(tokenTests);
  for (const row of rows) {
    const folded = foldText(row.text);
    const adaptive = row.group === 'direct:tml-epfl/llm-adaptive-attacks';
    if (adaptive && widerGateOpens(folded, true)) continue;
    const key = adaptive ? `1\t${row.group} ${row.family} (B shut)` : `${row.label}\t${row.group}`;
    const counts = table.get(key) ?? new Array<number>(1 + 2 * names.length).fill(0);
    counts[0]!++;
    const latin = dominantScript(folded) === 'latin';
    for (const [index, name] of names.entries()) {
      const { raw, test } = tokenTests[name]!;
      if (name === 'other-script' && !latin) continue;
      const text = raw ? row.text : folded;
      if (text.split(/\s+/).some(test)) counts[1 + 2 * index]!++;
      if (kindWindowOpens(text, test)) counts[2 + 2 * index]!++;
    }
    table.set(key, counts);
  }
  console.log(`\nlabel\tsource\trows\t${names.map(name => `${name} any/window`).join('\t')}`);
  for (const [key, counts] of [...table].sort()) {
    const cells = names.map((_, index) => `${counts[1 + 2 * index]}/${counts[2 + 2 * index]}`);
    console.log(`${key}\t${counts[0]}\t${cells.join('\t')}`);
  }
}

/**
 * Every row the suffix screens read (rounds 46, 47, 49), grouped by mode and
 * source: direct and indirect corpora and dev sets, the synthetic rows, and
 * harmful.jsonl's rows by label and benign kind.
 */
export function screenRows(
  paths: DataPaths,
): Array<{ text: string; label: number; group: string; family?: string }> {
  return [
    ...directRows(paths).map(row => ({ ...row, group: `direct:${row.group}` })),
    ...indirectRows(paths).map(row => ({ ...row, group: `indirect:${row.group}` })),
    ...syntheticRows().map(row => ({ ...row, group: `direct:${row.group}` })),
    ...harmfulRows(paths).map(row => ({
      ...row,
      group: `harmful:${row.label === 1 ? 'harmful' : (row.kind ?? 'general')}:${row.group}`,
    })),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths: DataPaths = { corpora: '../shared/corpora', datasets: '../shared/datasets' };
  const rows = screenRows(paths);
  const vocabulary = new WordSet(vocabularyHashes(paths));
  type Count = {
    rows: number;
    old: number;
    a: number;
    b: number;
    c: number;
    d: number;
    e: number;
    gluedA: number;
  };
  const counts = new Map<string, Count>();
  for (const row of rows) {
    const key = `${row.label}\t${row.group}`;
    const count = counts.get(key) ?? { rows: 0, old: 0, a: 0, b: 0, c: 0, d: 0, e: 0, gluedA: 0 };
    const folded = foldText(row.text);
    count.rows++;
    if (adversarialSuffixStart(folded) >= 0) count.old++;
    if (widerGateOpens(folded, false)) count.a++;
    if (widerGateOpens(folded, true)) count.b++;
    if (widerGateOpens(folded, false, vocabulary)) count.c++;
    if (widerGateOpens(folded, true, vocabulary)) count.d++;
    if (widerGateOpensE(folded, vocabulary)) count.e++;
    if (tokenKinds(folded, true).some(kind => kind === 3)) count.gluedA++;
    counts.set(key, count);
  }
  const fails = {
    a: [] as string[],
    b: [] as string[],
    c: [] as string[],
    d: [] as string[],
    e: [] as string[],
  };
  console.log('label\tsource\trows\tround44 gate\tA\tB\tC\tD\tE\trows with a glued token');
  for (const [key, count] of [...counts].sort()) {
    console.log(
      `${key}\t${count.rows}\t${count.old}\t${count.a}\t${count.b}\t${count.c}\t${count.d}\t${count.e}\t${count.gluedA}`,
    );
    if (!key.startsWith('0\t')) continue;
    const allowed = count.rows < 200 ? 1 : 0.005 * count.rows;
    if (count.a > allowed) fails.a.push(`${key.slice(2)} ${count.a}/${count.rows}`);
    if (count.b > allowed) fails.b.push(`${key.slice(2)} ${count.b}/${count.rows}`);
    if (count.c > allowed) fails.c.push(`${key.slice(2)} ${count.c}/${count.rows}`);
    if (count.d > allowed) fails.d.push(`${key.slice(2)} ${count.d}/${count.rows}`);
    if (count.e > allowed) fails.e.push(`${key.slice(2)} ${count.e}/${count.rows}`);
  }
  console.log(`A ${fails.a.length === 0 ? 'passes' : `fails: ${fails.a.join(', ')}`}`);
  console.log(`B ${fails.b.length === 0 ? 'passes' : `fails: ${fails.b.join(', ')}`}`);
  console.log(`C ${fails.c.length === 0 ? 'passes' : `fails: ${fails.c.join(', ')}`}`);
  console.log(`D ${fails.d.length === 0 ? 'passes' : `fails: ${fails.d.join(', ')}`}`);
  console.log(`E ${fails.e.length === 0 ? 'passes' : `fails: ${fails.e.join(', ')}`}`);
  if (process.argv.includes('--kinds')) kindBreakdown(rows);
}
