import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { pii } from '../guards/pii/pii';
import { urlFilter } from '../guards/url-filter/url-filter';
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

  it('built-ins derive their fingerprint from their options', () => {
    expect(pii({ action: 'redact' }).fingerprint).toBe(pii({ action: 'redact' }).fingerprint);
    expect(pii({ action: 'redact' }).fingerprint).not.toBe(pii({ action: 'block' }).fingerprint);
    expect(urlFilter({ allow: ['a.com'] }).fingerprint).not.toBe(
      urlFilter({ allow: ['b.com'] }).fingerprint,
    );
  });
});
