import { describe, expect, it } from 'vitest';
import { cutName } from '../../test/helpers/cut-names';
import { cutNameCacheChars, cutToolName } from './shown-tool-calls';

// Round 30: the cut-name cache kept its last 32 names whole, whatever their
// length: 32 tool names of 10 MB a client wrote in its history stayed in
// memory for good (320 MB). It keeps at most 2^20 characters of names now;
// a longer name is cut the same, and hashed each time.
describe('the cut-name cache', () => {
  it('keeps at most 2^20 characters of names, and cuts every name the same', () => {
    const names = Array.from({ length: 40 }, (_, i) => `${i}:${'n'.repeat(100_000)}`);
    for (const name of names) expect(cutToolName(name)).toBe(cutName(name));
    expect(cutNameCacheChars()).toBeLessThanOrEqual(2 ** 20);
    const huge = `big:${'h'.repeat(3 * 2 ** 20)}`;
    expect(cutToolName(huge)).toBe(cutName(huge));
    expect(cutToolName(huge)).toBe(cutName(huge));
    expect(cutNameCacheChars()).toBeLessThanOrEqual(2 ** 20);
    for (const name of names) expect(cutToolName(name)).toBe(cutName(name));
  });
});
