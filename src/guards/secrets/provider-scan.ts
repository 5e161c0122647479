import {
  anchoredMatcher,
  doubled,
  type LiteralFinder,
  literalFinder,
  printableRuns,
  stickyPattern,
} from '../shared/anchored-scan';
import { prefixLiteralRules, startsWordAt } from './prefix-literals';
import { providerRules } from './provider-rules';

// ---------------------------------------------------------------- anchored scanning

/**
 * The anchor literals of a set of rules, found in one pass; literal index ->
 * rules anchored on it.
 */
interface LiteralSet {
  finder: LiteralFinder;
  rulesByLiteral: number[][];
  /** By literal index: 1 for a prefix literal (`extra`), whose word starts are asked for too. */
  prefixes?: Uint8Array;
}

/**
 * The literals of `rules`, and `extra` literals (none of their rules'
 * matches: found for where they start words), anchored first on the
 * `preferred` characters (see `literalFinder`).
 */
function literalSet(
  rules: readonly number[],
  extra: readonly string[] = [],
  preferred = '',
): LiteralSet {
  const literals: string[] = [];
  const rulesByLiteral: number[][] = [];
  const indexOf = (literal: string) => {
    const index = literals.indexOf(literal);
    if (index >= 0) return index;
    rulesByLiteral.push([]);
    return literals.push(literal) - 1;
  };
  for (const ruleIndex of rules) {
    for (const literal of providerRules[ruleIndex]!.anchor.literals) {
      rulesByLiteral[indexOf(literal)]!.push(ruleIndex);
    }
  }
  const extraIndexes = extra.map(indexOf);
  const finder = literalFinder(literals, preferred);
  if (extra.length === 0) return { finder, rulesByLiteral };
  const prefixes = new Uint8Array(literals.length);
  for (const index of extraIndexes) prefixes[index] = 1;
  return { finder, rulesByLiteral, prefixes };
}

const ruleIndexes = providerRules.map((_, ruleIndex) => ruleIndex);
const anywhereRules = ruleIndexes.filter(index => !providerRules[index]!.anchor.near);
/** Rules whose literals may be anywhere: searched in the whole text. */
const anywhere = literalSet(anywhereRules);
/**
 * The same, with the prefix literals (`prefix-literals.ts`), for a scan
 * that also asks where they start words (`scanProviderRules`' `prefixSites`,
 * round 42). Until then those sites were a pass of their own over every
 * character (`prefixedWordStarts`' regex alternation, about 24 instructions
 * a character, 14% of the chain's CPU profile on the dev sets' first MB).
 * Here each prefix literal is anchored on a character this finder stops at
 * for other literals too, or on one that several share: `-`, `_`, `x`
 * (`sk-`, `ghp_`, `xoxb-`, also `-u`, `_live_`, `xox`), `.` (`hvs.`, `t1.`),
 * and `A` rather than the rarer `S`, `C`, `I` or `B` for the AWS prefixes
 * (`ASIA`, `AC`, `AIza`, `ABIA`, which all start with it), `K`, `V`, `G`,
 * `E` and `~` for the rest (`dapi`, of common letters only, is found by
 * `literalFinder`'s alternation of such literals). `EAA` is on its `E`:
 * on its first `A`, every `A` of a run of them was compared with it (a
 * megabyte of `EAAAAAAA` took twice the chain's time). Counted on that
 * MB's normal form: the 72 literals kept (see `siteLiterals`) each on its
 * rarest character (the default) stop at 18 characters, about 39,000
 * times; anchored so, the merged finder stops at 15, about 25,700 times,
 * where the provider literals alone stop at 8, about 11,900 times
 * (`-----BEGIN` on `-` now, not `B`). Each stop is an `indexOf` and a
 * table lookup or two: a flood of one of these characters costs more than
 * the regex did (a megabyte of `A`, about 1.5x the chain's time; of `.`,
 * whose stream the provider literals do not have, 1.03x), linear as before.
 */
const anywhereAndPrefixes = literalSet(anywhereRules, siteLiterals(), '~VKZ_-.xEAG');

