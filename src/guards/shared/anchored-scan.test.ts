import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anchoredMatcher,
  forEachOccurrence,
  literalFinder,
  occurrences,
  positionsOfUnit,
  printableRuns,
  stickyPattern,
} from './anchored-scan';

describe('anchoredMatcher', () => {
  it('reproduces matchAll when every possible start is tried in order', () => {
    const pattern = /(?<![a-z])ab+c?/g;
    const text = 'abbc xab abbbbc ab-abc cab';
    const matcher = anchoredMatcher(stickyPattern(pattern), text);
    const found: Array<[number, string]> = [];
    for (const start of occurrences(text, 'a')) {
      const match = matcher.at(start);
      if (match) found.push([match.index, match[0]]);
    }
    expect(found).toEqual([...text.matchAll(pattern)].map(match => [match.index, match[0]]));
  });

  it('skips starts inside the previous match', () => {
    const matcher = anchoredMatcher(/a+/y, 'aaaa b');
    expect(matcher.at(0)?.[0]).toBe('aaaa');
    expect(matcher.at(2)).toBeNull();
    expect(matcher.next).toBe(4);
  });

  it('endAt gives the ends of the matches at gives, with the same skips, empty matches included', () => {
    const pattern = /(?<![a-z])ab*c?|(?=x)/g;
    fc.assert(
      fc.property(fc.stringMatching(/^[abcx -]{0,30}$/), text => {
        const byMatch = anchoredMatcher(stickyPattern(pattern), text);
        const byEnd = anchoredMatcher(stickyPattern(pattern), text);
        for (let start = 0; start <= text.length + 1; start++) {
          const match = byMatch.at(start);
          expect(byEnd.endAt(start)).toBe(match ? match.index + match[0].length : -1);
          expect(byEnd.next).toBe(byMatch.next);
        }
      }),
      { numRuns: 500, seed: 21 },
    );
    const matcher = anchoredMatcher(/a+/y, 'aaaa b');
    expect(matcher.endAt(0)).toBe(4);
    expect(matcher.endAt(2)).toBe(-1);
    expect(matcher.endAt(5)).toBe(-1);
    expect(matcher.next).toBe(6);
  });
});

describe('literalFinder', () => {
  it('finds every occurrence of every literal, including overlapping ones', () => {
    const literals = ['ghp_', 'sk-', 'sk-ant-', 'aws', '.', 'Q~', 'eyJ'];
    const text = 'x ghp_1 sk-ant-2 laws. AWS awsQ~eyJ sk-sk-';
    const found: Array<[number, string]> = [];
    literalFinder(literals).find(text, (start, literal) => found.push([start, literals[literal]!]));
    const expected = literals.flatMap(literal =>
      occurrences(text, literal).map(start => [start, literal] as [number, string]),
    );
    const order = (a: [number, string], b: [number, string]) =>
      a[0] - b[0] || a[1].localeCompare(b[1]);
    expect(found.sort(order)).toEqual(expected.sort(order));
  });

  it('agrees with indexOf on generated texts, non-ASCII neighbours and the text ends included', () => {
    // Round 35: a literal's neighbour of the anchor is looked up in a table by code.
    const literals = ['ghp_', 'sk-', 'sk-ant-', '-u', 'x-', '.', 'Q~', 'eyJ', '_e'];
    const finder = literalFinder(literals);
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'g',
            'h',
            'p',
            '_',
            's',
            'k',
            '-',
            'a',
            'n',
            't',
            'u',
            'x',
            '.',
            'Q',
            '~',
            'e',
            'y',
            'J',
            'é',
            ' ',
          ),
          {
            maxLength: 60,
          },
        ),
        chars => {
          const text = chars.join('');
          const found: string[] = [];
          finder.find(text, (start, literal) => found.push(`${start}:${literal}`));
          const expected = literals.flatMap((literal, index) =>
            occurrences(text, literal).map(start => `${start}:${index}`),
          );
          expect(found.sort()).toEqual(expected.sort());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads the offsets the caller gives for an anchor character as it reads its own (round 38)', () => {
    // `secrets` hands the `:` list its assignment scan reads too.
    const literals = ['://', 'Authorization:', '-u', 'ghp_'];
    const finder = literalFinder(literals);
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(':', '/', '-', 'u', 'n', ':/', 'ghp_', 'Authorization', ' ', 'é'),
          {
            maxLength: 40,
          },
        ),
        chars => {
          const text = chars.join('');
          const own: string[] = [];
          finder.find(text, (start, literal) => own.push(`${start}:${literal}`));
          const given: string[] = [];
          const asked: string[] = [];
          finder.find(
            text,
            (start, literal) => given.push(`${start}:${literal}`),
            char => {
              asked.push(char);
              return char === ':' ? positionsOfUnit(text, ':') : undefined;
            },
          );
          expect(given).toEqual(own);
          expect(asked).toContain(':');
        },
      ),
      { numRuns: 1000 },
    );
    // An empty list is read as no occurrence, not as "search for it".
    const hits: number[] = [];
    finder.find(
      'http://x',
      start => hits.push(start),
      () => new Int32Array(0),
    );
    expect(hits).toEqual([]);
  });
});

