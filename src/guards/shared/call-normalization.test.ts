import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { runChain } from '../../core/chain';
import type { Guardrail } from '../../core/types';
import { invisibleText } from '../invisible-text/invisible-text';
import { findPii } from '../pii/find-pii-bundled';
import { pii } from '../pii/pii';
import { scanSecrets } from '../secrets/find-secrets';
import { secrets } from '../secrets/secrets';
import { normalizeInCall } from './call-normalization';
import { normalizeText } from './normalize-text';
import { replaceSpans } from './spans';

// Count the normalisations the guardrails do (the real function, wrapped).
vi.mock('./normalize-text', async importOriginal => {
  const actual = await importOriginal<typeof import('./normalize-text')>();
  return { ...actual, normalizeText: vi.fn(actual.normalizeText) };
});
const normalizeCalls = () => vi.mocked(normalizeText).mock.calls.length;
// A block body: a function beforeEach returns is run as a cleanup (it would call normalizeText()).
beforeEach(() => {
  vi.mocked(normalizeText).mockClear();
});

const context = (state: Map<string, unknown> | undefined) =>
  ({ kind: 'input' as const, messages: [], metadata: {}, state }) as unknown as Parameters<
    typeof runChain
  >[2];

describe('normalizeInCall', () => {
  it('reuses the normal form once, for the same text and call only', () => {
    const text = 'notes\u00a0\u2013 call me';
    const call = new Map<string, unknown>();
    const first = normalizeInCall(text, call);
    expect(first.text).toBe('notes - call me');
    expect(normalizeInCall(text, new Map())).not.toBe(first); // another call
    expect(normalizeInCall(text, call)).toBe(first); // used, and given up
    expect(normalizeInCall(text, call)).not.toBe(first);
    expect(normalizeInCall(`${text}!`, call).text).toBe('notes - call me!');
    expect(normalizeCalls()).toBe(4);
  });

  it('reuses it for a text that normalising leaves as it is, too', () => {
    const call = new Map<string, unknown>();
    const first = normalizeInCall('plain ascii', call);
    expect(first).toMatchObject({ text: 'plain ascii', changed: false });
    expect(normalizeInCall('plain ascii', call)).toBe(first);
    expect(normalizeInCall('plain ascii', call)).not.toBe(first);
    expect(normalizeCalls()).toBe(2);
  });
});

describe('pii() + secrets() share one normalisation per text', () => {
  const chain = (): Guardrail[] => [pii(), secrets(), invisibleText()];

  it.each([
    ['changes', 'Meeting\u00a0notes \u2013 nothing personal here, see the plan.'],
    ['leaves as it is', 'Meeting notes - nothing personal here, see the plan.'],
  ])(
    'normalises a text without personal data that normalising %s once, not once per guardrail',
    async (_, text) => {
      const shared = await runChain(chain(), text, context(new Map()));
      expect(normalizeCalls()).toBe(1);
      vi.mocked(normalizeText).mockClear();
      const alone = await runChain(chain(), text, context(undefined));
      expect(normalizeCalls()).toBe(2);
      expect(shared.content).toBe(text);
      expect(shared.records.map(record => record.status)).toEqual(['passed', 'passed', 'passed']);
      expect(alone.records.map(record => record.status)).toEqual(['passed', 'passed', 'passed']);
    },
  );

  it('finds exactly what each detector finds on its own text', async () => {
    const pieces = [
      'call +44 20 7946 0958',
      'jane.doe@example.com',
      'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
      'password = "Tr0ub4dor&3xyz"',
      '\u00a0',
      '\u2013',
      '\u200b',
      '\uff14\uff11\uff11\uff11 1111 1111 1111',
      ' words ',
      '\n',
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), async parts => {
        const text = parts.join(' ');
        const { content, records } = await runChain(chain(), text, context(new Map()));
        // The same, with no sharing: each detector normalises its own input.
        const piiSpans = findPii(text);
        const redacted = replaceSpans(text, piiSpans, span => `[${span.type}]`);
        const { spans: secretSpans } = scanSecrets(redacted);
        expect(records[0]!.status).toBe(piiSpans.length > 0 ? 'modified' : 'passed');
        expect(records[1]!.status).toBe(secretSpans.length > 0 ? 'blocked' : 'passed');
        if (piiSpans.length > 0) {
          expect((records[0]!.info as { spans: unknown }).spans).toEqual(piiSpans);
        }
        if (secretSpans.length > 0) {
          expect((records[1]!.info as { spans: unknown }).spans).toEqual(secretSpans);
        } else {
          expect(content).toBe(
            (await runChain([invisibleText()], redacted, context(undefined))).content,
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
