import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anchoredMatcher,
  forEachOccurrence,
  literalFinder,
  occurrences,
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
