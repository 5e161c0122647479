import { beforeEach, describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { runChain } from '../../core/chain';
import { findPiiInNormalForm } from '../pii/find-pii';
import { pii } from '../pii/pii';
import { scanSecrets, scanSecretsNormalized } from '../secrets/find-secrets';
import { secrets } from '../secrets/secrets';
import { type NormalizedText, normalizeText } from './normalize-text';
import { redactedNormalForm } from './redacted-normal-form';
import { replaceSpans } from './spans';

// Count the normalisations (the real function, wrapped): the derived form must not call it.
vi.mock('./normalize-text', async importOriginal => {
  const actual = await importOriginal<typeof import('./normalize-text')>();
  return { ...actual, normalizeText: vi.fn(actual.normalizeText) };
});
const normalizeCalls = () => vi.mocked(normalizeText).mock.calls.length;
// A block body: a function beforeEach returns is run as a cleanup (it would call normalizeText()).
beforeEach(() => {
  vi.mocked(normalizeText).mockClear();
});

const values = [
  'jane.doe@example.com',
  'x@corp.io.Thanks',
  '+44 20 7946 0958',
  '(415) 555-2671',
  '4111 1111 1111 1111',
  '078-05-1120',
  'GB82 WEST 1234 5698 7654 32',
  '192.168.10.12',
  'AB 12 34 56 C',
  'Phone: 467 3395',
];
// Invisible characters, combining marks, ligatures, full-width and other
// scripts' digits, dashes, no-break spaces, lone and paired surrogates.
const noise = [
  '\u200b',
  '\u200d',
  '\u00ad',
  '\ufeff',
  '\u0301',
  '\u0308\u0301',
  '\ufb01',
  '\uff14',
  '\u0663',
  '\u2013',
  '\u2212',
  '\u00a0',
  '\u2460',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '\u{e0041}',
  'e\u0301',
  '\u00e9',
  '\u4f1a',
];
const words = ['call', 'mail', 'the', 'key', 'token=', 'password: ', '\n', ' ', ', '];

function generated(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  let text = '';
  const pieces = 1 + Math.floor(next() * 9);
  for (let piece = 0; piece < pieces; piece++) {
    let part = next() < 0.5 ? pick(values) : pick(words);
    // Noise anywhere, also inside a value (where it may cut a value's edge).
    while (next() < 0.35) {
      const at = Math.floor(next() * (part.length + 1));
      part = part.slice(0, at) + pick(noise) + part.slice(at);
    }
    text += part + (next() < 0.7 ? ' ' : '');
  }
  return text;
}

/**
 * Every offset of the two maps, and the text, must agree. Compared as one
 * string of `position: start-end` lines a form (round 34: two `expect`s a
 * position were most of the generated-texts test's 11 s under load; a
 * difference still shows its position in the diff).
 */
function expectSameForm(derived: NormalizedText, reference: NormalizedText) {
  expect(derived.text).toBe(reference.text);
  expect(derived.original).toBe(reference.original);
  const offsets = (form: NormalizedText) =>
    Array.from(
      { length: reference.text.length + 1 },
      (_, position) => `${position}: ${form.toOriginal(position)}-${form.toOriginalEnd(position)}`,
    ).join('\n');
  expect(offsets(derived)).toBe(offsets(reference));
}

describe('redactedNormalForm', () => {
  it('equals normalizeText of the redacted text, text and every offset, on generated texts', () => {
    const next = seededRandom(17);
    const placeholders = [
      (type: string) => `[${type}]`,
      (type: string) => `<${type}_1>`,
      () => '*',
      () => '', // empty: not derivable, normalised as usual
      () => '\u2013', // changed by normalising: not derivable
      () => '\u0301x', // a mark that would join the text before it: not derivable
    ];
    let derivedCount = 0;
    let redactions = 0;
    for (let round = 0; round < 1500; round++) {
      const text = generated(next);
      const normalized = normalizeText(text);
      const { spans, normalizedSpans } = findPiiInNormalForm(normalized);
      if (spans.length === 0) continue;
      redactions++;
      const placeholder = placeholders[round % placeholders.length]!;
      const replacements = spans.map(span => placeholder(span.type));
      let index = 0;
      const redacted = replaceSpans(text, spans, () => replacements[index++]!);
      vi.mocked(normalizeText).mockClear();
      const derived = redactedNormalForm(normalized, normalizedSpans, replacements, redacted);
      if (normalizeCalls() === 0) derivedCount++;
      expectSameForm(derived, normalizeText(redacted));
      // What secrets() reports on it is what it reports on the redacted text alone.
      expect(scanSecretsNormalized(derived)).toEqual(scanSecrets(redacted));
    }
    // Most redactions take the derived path (the others fall back, still exact).
    expect(redactions).toBeGreaterThan(1000);
    expect(derivedCount).toBeGreaterThan(300);
  });

  it('falls back where a span edge cuts what one character became (a ligature)', () => {
    // NFKC turns U+FB01 into `fi`; a span starting at its `i` cannot be derived.
    const text = '\ufb01 x';
    const normalized = normalizeText(text);
    expect(normalized.text).toBe('fi x');
    const redacted = '[X] x';
    const derived = redactedNormalForm(
      normalized,
      [{ type: 'X', start: 1, end: 2 }],
      ['[X]'],
      redacted,
    );
    expect(normalizeCalls()).toBe(2);
    expectSameForm(derived, normalizeText(redacted));
  });

  it('gives secrets() in the chain the normal form of the redacted text without normalising it', async () => {
    const text =
      'Mail jane@example.com\u200b \u2013 password = "Tr0ub4dor&3xyz" or call +44 20 7946 0958';
    const context = { kind: 'input' as const, messages: [], metadata: {}, state: new Map() };
    const result = await runChain([pii(), secrets({ action: 'redact' })], text, context);
    expect(result.content).toBe(
      'Mail [EMAIL_ADDRESS]\u200b \u2013 password = "[GENERIC_SECRET]" or call [PHONE_NUMBER]',
    );
    // One normalisation for the original; the redacted text's form is derived.
    expect(normalizeCalls()).toBe(1);
    const alone = scanSecrets(
      'Mail [EMAIL_ADDRESS]\u200b \u2013 password = "Tr0ub4dor&3xyz" or call [PHONE_NUMBER]',
    );
    expect(result.records[1]!.info).toEqual({
      types: ['GENERIC_SECRET'],
      spans: alone.spans,
    });
  });
});
