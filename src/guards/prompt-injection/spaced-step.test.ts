import { describe, expect, it } from 'vitest';
import { beforeInvisibles } from '../shared/invisible-run';
import {
  foldText,
  lastSpacedUnit,
  SPACED_BREAK,
  SPACED_JOIN,
  SPACED_SPACE,
  SPACED_UNREAD,
  spacedStep,
} from './fold-text';

/** `spacedStep`'s answer decoded: the next unit's position and the step's kind, or undefined. */
function step(
  text: string,
  at: number,
  direction: 1 | -1,
  readThrough?: (text: string, at: number) => number,
): [number, number] | undefined {
  const found = spacedStep(text, at, direction, readThrough);
  return found < 0 ? undefined : [found >> 2, found & 3];
}

describe('spacedStep: the spaced-unit rule of the fold, spacedRunStart and spelledRunHold', () => {
  it('steps across one separator, a blank or any other', () => {
    expect(step('k i', 0, 1)).toEqual([2, SPACED_SPACE]);
    expect(step('k i', 2, -1)).toEqual([0, SPACED_SPACE]);
    for (const separator of '.-_*') {
      expect(step(`k${separator}i`, 0, 1), separator).toEqual([2, SPACED_JOIN]);
      expect(step(`k${separator}i`, 2, -1), separator).toEqual([0, SPACED_JOIN]);
    }
    // Leet digits and `@ $` are units, as are letters beyond ASCII.
    expect(step('k 3', 0, 1)).toEqual([2, SPACED_SPACE]);
    expect(step('@ é', 2, -1)).toEqual([0, SPACED_SPACE]);
  });

  it('steps across a word break of two or three blanks, not four', () => {
    expect(step('k  i', 0, 1)).toEqual([3, SPACED_BREAK]);
    expect(step('k   i', 0, 1)).toEqual([4, SPACED_BREAK]);
    expect(step('k  i', 3, -1)).toEqual([0, SPACED_BREAK]);
    expect(step('k   i', 4, -1)).toEqual([0, SPACED_BREAK]);
    expect(step('k    i', 0, 1)).toBeUndefined();
    expect(step('k    i', 5, -1)).toBeUndefined();
    // A break is blanks only.
    expect(step('k. i', 0, 1)).toBeUndefined();
    expect(step('k .i', 3, -1)).toBeUndefined();
  });

  it('ends the run at the text edges and at what is no separator or unit', () => {
    expect(step('k i', 2, 1)).toBeUndefined();
    expect(step('k i', 0, -1)).toBeUndefined();
    expect(step('k ', 0, 1)).toBeUndefined();
    expect(step('k  ', 0, 1)).toBeUndefined();
    expect(step('  i', 2, -1)).toBeUndefined();
    expect(step('k|i', 0, 1)).toBeUndefined();
    expect(step('k\ni', 0, 1)).toBeUndefined();
    // `2`, `6`, `9` and `|` read as no letter in a spaced run.
    expect(step('k 2', 0, 1)).toBeUndefined();
    expect(step('| i', 2, -1)).toBeUndefined();
  });

  it('reads through what `readThrough` skips, backward, and stops where it gives up', () => {
    const zwsp = (text: string, at: number) => {
      let from = at;
      while (from > 0 && text[from - 1] === '\u200b') from--;
      return at - from > 2 ? -1 : from;
    };
    expect(step('k\u200b i', 3, -1, zwsp)).toEqual([0, SPACED_SPACE]);
    expect(step('k \u200b\u200bi', 4, -1, zwsp)).toEqual([0, SPACED_SPACE]);
    expect(step('k \u200b\u200b\u200bi', 5, -1, zwsp)).toBeUndefined();
    expect(step('k\u200b i', 3, -1)).toBeUndefined();
  });

  it('is the rule foldText joins runs by', () => {
    // Four units joined by single steps, words apart at a break; four blanks end the run.
    expect(foldText('so k.i.l.l  y o u now')).toBe('so kill you now');
    expect(foldText('so k i l l   y o u now')).toBe('so kill you now');
    expect(foldText('so k i l    l now')).toBe('so k i l l now');
  });
});

describe('lastSpacedUnit: the last unit of a run that more text may continue', () => {
  it('is followed by nothing, one separator or up to three blanks', () => {
    expect(lastSpacedUnit('so k i')).toBe(5);
    expect(lastSpacedUnit('so k i.')).toBe(5);
    expect(lastSpacedUnit('so k i   ')).toBe(5);
    expect(lastSpacedUnit('so k i    ')).toBe(-1);
    expect(lastSpacedUnit('so k i\n')).toBe(-1);
    expect(lastSpacedUnit('so k i. ')).toBe(-1);
    expect(lastSpacedUnit('so 2')).toBe(-1);
    expect(lastSpacedUnit('')).toBe(-1);
  });

  it('reads through invisible characters with `beforeInvisibles`', () => {
    expect(lastSpacedUnit('so k i\u200b', beforeInvisibles)).toBe(5);
    expect(lastSpacedUnit('so k i \u200b \u00ad', beforeInvisibles)).toBe(5);
    expect(lastSpacedUnit('so k i\u200b')).toBe(-1);
    // Past 32 at one place: not read (the run may go on).
    expect(lastSpacedUnit(`so k i${'\u200b'.repeat(33)}`, beforeInvisibles)).toBe(SPACED_UNREAD);
    expect(spacedStep(`k${'\u200b'.repeat(33)} i`, 35, -1, beforeInvisibles)).toBe(SPACED_UNREAD);
    expect(spacedStep(`k ${'\u200b'.repeat(33)}i`, 35, -1, beforeInvisibles)).toBe(SPACED_UNREAD);
    expect(step(`k ${'\u200b'.repeat(32)}i`, 34, -1, beforeInvisibles)).toEqual([0, SPACED_SPACE]);
  });
});
