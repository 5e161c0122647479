import { describe, expect, it } from 'vitest';
import { invisibleText } from '../guards/invisible-text/invisible-text';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { normalizationPoints } from '../guards/shared/normalize-text';
import { runChain } from './chain';
import { chainEnded, chainEntered, chainLeft, chainStarted, inChain } from './chain-memo';

const context = () => ({ kind: 'input' as const, messages: [], metadata: {}, state: new Map() });

describe('chain memo (round 29)', () => {
  it('reuses a fact only for the same text while a chain runs, and keeps nothing after', () => {
    let computed = 0;
    const count = (text: string) => {
      computed++;
      return text.length;
    };
    // Outside a chain: computed every time, nothing kept.
    expect(inChain('length', 'abc', count)).toBe(3);
    expect(inChain('length', 'abc', count)).toBe(3);
    expect(computed).toBe(2);
    const run = chainStarted();
    const outer = chainEntered(run);
    expect(inChain('length', 'abcd', count)).toBe(4);
    expect(inChain('length', 'abcd', count)).toBe(4);
    expect(computed).toBe(3);
    // Another text of the same length, or another kind of fact: computed.
    expect(inChain('length', 'abce', count)).toBe(4);
    expect(inChain('other', 'abce', count)).toBe(4);
    expect(computed).toBe(5);
    chainLeft(outer);
    chainEnded(run);
    expect(inChain('other', 'abce', count)).toBe(4);
    expect(computed).toBe(6);
  });

  it('a long text without personal data: secrets finds its key as on its own, and the chain keeps no text', async () => {
    const key = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
    const text = `${'a line of text \u2013 with a dash\n'.repeat(6_000)}token ${key}\n`;
    expect(normalizationPoints(text)?.length).toBe(6_000);
    const result = await runChain(
      [pii(), secrets({ action: 'redact' }), invisibleText()],
      text,
      context(),
    );
    expect(result.records.map(record => record.status)).toEqual(['passed', 'modified', 'passed']);
    expect(result.content).toBe(text.replace(key, '[GITHUB_TOKEN]'));
    // Nothing is kept once the chain ended: a fact is computed again.
    let computed = 0;
    inChain('normalizationPoints', text, () => computed++);
    expect(computed).toBe(1);
  });
});