/**
 * The prefix literals but those that start with another (`sk-ant-api`
 * with `sk-`, `xoxe` with `xox`, `ACCA` with `AC`): a site is an offset,
 * and the shorter literal is at every one of theirs. So no two literals
 * kept start at the same offset, and each site is found once.
 */
function siteLiterals(): string[] {
  const literals = prefixLiteralRules.map(({ literal }) => literal);
  return literals.filter(
    literal => !literals.some(other => other !== literal && literal.startsWith(other)),
  );
}

/**
 * Rules whose literals lie near long runs (`Anchor.near`), of printable
 * characters or of a keyed value's: their literals, and by a run's length
 * (the last entry for longer ones) how far before it they can start (-1:
 * no rule's literal goes with a run that short).
 */
interface NearRules extends LiteralSet {
  reachBefore: number[];
  /** The shortest run of any of these rules. */
  shortestRun: number;
}

function nearRules(value: boolean): NearRules {
  const rules = ruleIndexes.filter(index => providerRules[index]!.anchor.near?.value === value);
  const reachBefore: number[] = [];
  for (const index of rules) {
    while (reachBefore.length <= providerRules[index]!.anchor.near!.run) reachBefore.push(-1);
  }
  for (const index of rules) {
    const { run, before } = providerRules[index]!.anchor.near!;
    for (let length = run; length < reachBefore.length; length++) {
      reachBefore[length] = Math.max(reachBefore[length]!, before);
    }
  }
  const shortestRun = Math.min(...rules.map(index => providerRules[index]!.anchor.near!.run));
  return { ...literalSet(rules), reachBefore, shortestRun };
}

const nearPrintable = nearRules(false);
const nearValue = nearRules(true);

/**
 * The shortest printable run any rule's literals need (see `Anchor.near`):
 * the `runs` given to `scanProviderRules` must hold every run at least this long.
 */
export const providerRunLength = Math.min(nearPrintable.shortestRun, nearValue.shortestRun);

/**
 * Where the literals of `rules` can be part of a match: each of `runs` long
 * enough for one of them, from as far before it as they reach; merged where
 * they meet, in text order.
 */
function nearWindows(runs: Int32Array, { reachBefore, shortestRun }: NearRules): number[] {
  const windows: number[] = [];
  for (let run = 0; run < runs.length; run += 2) {
    const start = runs[run]!;
    const end = runs[run + 1]!;
    if (end - start < shortestRun) continue;
    const before = reachBefore[Math.min(end - start, reachBefore.length - 1)]!;
    if (before < 0) continue;
    const from = Math.max(0, start - before);
    const last = windows.length - 1;
    if (last >= 0 && from <= windows[last]!) windows[last] = Math.max(windows[last]!, end);
    else windows.push(from, end);
  }
  return windows;
}

/** A character of a keyed value (`[A-Za-z0-9_=:-]`). */
function isValueCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 58) || // digits and `:`
    code === 95 ||
    code === 61 ||
    code === 45
  );
}

/**
 * The maximal runs of keyed value characters at least `minLength` long, as
 * `printableRuns` gives them: those characters are printable, so each lies
 * in one of `runs` (printable runs of `minLength` or more), and only those
 * are read. As `printableRuns` reads the text, every `minLength`-th
 * character of a run is probed and read from to the ends of the value run
 * it falls in (round 33: the runs were read whole; a URL's or a path's
 * `.` and `/` split it into value runs too short to need reading).
 */
export function valueRuns(source: string, runs: Int32Array, minLength: number): Int32Array {
  let found: Int32Array = new Int32Array(64);
  let count = 0;
  const step = Math.max(1, minLength);
  for (let run = 0; run < runs.length; run += 2) {
    const end = runs[run + 1]!;
    // `from` is the run's start or follows a character that is no value's.
    let from = runs[run]!;
    while (from + step - 1 < end) {
      const probe = from + step - 1;
      if (!isValueCode(source.charCodeAt(probe))) {
        from = probe + 1;
        continue;
      }
      let start = probe;
      while (start > from && isValueCode(source.charCodeAt(start - 1))) start--;
      let at = probe + 1;
      while (at < end && isValueCode(source.charCodeAt(at))) at++;
      if (at - start >= minLength) {
        if (count === found.length) found = doubled(found);
        found[count++] = start;
        found[count++] = at;
      }
      from = at + 1;
    }
  }
  return found.subarray(0, count);
}