describe('literalFinder on literals of common letters only', () => {
  // Found by one alternation; literals that overlap or share a start are all reported.
  const literals = [
    'aws',
    'curl',
    'hubspot',
    'sonar',
    'sshpass',
    'ssh',
    'oken>',
    'ecret>',
    'ee',
    'e(',
    'a+',
  ];
  const all = (text: string) => {
    const found: Array<[number, string]> = [];
    literalFinder(literals).find(text, (start, literal) => found.push([start, literals[literal]!]));
    return found.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  };
  const expected = (text: string) =>
    literals
      .flatMap(literal =>
        occurrences(text, literal).map(start => [start, literal] as [number, string]),
      )
      .sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));

  it('finds each occurrence once, at the start of the text, overlapping, and not a bare part', () => {
    const text = 'ws aws sshsshpass eee bspot hubspot token> secret> url curl sonarsonar e( a+ aa';
    expect(all(text)).toEqual(expected(text));
    expect(all('ws pot ur')).toEqual([]);
    expect(all('aws')).toEqual([[0, 'aws']]);
  });

  it('agrees with a search per literal on generated texts', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'a',
            'w',
            's',
            'h',
            'p',
            'e',
            'o',
            'k',
            'n',
            '>',
            'c',
            'u',
            'r',
            'l',
            '(',
            '+',
          ),
          {
            maxLength: 80,
          },
        ),
        chars => {
          const text = chars.join('');
          expect(all(text)).toEqual(expected(text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('forEachOccurrence', () => {
  it('visits every occurrence of every needle in text order', () => {
    const visited: number[] = [];
    forEachOccurrence('(a) [b] bc1 (c', ['[', '(', 'bc1'], position => visited.push(position));
    expect(visited).toEqual([0, 4, 8, 12]);
  });

  it('visits nothing when no needle occurs', () => {
    const visited: number[] = [];
    forEachOccurrence('plain text', ['[', '0x'], position => visited.push(position));
    expect(visited).toEqual([]);
  });
});

describe('printableRuns', () => {
  const reference = (text: string, minLength: number) =>
    [...text.matchAll(/[!-~]+/g)]
      .filter(match => match[0].length >= minLength)
      .flatMap(match => [match.index, match.index + match[0].length]);

  it('gives the maximal runs of printable ASCII without blanks, at least that long', () => {
    const text = 'a sk-proj-abc_123 é https://x.io/a\tbcdefghijklm\nxy';
    expect(Array.from(printableRuns(text, 13))).toEqual([2, 17, 20, 34]);
    expect(Array.from(printableRuns(text, 5))).toEqual(reference(text, 5));
    expect(Array.from(printableRuns('', 13))).toEqual([]);
    expect(Array.from(printableRuns('abcdefghijklm', 13))).toEqual([0, 13]);
    expect(Array.from(printableRuns('abcdefghijkl', 13))).toEqual([]);
    // Past the list's first room (64 offsets), grown several times.
    const flood = '[EMAIL_ADDRESS] '.repeat(5000);
    expect(Array.from(printableRuns(flood, 14))).toEqual(reference(flood, 14));
    expect(printableRuns(flood, 14).length).toBe(10_000);
  });

  it('agrees with a regular expression on generated texts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'Z', '9', '-', '.', ' ', '\n', '\t', 'é', '\u2028'), {
          maxLength: 120,
        }),
        fc.integer({ min: 1, max: 20 }),
        (chars, minLength) => {
          const text = chars.join('');
          expect(Array.from(printableRuns(text, minLength))).toEqual(reference(text, minLength));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('literalFinder.findWithin', () => {
  const literals = ['sk-', 'ghp_', 'snyk', 'aws', 'AKIA', '.', 'kk', 'e'];
  const finder = literalFinder(literals);
  const every = (text: string) =>
    literals.flatMap((literal, index) =>
      occurrences(text, literal).map(start => ({ start, index, end: start + literal.length })),
    );

  it('finds once each occurrence inside the windows, and only occurrences that reach into them', () => {
    fc.assert(
      fc.property(
        // 'é' beside an anchor: a neighbour outside ASCII (round 35: a
        // one-character literal before one, or at the text's end, is found too).
        fc.array(
          fc.constantFrom('s', 'k', '-', 'n', 'y', 'a', 'w', 'A', 'K', 'I', '.', 'e', ' ', 'é'),
          { maxLength: 60 },
        ),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (chars, first, second) => {
          const text = chars.join('');
          const from = Math.min(first, second, text.length);
          const to = Math.min(Math.max(first, second), text.length);
          const found: string[] = [];
          finder.findWithin(text, [from, to], (start, index) => found.push(`${start}:${index}`));
          const all = every(text);
          const inside = all.filter(({ start, end }) => start >= from && end <= to);
          const reaching = all.filter(({ start, end }) => start < to && end > from);
          const key = ({ start, index }: { start: number; index: number }) => `${start}:${index}`;
          expect(new Set(found).size).toBe(found.length);
          for (const occurrence of inside) expect(found).toContain(key(occurrence));
          for (const hit of found) expect(reaching.map(key)).toContain(hit);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('finds in several windows what it finds in each alone, in order (round 44)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('s', 'k', '-', 'n', 'y', 'a', 'w', 'A', 'K', 'I', '.', 'e', ' ', 'é'),
          { maxLength: 80 },
        ),
        fc.array(fc.integer({ min: 0, max: 85 }), { maxLength: 8 }),
        (chars, bounds) => {
          const text = chars.join('');
          // Windows in text order that do not overlap; they may touch, or pass the text's end.
          const sorted = [...bounds].sort((first, second) => first - second);
          const windows = sorted.length % 2 === 0 ? sorted : sorted.slice(1);
          const together: string[] = [];
          finder.findWithin(text, windows, (start, index) => together.push(`${start}:${index}`));
          const apart: string[] = [];
          for (let window = 0; window < windows.length; window += 2) {
            finder.findWithin(text, windows.slice(window, window + 2), (start, index) =>
              apart.push(`${start}:${index}`),
            );
          }
          expect(together).toEqual(apart);
        },
      ),
      { numRuns: 2000 },
    );
    // A window starting on an anchor whose neighbour before it lies in no
    // window (`k` of `sk-`), after a window ending elsewhere; one ending on an anchor.
    const found: string[] = [];
    const hit = (start: number, index: number) => found.push(`${start}:${index}`);
    finder.findWithin('a sk-', [0, 1, 4, 5], hit);
    finder.findWithin('xsk-ghp_aws', [2, 4, 4, 9], hit);
    expect(found).toEqual(['2:0', '1:0', '4:1']);
  });
});

describe('positionsOfUnit', () => {
  it('lists every offset of the unit, in order, past the list growing', () => {
    expect([...positionsOfUnit('a=b==c', '=')]).toEqual([1, 3, 4]);
    expect([...positionsOfUnit('no such', ':')]).toEqual([]);
    expect([...positionsOfUnit(':', ':')]).toEqual([0]);
    const many = 'k: v\n'.repeat(40);
    expect([...positionsOfUnit(many, ':')]).toEqual(
      Array.from({ length: 40 }, (_, line) => line * 5 + 1),
    );
  });

  it('agrees with occurrences on generated texts', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('=', ':', 'a', ' ', '\u00e9', '\n') }),
        text => {
          for (const char of ['=', ':']) {
            expect([...positionsOfUnit(text, char)]).toEqual(occurrences(text, char));
          }
        },
      ),
    );
  });
});
