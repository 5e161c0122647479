import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { GuardrailConfigError } from '../../core/errors';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail } from '../../core/types';
import { foldTermReadings, foldTextReadings, withJoinedRuns } from '../prompt-injection/fold-text';
import { decodedJson, readsJson } from '../shared/json-string-spans';
import { contentFilterOptionShape } from './content-filter-options';
import { lowerCaseLettersCannotMatch } from './lower-case-letters-pretest';
import { heldForEmphasis, withJoinersBlank, withoutEmphasis } from './markdown-emphasis';
import {
  contentFilterMayMatch,
  contentFilterMayMatchReach,
  contentFilterPotentialStart,
} from './potential-start';
import { spelledAcrossMarks, withMarksAsSpaces } from './spelled-blanks';
import { spelledRunEntries } from './spelled-run-entries';
import { termMatcher } from './term-matcher';

/**
 * Short starter word lists per category. They are deliberately small and
 * phrase-based (single words such as "kill" have too many harmless uses);
 * replace them with lists that fit your product.
 */
export const DEFAULT_CONTENT_CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  profanity: ['fuck', 'fucking', 'motherfucker', 'shit', 'cunt', 'asshole', 'bitch', 'dickhead'],
  violence: ['i will kill you', 'kill you', 'murder you', 'shoot up the school', 'bomb threat'],
  'self-harm': ['kill myself', 'kill yourself', 'end my life', 'suicide method', 'cut myself'],
  weapons: ['pipe bomb', 'build a bomb', 'make a bomb', 'nerve agent', 'ghost gun'],
};

/**
 * Every built-in list, selectable by name (`categories: ['violence', 'hate']`):
 * the default ones plus `hate` (slurs and calls for violence against groups)
 * and `sexual` (explicit sexual terms and sexual content involving minors),
 * which are off by default. Short and unambiguous on purpose: on the 27,602
 * texts of `shared/corpora/benign.jsonl` the two lists block none
 * (docs/policy-guardrails.md); supply your own lists for production.
 */
export const BUILTIN_CONTENT_CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  ...DEFAULT_CONTENT_CATEGORIES,
  hate: [
    'nigger',
    'niggers',
    'faggot',
    'faggots',
    'kike',
    'kikes',
    'wetback',
    'wetbacks',
    'raghead',
    'towelhead',
    'gas the jews',
    'kill all jews',
    'kill all muslims',
    'heil hitler',
    'white power',
    'race war now',
    'subhuman vermin',
  ],
  sexual: [
    'blowjob',
    'handjob',
    'cumshot',
    'gangbang',
    'deepthroat',
    'send nudes',
    'hardcore porn',
    'child porn',
    'child pornography',
    'sex with a minor',
    'sex with minors',
  ],
};

/** `self_harm` (the seed's spelling) names the `self-harm` list. */
function builtinCategoryName(name: string): string {
  return name.replace(/_/g, '-');
}

/** Options of `contentFilter`. */
export interface ContentFilterOptions {
  /** Extra words or phrases to block, reported under the category `blocklist`. */
  blocklist?: readonly string[];
  /**
   * Word lists per category, or the names of built-in lists
   * (`['violence', 'hate']`, see `BUILTIN_CONTENT_CATEGORIES`; `self_harm` and
   * `self-harm` both work). Replaces `DEFAULT_CONTENT_CATEGORIES` when given;
   * pass `{}` or `[]` to use only `blocklist`.
   */
  categories?: Readonly<Record<string, readonly string[]>> | readonly string[];
  /** Block texts longer than this many characters. Makes the guardrail not stream-safe. */
  maxLength?: number;
  /** User-facing message of a block. */
  message?: string;
  /** Guardrail name in records. Default `'content-filter'`. */
  name?: string;
}

/**
 * The longest entry, in characters (as given and folded). Longer ones are a
 * `GuardrailConfigError` before any other work: the stream window is four
 * times the longest entry (held back in window mode).
 */
const MAX_ENTRY_LENGTH = 10_000;

/**
 * `matcher` on `folded` with its joiners read as blanks (`withJoinersBlank`),
 * reading only the text within `reach` units of a joiner run, widened to the
 * blanks around (at most 64 units more): an entry that spans no joiner was
 * found in `folded` itself. Linear: the windows are merged, each unit is
 * matched at most once.
 */
