import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prefixLiteralRules } from './prefix-literals';
import { providerRules } from './provider-rules';
import { providerRunLength, scanProviderRules } from './provider-scan';
import {
  forEachPiecedAwsMatch,
  forEachShortPiecesMatch,
  forEachShortPrefixedToken,
  prefixedWordStarts,
  type SplitMatch,
} from './split-prefix';

/**
 * Round 35: the short-pieces scan and the pieced-AWS scan take their sites
 * from one pass (`prefixedWordStarts`: where a prefix literal starts a
 * word) instead of a global search each. Given every offset of the text as
 * candidate starts, each scan tries every position in order, as a global
 * search does; given only the word starts, it must find the same.
 */
const found = (
  scan: typeof forEachShortPiecesMatch,
  text: string,
  starts?: readonly number[],
): string[] => {
  const calls: string[] = [];
  const record = ({ ruleIndex, match, toSource }: SplitMatch) =>
    calls.push(
      `${ruleIndex}:${match.index}:${match[0]}:${toSource(0)}:${toSource(match[0].length - 1)}`,
    );
  if (starts) scan(text, record, starts);
  else scan(text, record);
  return calls;
};

const everyOffset = (text: string) => Array.from({ length: text.length }, (_, at) => at);

/**
 * The sites as the scan found them until round 35: a global search of the
 * short-prefixed-token pattern (every prefixed rule's literal at a word
 * start, at most `providerRunLength - 2` token characters, a blank), a
 * match right after a `-` moving the search on by one unit.
 */
const globalSearchSites = (() => {
  const literals = [
    ...new Set(
      providerRules.flatMap(rule =>
        rule.prefix !== undefined && rule.anchor.min === 0 ? rule.anchor.literals : [],
      ),
    ),
  ].sort((first, second) => second.length - first.length);
  const pattern = new RegExp(
    `\\b(?:${literals.map(literal => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[A-Za-z0-9_-]{0,${providerRunLength - 2}}(?=[ \t\r\n])`,
    'g',
  );
  return (text: string) => {
    const sites: string[] = [];
    pattern.lastIndex = 0;
    for (let site = pattern.exec(text); site; site = pattern.exec(text)) {
      if (site.index > 0 && text.charCodeAt(site.index - 1) === 45) {
        pattern.lastIndex = site.index + 1;
        continue;
      }
      sites.push(`${site.index}-${site.index + site[0].length}`);
    }
    return sites;
  };
})();

const wordStartSites = (text: string) => {
  const sites: string[] = [];
  forEachShortPrefixedToken(text, prefixedWordStarts(text), (start, end) =>
    sites.push(`${start}-${end}`),
  );
  return sites;
};

describe('prefixedWordStarts', () => {
  it('gives each word start holding a prefix literal, after a dash or a quote too, none inside a word', () => {
    expect(prefixedWordStarts('ghp_ x-sk-a AKIA AKIAKIA xghp_ "sk-proj-')).toEqual([
      0, 7, 12, 17, 32,
    ]);
  });

  it('gives the sites both scans find on generated texts', () => {
    // Key pieces, prefixes (literals holding a character no token has among
    // them: a word may start inside the token after one), words and joiners.
    const pieces =
      'ghp_q8Zr4L m2Xw9Tb6Yp 1Kd7Hs3Nf5Vg0Jc7Qe2R sk-proj- Tq7vR2mX9p sk- x- AKIA AKIAZ7QH';
    const more = '3M2K X9TN4LPW Z7QH3M2KX9TN4LPW xoxb- pk. SG. t1. sha256~ word HTTP2 " +';
    const part = fc.constantFrom(...`${pieces} ${more}`.split(' '), ' ', '  ', '\t', '\n', '-');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 16 }), parts => {
        const text = parts.join('');
        expect([text, wordStartSites(text)]).toEqual([text, globalSearchSites(text)]);
        for (const scan of [forEachShortPiecesMatch, forEachPiecedAwsMatch]) {
          expect([text, found(scan, text)]).toEqual([text, found(scan, text, everyOffset(text))]);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('finds split keys from the word starts (both scans)', () => {
    const text = 'token ghp_q8Zr4L m2Xw9Tb6Yp 1Kd7Hs3Nf5Vg0Jc7Qe2R and AKIAZ7QH 3M2K X9TN4LPW end';
    const keys = (scan: typeof forEachShortPiecesMatch) => {
      const calls: string[] = [];
      scan(text, ({ ruleIndex, match, toSource }) =>
        calls.push(
          `${providerRules[ruleIndex]!.type}:${match[0]}:${toSource(0)}-${toSource(match[0].length - 1) + 1}`,
        ),
      );
      return calls;
    };
    expect(keys(forEachShortPiecesMatch)).toEqual([
      'GITHUB_TOKEN:ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R:6-48',
      'AWS_ACCESS_KEY_ID:AKIAZ7QH3M2KX9TN4LPW:53-75',
    ]);
    expect(keys(forEachPiecedAwsMatch)).toEqual(['AWS_ACCESS_KEY_ID:AKIAZ7QH3M2KX9TN4LPW:53-75']);
  });
});

/**
 * Round 42: `findSecrets` takes the word starts from the provider literals'
 * pass (`scanProviderRules`' `prefixSites`), not from a regex pass of their
 * own; they must be those `prefixedWordStarts` gives.
 */
describe('prefix sites from the provider literals pass (round 42)', () => {
  const sitesOf = (text: string) => {
    const sites: number[] = [];
    scanProviderRules(text, () => {}, undefined, undefined, sites);
    return sites;
  };

  it('gives the word starts prefixedWordStarts gives, once each and in order', () => {
    // `sk-` and `sk-ant-api` start at 0; `xox` and `xoxe` at 21, `xox` of the
    // anywhere rules too; after `-`, `"`, `(` and a line break; none inside a word.
    const text = 'sk-ant-api03 AKIAKIA xoxe-1 x-ghp_ "EAAA (dapi\nt1.x sha256~ aSK _AC';
    expect(sitesOf(text)).toEqual([0, 13, 21, 30, 36, 42, 47, 52]);
    expect(sitesOf(text)).toEqual(prefixedWordStarts(text));
  });

  it('gives them on generated texts of every prefix literal', () => {
    const literals = prefixLiteralRules.map(({ literal }) => literal);
    const part = fc.oneof(
      fc.constantFrom(...literals),
      fc.constantFrom(' ', '-', '_', '.', '"', 'a', 'Z', '9', '\n', 'é', '\u200b', '-----BEGIN'),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 24 }), parts => {
        const text = parts.join('');
        expect([text, sitesOf(text)]).toEqual([text, prefixedWordStarts(text)]);
      }),
      { numRuns: 3000 },
    );
  });
});
