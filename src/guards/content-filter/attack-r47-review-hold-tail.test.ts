import { describe, expect, it } from 'vitest';
import { spelledRunHold } from './potential-start';

const terms = ['kill yourself', 'kill you', 'ass'];

/** Median CPU time (µs) of `run`, interleaved with `other` (same process), over 7 rounds. */
function medianRatio(run: () => void, other: () => void): number {
  const cpu = (f: () => void) => {
    const before = process.cpuUsage();
    f();
    const used = process.cpuUsage(before);
    return used.user + used.system;
  };
  const ratios: number[] = [];
  for (let round = 0; round < 7; round++) {
    const a = cpu(run);
    const b = cpu(other);
    ratios.push(a / Math.max(1, b));
  }
  ratios.sort((x, y) => x - y);
  return ratios[3]!;
}

describe('round 47 review: spelledRunHold reads a tail in place (hC)', () => {
  // A tail read in place (`readsAsWritten`) read back through invisible
  // characters past the tail's start to the text's start, on every longer
  // tail too: about log4(n / 16) readings of the whole text a check, where
  // the written tail (round 46) read 4/3 of it. U+2060 is invisible and
  // reads as written, so a 256 K run of it took 8.9-10 times the whole-text
  // hold's CPU (load ~12-13); with the reading back stopped at the tail's
  // start, 2.65 times (each tail is tested by `readsAsWritten`, then read
  // back: 2 x 4/3 of the text).
  it('reads a run of invisible characters about as often as the whole-text hold', () => {
    const hold = spelledRunHold(terms);
    const whole = spelledRunHold(terms, { wholeText: true });
    for (const invisible of ['\u2060', '\ufeff', '\u00ad']) {
      const text = `hello k${invisible.repeat(1 << 18)}`;
      expect(hold(text)).toBe(6);
      expect(whole(text)).toBe(6);
      expect(
        medianRatio(
          () => hold(text),
          () => whole(text),
        ),
      ).toBeLessThan(4.5);
    }
  });

  it('gives the whole-text answer around the tail start', () => {
    const hold = spelledRunHold(terms);
    const whole = spelledRunHold(terms, { wholeText: true });
    const texts: string[] = [];
    for (let pad = 0; pad < 40; pad++) {
      texts.push(`${'x'.repeat(pad)} k i l l${'\u2060'.repeat(pad)} y o u`);
      texts.push(`say k${'\u2060'.repeat(pad)} i l l y o u r s e l f${'\ufeff'.repeat(40 - pad)}`);
      texts.push(`${'a '.repeat(pad)}${'\u2060'.repeat(20)}k i l`);
      texts.push(`ok.${'\u00ad'.repeat(pad)} a s${'\u2060'.repeat(pad)} s`);
    }
    expect(texts.map(hold)).toEqual(texts.map(whole));
  });
});
