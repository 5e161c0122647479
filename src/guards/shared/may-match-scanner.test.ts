import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import type { Guardrail } from '../../core/types';
import { contentFilter } from '../content-filter/content-filter';
import { pii } from '../pii/pii';
import { secrets } from '../secrets/secrets';

/**
 * Each built-in `mayMatchScanner` against its `mayMatch`: for every offset
 * of a text read in random pieces, the scanner says "may match" whenever
 * `mayMatch` does on the text from that offset on (more hits are allowed,
 * fewer never), and it says "no" on ordinary prose.
 */
const FRAGMENTS = [
  'The team reviewed the plan. ',
  'Please ask the desk for the task list. ',
  'code: ',
  'dead.beef.cafe ',
  'de-ad ',
  'jane [at] example (dot) com ',
  'jane ( at ) example ',
  'k i l l yourself ',
  'k.i.l.l ',
  'xa b c d e ',
  'kill   you ',
  'skill you ',
  'Kill\nYou ',
  'sumo, superstructure ',
  'Task sk-abc ',
  'ASK ',
  'xoxb ',
  'boxoxb ',
  'password = "hunter22" ',
  'api\u2010key ',
  'api-key ',
  'pass ',
  'passed ',
  'session key ',
  'token ',
  'data: ',
  '-- ',
  'well: no ',
  '4111 ',
  'in 1999 ',
  'fe80::1 ',
  ':ab ',
  'x9',
  'a@b ',
  '<x> ',
  'caf\u00e9 ',
  '\u00d7 ',
  '\u2026 ',
  '\u2014 ',
  '\u00a0',
  '\u201cquoted\u201d ',
  'supercalifragilistic ',
  '\u4f1a\u8b70 ',
  '\ud83d\ude00 ',
  'fuck ',
  'AKIA ',
  'eyJ ',
  'aws ',
  'Laws ',
  'Authorization ',
  'curl ',
  '\n',
  '\t',
  ' ',
];

function randomText(random: () => number): string {
  let text = '';
  const n = 1 + Math.floor(random() * 8);
  for (let i = 0; i < n; i++) {
    let piece = FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]!;
    // Cut a fragment at a random place now and then, so matches straddle pieces and offsets.
    if (random() < 0.3) piece = piece.slice(Math.floor(random() * piece.length));
    text += piece;
  }
  return text;
}

function scanPieces(guardrail: Guardrail, text: string, random: () => number) {
  const scanner = guardrail.mayMatchScanner!();
  let at = 0;
  while (at < text.length) {
    const size = 1 + Math.floor(random() * 12);
    scanner.push(text.slice(at, at + size));
    at += size;
  }
  return scanner;
}

const guardrails: Array<[string, Guardrail]> = [
  ['pii', pii()],
  ['secrets', secrets()],
  ['contentFilter', contentFilter()],
];

describe('mayMatchScanner of the built-ins', () => {
  for (const [name, guardrail] of guardrails) {
    it(`${name}: never rules out a text its mayMatch flags (3,000 random texts, every offset)`, () => {
      const random = seededRandom(16);
      expect(guardrail.mayMatchScanner).toBeTypeOf('function');
      const missed: string[] = [];
      for (let i = 0; i < 3_000; i++) {
        const text = randomText(random);
        const scanner = scanPieces(guardrail, text, random);
        for (let from = 0; from <= text.length; from++) {
          if (guardrail.mayMatch!(text.slice(from)) && !scanner.mayMatchFrom(from)) {
            missed.push(JSON.stringify(text.slice(from)));
          }
        }
      }
      expect(missed.slice(0, 5)).toEqual([]);
    });

    it(`${name}: rules out ordinary prose read in 4-character pieces`, () => {
      const text =
        'The team reviewed the quarterly plan and agreed on three priorities for the next month. '.repeat(
          20,
        );
      const scanner = guardrail.mayMatchScanner!();
      for (let at = 0; at < text.length; at += 4) scanner.push(text.slice(at, at + 4));
      expect(scanner.mayMatchFrom(0)).toBe(false);
      expect(scanner.mayMatchFrom(text.length)).toBe(false);
    });
  }

  it('counts a match found in a piece before the offset asked about only when it reaches past it', () => {
    const scanner = pii().mayMatchScanner!();
    scanner.push('call 4');
    scanner.push('11 now and then');
    expect(scanner.mayMatchFrom(5)).toBe(true); // "411 now..." holds digits
    expect(scanner.mayMatchFrom(8)).toBe(false); // " now and then"
  });

  it('counts a literal ruled out by the letter before it only for a text starting at it', () => {
    // `xox` (Slack) must not follow a letter or digit: in "boxox" it does not count, but "xox" alone does.
    const scanner = secrets().mayMatchScanner!();
    scanner.push('A boxoxb went by');
    expect(secrets().mayMatch!('A boxoxb went by')).toBe(false);
    expect(scanner.mayMatchFrom(0)).toBe(false);
    expect(secrets().mayMatch!('xoxb went by')).toBe(true);
    expect(scanner.mayMatchFrom(4)).toBe(true);
  });
});
