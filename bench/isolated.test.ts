import { describe, expect, it } from 'vitest';
import { interleaved, medianOf, parseRowOutput, spreadOf } from './isolated';

describe('bench rows in fresh processes', () => {
  it('takes the median of the processes medians and the fastest run of any', () => {
    expect(
      spreadOf([
        [30, 10, 20],
        [5, 50, 40],
        [35, 25, 45],
      ]),
    ).toEqual({
      median: 35,
      fastest: 5,
      medians: [20, 40, 35],
    });
    expect(medianOf([4, 1, 3, 2])).toBe(3);
    expect(medianOf([])).toBeNaN();
  });

  it('reverses the rows every other round', () => {
    expect(interleaved(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(interleaved(['a', 'b', 'c'], 1)).toEqual(['c', 'b', 'a']);
    expect(interleaved(['a', 'b', 'c'], 2)).toEqual(['a', 'b', 'c']);
  });

  it('reads the CPU times from the child’s last line', () => {
    expect(parseRowOutput('r', 'warming up\n{"cpuMs":[1.5,2]}\n')).toEqual([1.5, 2]);
  });

  it('fails on a child line without CPU times', () => {
    expect(() => parseRowOutput('r', 'no json here')).toThrow(
      'row r: the child printed no result line',
    );
    expect(() => parseRowOutput('r', '{"cpuMs":[]}')).toThrow(
      "row r: the child's result line holds no CPU times",
    );
    expect(() => parseRowOutput('r', '{"cpuMs":[1,-2]}')).toThrow(
      "row r: the child's result line holds no CPU times",
    );
    expect(() => parseRowOutput('r', 'null')).toThrow(
      "row r: the child's result line holds no CPU times",
    );
  });
});
