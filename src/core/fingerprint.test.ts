import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { urlFilter } from '../guards/url-filter/url-filter';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';
import { memoryStore } from '../store/memory-store';
import { allow, block, defineGuardrail } from './define-guardrail';
import { optionsFingerprint } from './fingerprint';

describe('optionsFingerprint', () => {
  it('is the same for equal options in any key order, and differs when a value differs', () => {
    expect(optionsFingerprint({ a: 1, b: [/x/i, 'y'] })).toBe(
      optionsFingerprint({ b: [/x/i, 'y'], a: 1 }),
    );
    expect(optionsFingerprint({ a: 1 })).not.toBe(optionsFingerprint({ a: 2 }));
    expect(optionsFingerprint({ p: /x/i })).not.toBe(optionsFingerprint({ p: /x/g }));
    expect(optionsFingerprint({ a: undefined })).not.toBe(optionsFingerprint({ a: null }));
    expect(optionsFingerprint(undefined)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('keeps no option value: a hash only', () => {
    const fingerprint = optionsFingerprint({ apiKey: 'sk-live-very-secret-value' });
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint).not.toContain('secret');
  });

  it('takes a language model as provider and model id, however its state changes', async () => {
    const model = new MockLanguageModelV4({ provider: 'p', modelId: 'm' });
    const before = optionsFingerprint({ model });
    await Promise.resolve(model.doGenerate({ prompt: [] })).catch(() => {});
    expect(optionsFingerprint({ model })).toBe(before);
    expect(
      optionsFingerprint({ model: new MockLanguageModelV4({ provider: 'p', modelId: 'n' }) }),
    ).not.toBe(before);
  });

  it('accepts cycles and getters that throw', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const hostile = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(optionsFingerprint(cyclic)).toMatch(/^[0-9a-f]{16}$/);
    expect(optionsFingerprint(hostile)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('takes values that throw when read as markers: proxies, a throwing provider getter or iterator, a revoked proxy', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const throwing = () => {
      throw new Error('no');
    };
    const iterating = new Map([[1, 2]]);
    Object.defineProperty(iterating, Symbol.iterator, { value: throwing });
    const hostile = [
      new Proxy({}, { ownKeys: throwing }),
      new Proxy({}, { getPrototypeOf: throwing }),
      Object.defineProperty({}, 'provider', { get: throwing }),
      revoked.proxy,
      iterating,
    ];
    // Each was a raw Error / TypeError out of defineGuardrail({ fingerprint }).
    for (const value of hostile) {
      expect(() =>
        defineGuardrail({ name: 'x', check: () => allow(), fingerprint: value }),
      ).not.toThrow();
      expect(optionsFingerprint({ a: { b: value } })).toBe(
        optionsFingerprint({ a: { b: hostile[0] } }),
      );
    }
  });

  it('reads a sparse array by its items, not its length (new Array(1e8) ran out of heap)', () => {
    const sparse = new Array(100_000_000);
    sparse[5] = 'x';
    const other = new Array(100_000_000);
    other[6] = 'x';
    expect(optionsFingerprint({ list: sparse })).toMatch(/^[0-9a-f]{16}$/);
    expect(optionsFingerprint({ list: sparse })).not.toBe(optionsFingerprint({ list: other }));
    const holed = Object.assign(new Array(3), { 0: 1, 2: 3 });
    expect(optionsFingerprint(holed)).not.toBe(optionsFingerprint([1, undefined, 3]));
    // A dense array reads as before: by its items in order.
    expect(optionsFingerprint(['a', 'b'])).not.toBe(optionsFingerprint(['b', 'a']));
  });

  /** `{ level: { level: ... { leaf } } }`, `depth` objects deep. */
  const nested = (depth: number, leaf: unknown) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = { level: value };
    return value;
  };

  it('covers the whole value: options that differ only below depth 8 differ', () => {
    expect(optionsFingerprint(nested(12, 'a'))).not.toBe(optionsFingerprint(nested(12, 'b')));
    expect(optionsFingerprint({ rules: [nested(30, /x/)] })).not.toBe(
      optionsFingerprint({ rules: [nested(30, /y/)] }),
    );
    expect(optionsFingerprint(nested(12, 'a'))).toBe(optionsFingerprint(nested(12, 'a')));
  });

  it('takes any depth without overflowing the stack, and shared parts once (linear)', () => {
    expect(optionsFingerprint(nested(50_000, 1))).not.toBe(optionsFingerprint(nested(50_000, 2)));
    // 64 levels, each pointing twice at the next: 2^64 paths, 64 objects.
    let shared: unknown = 'leaf';
    for (let i = 0; i < 64; i++) shared = { left: shared, right: shared };
    expect(optionsFingerprint(shared)).toMatch(/^[0-9a-f]{16}$/);
    // A cycle is a marker, not an endless walk; where it closes still counts.
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const b: Record<string, unknown> = { name: 'a', self: { name: 'a' } };
    expect(optionsFingerprint(a)).not.toBe(optionsFingerprint(b));
  });

  it('two guardrails whose options differ only deep down do not share remembered verdicts', async () => {
    const store = memoryStore();
    // One name; options that differ 10 levels down: what each blocks.
    const policy = (word: string) =>
      defineGuardrail({
        name: 'policy',
        fingerprint: { rules: nested(10, word) },
        check: text => (text.includes(word) ? block({ message: 'Not that.' }) : allow()),
      });
    const run = (word: string) =>
      generateText({
        model: wrapLanguageModel({
          model: textModel('Sure.'),
          middleware: guardrails({ input: [policy(word)], store }),
        }),
        prompt: 'Tell me about refunds.',
      });
    expect((await run('invoice')).text).toBe('Sure.');
    // Judged again, not taken from the first guardrail's remembered pass.
    const second = await run('refunds');
    expect(second.text).toBe('Not that.');
    expect((await getGuardrailOutcome(second))?.cachedVerdicts).toBeUndefined();
  });

  it('keeps arrays, objects, sets and maps apart', () => {
    const forms = [['a'], { 0: 'a' }, new Set(['a']), new Map([[0, 'a']]), 'a'];
    expect(new Set(forms.map(optionsFingerprint)).size).toBe(forms.length);
  });

  it('built-ins derive their fingerprint from their options', () => {
    expect(pii({ action: 'redact' }).fingerprint).toBe(pii({ action: 'redact' }).fingerprint);
    expect(pii({ action: 'redact' }).fingerprint).not.toBe(pii({ action: 'block' }).fingerprint);
    expect(urlFilter({ allow: ['a.com'] }).fingerprint).not.toBe(
      urlFilter({ allow: ['b.com'] }).fingerprint,
    );
  });
});
