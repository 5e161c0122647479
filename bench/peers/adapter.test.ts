import { describe, expect, it } from 'vitest';
import { spansFromRedaction, spansFromValues } from './adapter';

describe('spansFromRedaction', () => {
  const placeholder = /\[REDACTED-([A-Z-]+)\]/;
  const typeOf = (label: string) => (label === 'EMAIL' ? 'EMAIL_ADDRESS' : label);

  it('maps each placeholder to the original text it replaced', () => {
    const original = 'Mail a@b.co or call 555-123-4567 today';
    const redacted = 'Mail [REDACTED-EMAIL] or call [REDACTED-PHONE] today';
    expect(spansFromRedaction(original, redacted, placeholder, typeOf)).toEqual([
      { type: 'EMAIL_ADDRESS', start: 5, end: 11 },
      { type: 'PHONE', start: 20, end: 32 },
    ]);
  });

  it('handles placeholders at the start and the end of the text', () => {
    expect(
      spansFromRedaction(
        'a@b.co is mine: 10.0.0.1',
        '[REDACTED-EMAIL] is mine: [REDACTED-IP]',
        placeholder,
        typeOf,
      ),
    ).toEqual([
      { type: 'EMAIL_ADDRESS', start: 0, end: 6 },
      { type: 'IP', start: 16, end: 24 },
    ]);
  });

  it('gives adjacent placeholders one span, typed by the first', () => {
    expect(
      spansFromRedaction('x 123456789 y', 'x [REDACTED-SSN][REDACTED-MRN] y', placeholder, typeOf),
    ).toEqual([{ type: 'SSN', start: 2, end: 11 }]);
  });

  it('returns no spans when nothing was redacted', () => {
    expect(spansFromRedaction('plain text', 'plain text', placeholder, typeOf)).toEqual([]);
  });
});

describe('spansFromValues', () => {
  it('reports every occurrence of each value, once per type', () => {
    expect(
      spansFromValues('ip 1.2.3.4 and 1.2.3.4', [
        { type: 'IP_ADDRESS', value: '1.2.3.4' },
        { type: 'IP_ADDRESS', value: '1.2.3.4' },
      ]),
    ).toEqual([
      { type: 'IP_ADDRESS', start: 3, end: 10 },
      { type: 'IP_ADDRESS', start: 15, end: 22 },
    ]);
  });
});
