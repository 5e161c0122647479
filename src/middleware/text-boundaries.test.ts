import { describe, expect, it } from 'vitest';
import { isWordStart, lastSettledBreak, wordStartBefore } from './text-boundaries';

describe('isWordStart', () => {
  it('after a blank, not after a digit and a blank, only before a letter', () => {
    expect(isWordStart('say kill', 4)).toBe(true);
    expect(isWordStart('say kill', 5)).toBe(false);
    expect(isWordStart('GB82 WEST', 5)).toBe(false);
    expect(isWordStart('say 42', 4)).toBe(false);
  });

  it('reads through invisible characters around the blank, as the detectors do (round 38)', () => {
    // A U+200B, a soft hyphen, a tag, a word joiner or a NUL after each blank.
    for (const junk of ['\u200b', '\u00ad', '\u{E0020}', '\u2060\u2060', '\u0000']) {
      const text = `say ${junk}kill`;
      expect(isWordStart(text, 4 + junk.length), JSON.stringify(junk)).toBe(true);
      // No position inside the run of invisibles is one.
      for (let at = 4; at < 4 + junk.length; at++) expect(isWordStart(text, at)).toBe(false);
      // Nor after a digit, a blank and the run (a spaced IBAN or card), either side of the blank.
      expect(isWordStart(`GB82 ${junk}WEST`, 5 + junk.length), JSON.stringify(junk)).toBe(false);
      expect(isWordStart(`GB82${junk} WEST`, 5 + junk.length), JSON.stringify(junk)).toBe(false);
      // Invisibles alone are no blank.
      expect(isWordStart(`bull${junk}shit`, 4 + junk.length), JSON.stringify(junk)).toBe(false);
    }
    expect(wordStartBefore('the plan was \u200bbullshit', 22, 0)).toBe(14);
  });

  it('reads through at most 32 invisible characters: past that, no word start (as before)', () => {
    expect(isWordStart(`say ${'\u200b'.repeat(32)}kill`, 36)).toBe(true);
    expect(isWordStart(`say ${'\u200b'.repeat(33)}kill`, 37)).toBe(false);
  });
});

describe('lastSettledBreak', () => {
  it("is the text's last blank or line break when no spaced-out run ends it", () => {
    expect(lastSettledBreak('say kill you')).toBe(8);
    expect(lastSettledBreak('say kill you ')).toBe(12);
    expect(lastSettledBreak('one\ntwo')).toBe(3);
    expect(lastSettledBreak('word')).toBe(-1);
    // A single unit ending the text: its blank is the break before it.
    expect(lastSettledBreak('kill you a')).toBe(8);
    // Four blanks end any run.
    expect(lastSettledBreak('k i l l    ')).toBe(10);
    // A line break is no separator: the run cannot go on.
    expect(lastSettledBreak('so k i l l\n')).toBe(10);
  });

  it('is the break before a spaced-out run that more text may continue (round 39)', () => {
    // `k.i.l.l y.o.u.r.s.e.l.f ` reads `kill yourself`, and `kill yourselfaskill` with `a s k i l l` after.
    const text = 'Some words before it: k.i.l.l y.o.u.r.s.e.l.f ';
    expect(lastSettledBreak(text)).toBe(text.indexOf('k.i') - 1);
    expect(lastSettledBreak(text.trimEnd())).toBe(text.indexOf('k.i') - 1);
    expect(lastSettledBreak(`${text}a`)).toBe(text.indexOf('k.i') - 1);
    // Two or three blanks (a word break) or one other separator after the last unit.
    expect(lastSettledBreak('so k i l l   y o u  ')).toBe(2);
    expect(lastSettledBreak('so k i l l   y o u.')).toBe(2);
    // Invisible characters read through, as the fold drops them.
    expect(lastSettledBreak('so k\u200b i l l ')).toBe(2);
    // A unit ending a word starts no run: `ab c d` is `ab` and the run `c d`.
    expect(lastSettledBreak('so ab c d')).toBe(5);
    // The run is the whole text: no break before it.
    expect(lastSettledBreak('k i l l ')).toBe(-1);
  });
});
