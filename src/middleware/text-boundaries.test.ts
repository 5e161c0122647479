import { describe, expect, it } from 'vitest';
import { isWordStart, wordStartBefore } from './text-boundaries';

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