function matchAroundJoiners(
  folded: string,
  matcher: (text: string) => ReturnType<ReturnType<typeof termMatcher>>,
  reach: number,
): ReturnType<ReturnType<typeof termMatcher>> {
  const joined = withJoinersBlank(folded);
  if (joined === undefined) return undefined;
  const toBlank = (at: number, step: -1 | 1) => {
    for (let moved = 0; moved < 64 && at > 0 && at < joined.length; moved++, at += step) {
      if (/\s/.test(joined[at - (step < 0 ? 1 : 0)]!)) break;
    }
    return at;
  };
  let windowStart = -1;
  let windowEnd = -1;
  for (let at = 0; at <= joined.length; at++) {
    const changed = at < joined.length && joined.charCodeAt(at) !== folded.charCodeAt(at);
    if (changed && windowStart >= 0 && at - reach <= windowEnd) {
      windowEnd = Math.max(windowEnd, toBlank(Math.min(joined.length, at + reach), 1));
      continue;
    }
    if (!changed && at < joined.length) continue;
    if (windowStart >= 0) {
      const found = matcher(joined.slice(windowStart, windowEnd));
      if (found) return found;
      windowStart = -1;
    }
    if (changed) {
      windowStart = toBlank(Math.max(0, at - reach), -1);
      windowEnd = toBlank(Math.min(joined.length, at + reach), 1);
    }
  }
  return undefined;
}

/**
 * Blocks text containing listed words or phrases: whole words only, case
 * insensitive, matched on a normalised form (NFKC, invisible characters
 * removed, homoglyphs and leetspeak folded, spaced-out letters joined) so
 * `k1ll yourself` or `k i l l yourself` do not slip by, while `skill` does not
 * match `kill` (in scripts written without blanks, Thai, Chinese, Japanese
 * and others, an entry matches as a substring). Optionally caps the length
 * of the text.
 *
 * Stream-safe (without `maxLength`), with `maxMatchLength` from the longest
 * entry. The record's `info` holds `{ category, entry }` of the first match:
 * the entry's index in its list, never the entry itself (a blocklist often
 * names what the app must not show, and records go to the browser).
 *
 * @example
 * contentFilter({ blocklist: ['acme internal'], categories: { profanity: ['darn'] } });
 */