const stickyRules = providerRules.map(providerRule => stickyPattern(providerRule.pattern));
/** Each rule's `Anchor.hit`, read per hit (not through rule objects of many shapes). */
const hitChecks = providerRules.map(providerRule => providerRule.anchor.hit);

/**
 * Calls `onMatch(ruleIndex, match)` with exactly the matches
 * `source.matchAll(rule.pattern)` yields for each provider rule, in rule
 * order and text order, trying each pattern only near its anchors. `runs`:
 * `printableRuns(source, n)` for an `n` of at most `providerRunLength`
 * (computed when not given), for the rules whose literals matter only near
 * such runs. `colons`: `positionsOfUnit(source, ':')`, when the caller has it.
 * `prefixSites`: when given (an empty list), it is filled with every
 * offset where a prefix literal starts a word (what
 * `prefixedWordStarts(source)` returns), in order, found by the same
 * literal pass (round 42).
 */
export function scanProviderRules(
  source: string,
  onMatch: (ruleIndex: number, match: RegExpExecArray) => void,
  runs: Int32Array = printableRuns(source, providerRunLength),
  colons?: Int32Array,
  prefixSites?: number[],
): void {
  const hits: number[][] = providerRules.map(() => []);
  const hitsOf =
    ({ rulesByLiteral }: LiteralSet) =>
    (start: number, literal: number) => {
      for (const ruleIndex of rulesByLiteral[literal]!) {
        const check = hitChecks[ruleIndex];
        if (check === undefined || check(source, start)) hits[ruleIndex]!.push(start);
      }
    };
  const known = colons && ((char: string) => (char === ':' ? colons : undefined));
  if (prefixSites === undefined) {
    // The `:` of `://` and `Authorization:` from the list the assignment scan reads too (round 38).
    anywhere.finder.find(source, hitsOf(anywhere), known);
  } else {
    const ruleHits = hitsOf(anywhereAndPrefixes);
    const prefixes = anywhereAndPrefixes.prefixes!;
    anywhereAndPrefixes.finder.find(
      source,
      (start, literal) => {
        if (prefixes[literal] === 1 && startsWordAt(source, start)) prefixSites.push(start);
        ruleHits(start, literal);
      },
      known,
    );
    // Sites come grouped by anchor character (each once, see `siteLiterals`): put them in text order.
    if (!isSorted(prefixSites)) prefixSites.sort((first, second) => first - second);
  }
  nearPrintable.finder.findWithin(source, nearWindows(runs, nearPrintable), hitsOf(nearPrintable));
  nearValue.finder.findWithin(
    source,
    nearWindows(valueRuns(source, runs, nearValue.shortestRun), nearValue),
    hitsOf(nearValue),
  );
  for (let ruleIndex = 0; ruleIndex < providerRules.length; ruleIndex++) {
    const ruleHits = hits[ruleIndex]!;
    if (ruleHits.length === 0) continue;
    // Hits come grouped by anchor character: put them in text order.
    if (!isSorted(ruleHits)) ruleHits.sort((first, second) => first - second);
    const { min, max, start: startCheck } = providerRules[ruleIndex]!.anchor;
    const matcher = anchoredMatcher(stickyRules[ruleIndex]!, source);
    let from = 0;
    for (const hit of ruleHits) {
      const last = hit - min;
      for (let start = Math.max(hit - max, from, 0); start <= last; start++) {
        if (start < matcher.next) {
          start = matcher.next - 1;
          continue;
        }
        if (startCheck && !startCheck(source, start)) continue;
        const match = matcher.at(start);
        if (match) onMatch(ruleIndex, match);
      }
      from = Math.max(from, last + 1);
    }
  }
}

function isSorted(numbers: readonly number[]): boolean {
  for (let index = 1; index < numbers.length; index++) {
    if (numbers[index]! < numbers[index - 1]!) return false;
  }
  return true;
}
