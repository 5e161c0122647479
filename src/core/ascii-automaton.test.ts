import { describe, expect, it } from 'vitest';
import { buildAsciiAutomaton } from './ascii-automaton';

const codes = (word: string) => Array.from(word, char => char.charCodeAt(0));

/** Every (end, value) the automaton reports over `text`. */
function scan(words: string[], text: string): Array<[number, string]> {
  const { next, found } = buildAsciiAutomaton(
    words.map(word => ({ codes: codes(word), value: word })),
  );
  const hits: Array<[number, string]> = [];
  let state = 0;
  for (let at = 0; at < text.length; at++) {
    state = next[state * 128 + text.charCodeAt(at)]!;
    for (const value of found[state]!) hits.push([at + 1, value]);
  }
  return hits;
}

describe('buildAsciiAutomaton', () => {
  it('reports every needle where it ends, overlapping ones through failure links', () => {
    expect(scan(['he', 'she', 'his', 'hers'], 'ushers')).toEqual([
      [4, 'she'],
      [4, 'he'],
      [6, 'hers'],
    ]);
  });

  it('keeps needles with the same codes, in order, and the code read into each state', () => {
    const automaton = buildAsciiAutomaton([
      { codes: codes('ab'), value: 1 },
      { codes: codes('ab'), value: 2 },
      { codes: [], value: 3 },
    ]);
    expect(automaton.found).toEqual([[], [], [1, 2]]);
    expect([...automaton.lastCode]).toEqual([0, 97, 98]);
  });

  it('refuses a code beyond ASCII', () => {
    expect(() => buildAsciiAutomaton([{ codes: [0xe9], value: 'é' }])).toThrow(
      'needle code beyond ASCII: 233',
    );
  });
});