export function contentFilter(options?: ContentFilterOptions): Guardrail {
  const {
    blocklist = [],
    categories: categoriesOption = DEFAULT_CONTENT_CATEGORIES,
    maxLength,
    message = 'This content is not allowed.',
    name = 'content-filter',
  } = validateFactoryOptions(options, 'content-filter', contentFilterOptionShape);
  const issues: Array<{ path: string; value: unknown; expected: string }> = [];
  const categories: Readonly<Record<string, readonly string[]>> = {};
  if (Array.isArray(categoriesOption)) {
    categoriesOption.forEach((given: string, index) => {
      const listName = builtinCategoryName(given);
      const terms = BUILTIN_CONTENT_CATEGORIES[listName];
      if (terms && Object.hasOwn(BUILTIN_CONTENT_CATEGORIES, listName)) {
        (categories as Record<string, readonly string[]>)[listName] = terms;
      } else {
        issues.push({
          path: `${name}.categories[${index}]`,
          value: given,
          expected: `a built-in category (${Object.keys(BUILTIN_CONTENT_CATEGORIES).join(', ')}) or an object of word lists`,
        });
      }
    });
  } else {
    Object.assign(categories, categoriesOption);
  }
  // Types and unknown keys are checked above; what is left is a term that folds to nothing.
  const lists: Array<[string, readonly string[], string]> = [
    ['blocklist', blocklist, `${name}.blocklist`],
    ...Object.entries(categories).map(([category, terms]): [string, readonly string[], string] => [
      category,
      terms,
      `${name}.categories.${category}`,
    ]),
  ];
  // term (folded) -> its list and index there; the first list naming a term wins.
  const categoryOf = new Map<string, { category: string; entry: number }>();
  for (const [category, terms, path] of lists) {
    if (!Array.isArray(terms)) {
      issues.push({ path, value: terms, expected: 'an array of strings' });
      continue;
    }
    terms.forEach((term, index) => {
      // Checked before folding, and after (NFKC may lengthen it); named by length only.
      const tooLong = (length: number) =>
        issues.push({
          path: `${path}[${index}]`,
          value: `(${length} characters)`,
          expected: `an entry of at most ${MAX_ENTRY_LENGTH} characters`,
        });
      if (typeof term === 'string' && term.length > MAX_ENTRY_LENGTH) {
        tooLong(term.length);
        return;
      }
      const readings =
        typeof term === 'string'
          ? foldTermReadings(term).map(reading => reading.replace(/\s+/g, ' '))
          : [''];
      const folded = readings[0]!;
      if (folded.length > MAX_ENTRY_LENGTH) {
        tooLong(folded.length);
      } else if (folded === '') {
        issues.push({ path: `${path}[${index}]`, value: term, expected: 'a non-empty string' });
      } else {
        for (const reading of readings)
          if (!categoryOf.has(reading)) categoryOf.set(reading, { category, entry: index });
      }
    });
  }
  // A filter with no entry and no length cap checks nothing: a silent pass.
  if (issues.length === 0 && categoryOf.size === 0 && maxLength === undefined) {
    issues.push({
      path: `${name}.categories`,
      // The copy read once (a getter on the caller's object may answer otherwise a second time).
      value: categoriesOption,
      expected:
        'at least one entry (blocklist or categories) or maxLength (with none, contentFilter checks nothing)',
    });
  }
  if (issues.length > 0) throw new GuardrailConfigError(issues);

  // Longest first, so "kill yourself" is reported rather than a shorter entry.
  const terms = [...categoryOf.keys()].sort((a, b) => b.length - a.length);
  // An automaton, not one RegExp of every entry: V8 compiled that in time
  // growing with the square of the list (10 entries of 9,002 characters:
  // 4-8 s) and tried each entry at each position (5,000 words: 4 s for 120 KB).
  const matcher = terms.length === 0 ? undefined : termMatcher(terms);
  // Text of lower-case letters and spaces (spaced letters, which window
  // mode checks over and over) is ruled out without folding when no entry
  // can be spelled in it (`lower-case-letters-pretest.ts`: the same verdict).
  const cannotMatch = matcher === undefined ? undefined : lowerCaseLettersCannotMatch(terms);
  // An entry spelled inside a longer spelled-out run (`u k i l l   y o u r s e l f`), round 44.
  const inSpelledRuns = matcher === undefined ? undefined : spelledRunEntries(terms);
  const longest = terms.reduce((max, term) => Math.max(max, term.length), 0);
  // Window mode holds back the last words only when they begin an entry
  // (read with Markdown's hiding markers, too).
  const potentialMatchStart = heldForEmphasis(
    contentFilterPotentialStart(terms, Math.max(16, longest * 4)),
    Math.max(16, longest * 4),
  );

  return defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    // Obfuscation (spaces, invisible characters between letters) can make a
    // match up to about four times the entry's length in the original text.
    streamSafe: maxLength === undefined,
    maxMatchLength: maxLength === undefined ? Math.max(16, longest * 4) : undefined,
    potentialMatchStart,
    // Window mode skips checks of ordinary prose in which no entry occurs.
    // It reads an entry with the letters on each side (blanks count once),
    // and around a spelled-out run (`contentFilterMayMatchReach`).
    ...(maxLength === undefined && {
      mayMatch: contentFilterMayMatch(terms, {
        potentialMatchStart,
        maxMatchLength: Math.max(16, longest * 4),
      }),
      mayMatchReach: contentFilterMayMatchReach(longest),
    }),
    check(content, ctx) {
      if (maxLength !== undefined && content.length > maxLength) {
        return block({
          message,
          reason: `text is ${content.length} characters, more than maxLength ${maxLength}`,
          severity: 'warning',
          info: { length: content.length, maxLength },
        });
      }
      if (!matcher) return allow();
      if (cannotMatch?.(content)) return allow();
      // Both readings: leetspeak folded ("k1ll") and symbols kept ("$project").
      // Text with no leet character is folded once: the two readings are one (`foldTextReadings`).
      // Punctuation joining words reads as a blank (`kill-you`, `ACME_SECRET`):
      // folding keeps `-._/`, so the folded text is read again with them blank.
      // An entry found only so spans a joiner: just the text around each is read.
      const matchJoined = (folded: string) =>
        matcher(folded) ?? matchAroundJoiners(folded, matcher, Math.max(16, longest * 4));
      const findFolded = (text: string) => {
        const readings = foldTextReadings(text);
        const found = matchJoined(readings.folded);
        if (found) return found;
        const plain = readings.plain();
        return plain === readings.folded ? undefined : matchJoined(plain);
      };
      // And without the Markdown markers the reader does not see (`kill **you**`).
      const find = (text: string) => {
        const found = findFolded(text);
        if (found) return found;
        const shown = withoutEmphasis(text);
        return shown ? findFolded(shown.text) : undefined;
      };
      // JSON (a tool's arguments or result) is also read decoded: the `n` of a
      // line break (`\nproject x`) is glued to the word after it.
      const decoded = readsJson(ctx) ? decodedJson(content) : undefined;
      // The spelled-out runs every reading joined, read last (`spelled-run-entries.ts`).
      // Tabs and line breaks between spelled-out letters read as spaces too
      // (round 45, `spelled-blanks.ts`), where one may lie inside a run.
      const findWithMarks = (text: string) =>
        find(text) ?? (spelledAcrossMarks(text) ? find(withMarksAsSpaces(text)) : undefined);
      const runs: string[] = [];
      const match = withJoinedRuns(
        runs,
        () => findWithMarks(content) ?? (decoded ? findWithMarks(decoded.text) : null),
      );
      const term = match ? match.term : inSpelledRuns?.(runs);
      if (term === undefined) return allow();
      // Named by list and index: the matched words are what the filter hides.
      const { category, entry } = categoryOf.get(terms[term]!) ?? {
        category: 'blocklist',
        entry: -1,
      };
      return block({
        message,
        reason: `matched ${category} entry ${entry}`,
        severity: 'warning',
        info: { category, entry },
      });
    },
  });
}
