import { describe, expect, it } from 'vitest';
import { findPii } from '../guards/pii/find-pii-bundled';
import { findSecrets } from '../guards/secrets/find-secrets';
import { normalizeText } from '../guards/shared/normalize-text';
import { GuardrailConfigError } from './errors';

/*
 * Round 42, an attacker's read of the caller-value rule (rounds 40-41):
 * the functions called once per text (`findPii`, `findSecrets`,
 * `normalizeText`) check an options object once (`validateOptionsOnce`)
 * and, since round 40 (54931374), keep the copy they read it into, by the
 * object's identity. A caller that reuses one options object and assigns
 * a field between calls gets the first call's options: the new field is
 * never read nor checked. Before round 40 the object itself was returned
 * and `findPii`'s plan followed its fields (round 30: "kept while its
 * fields hold what they held"). Found at 285f814f. Fixed in round 42 (hJ):
 * `validateOptionsOnce` reads the fields at each call and checks them again
 * when one changed (a list's items included).
 */

const text = 'mail jane.doe@example.com or call +44 20 7946 0958';
const key = 'token x9Kq2Lm8Vt4Rw7Yz1Bn6Cd3Fg5Hj0Pq';

describe('an options object reused across calls, a field assigned in between', () => {
  it('a fresh object per call reads each one (the baseline)', () => {
    expect(findPii(text, { entities: ['EMAIL_ADDRESS'] }).map(span => span.type)).toEqual([
      'EMAIL_ADDRESS',
    ]);
    expect(
      findPii(text, { entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER'] }).map(span => span.type),
    ).toEqual(['EMAIL_ADDRESS', 'PHONE_NUMBER']);
  });

  it('an entity pushed into the same array is found (the shared array is read)', () => {
    const options = {
      entities: ['EMAIL_ADDRESS' as const] as ('EMAIL_ADDRESS' | 'PHONE_NUMBER')[],
    };
    findPii(text, options);
    options.entities.push('PHONE_NUMBER');
    expect(findPii(text, options).map(span => span.type)).toEqual([
      'EMAIL_ADDRESS',
      'PHONE_NUMBER',
    ]);
  });

  // Fixed (found at 285f814f, since 54931374): the reassigned `entities` is never read, the phone number is released.
  it('findPii: an entity list assigned anew is read (a phone number found)', () => {
    const options: { entities: ('EMAIL_ADDRESS' | 'PHONE_NUMBER')[] } = {
      entities: ['EMAIL_ADDRESS'],
    };
    expect(findPii(text, options).map(span => span.type)).toEqual(['EMAIL_ADDRESS']);
    options.entities = ['EMAIL_ADDRESS', 'PHONE_NUMBER'];
    expect(findPii(text, options).map(span => span.type)).toEqual([
      'EMAIL_ADDRESS',
      'PHONE_NUMBER',
    ]);
  });

  // Fixed (found at 285f814f): a value assigned after the first call is never checked: a silent pass, not a GuardrailConfigError.
  it('findPii: an invalid entity list assigned after the first call is a GuardrailConfigError', () => {
    const options: { entities: unknown } = { entities: ['EMAIL_ADDRESS'] };
    findPii(text, options as never);
    options.entities = 'every one';
    expect(() => findPii(text, options as never)).toThrow(GuardrailConfigError);
  });

  it('findPii: the same invalid list given fresh is a GuardrailConfigError', () => {
    expect(() => findPii(text, { entities: 'every one' } as never)).toThrow(GuardrailConfigError);
  });

  it('findSecrets: a fresh object turning the entropy reading on finds the key', () => {
    expect(findSecrets(key, { entropy: false })).toEqual([]);
    expect(findSecrets(key, { entropy: true }).map(span => span.type)).toEqual([
      'HIGH_ENTROPY_STRING',
    ]);
  });

  // Fixed (found at 285f814f, since 54931374): `entropy` turned on in the same object is never read, the key is released.
  it('findSecrets: entropy turned on in the same object finds the key', () => {
    const options = { entropy: false };
    expect(findSecrets(key, options)).toEqual([]);
    options.entropy = true;
    expect(findSecrets(key, options).map(span => span.type)).toEqual(['HIGH_ENTROPY_STRING']);
  });

  // Fixed (found at 285f814f, since 54931374): the first call's `nfkc` is kept.
  it('normalizeText: nfkc turned off in the same object keeps full-width letters', () => {
    const options = { nfkc: true };
    expect(normalizeText('ｆｏｏ', options).text).toBe('foo');
    options.nfkc = false;
    expect(normalizeText('ｆｏｏ', options).text).toBe('ｆｏｏ');
  });

  it('findSecrets: an entropy threshold assigned out of range after the first call is a GuardrailConfigError', () => {
    const options: { entropyThreshold: number } = { entropyThreshold: 4.5 };
    expect(findSecrets(key, options).map(span => span.type)).toEqual(['HIGH_ENTROPY_STRING']);
    options.entropyThreshold = 0;
    expect(() => findSecrets(key, options)).toThrow(GuardrailConfigError);
    let thrown: unknown;
    try {
      findSecrets(key, options);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as GuardrailConfigError).issues.map(issue => issue.path)).toEqual([
      'findSecrets.entropyThreshold',
    ]);
  });

  it('findPii: an invalid entity pushed into the same array is a GuardrailConfigError', () => {
    const options = { entities: ['EMAIL_ADDRESS'] as string[] };
    findPii(text, options as never);
    options.entities.push('PHONE');
    expect(() => findPii(text, options as never)).toThrow(GuardrailConfigError);
  });

  it('normalizeText: nfkc assigned a string after the first call is a GuardrailConfigError', () => {
    const options: { nfkc: unknown } = { nfkc: false };
    expect(normalizeText('ｆｏｏ', options as never).text).toBe('ｆｏｏ');
    options.nfkc = 'yes';
    expect(() => normalizeText('ｆｏｏ', options as never)).toThrow(GuardrailConfigError);
  });

  it('a getter is read once per call, and its new answer is used', () => {
    let reads = 0;
    let nfkc = true;
    const options = {
      get nfkc() {
        reads++;
        return nfkc;
      },
    };
    expect(normalizeText('ｆｏｏ', options).text).toBe('foo');
    expect(reads).toBe(1);
    expect(normalizeText('ｆｏｏ', options).text).toBe('foo');
    expect(reads).toBe(2);
    nfkc = false;
    expect(normalizeText('ｆｏｏ', options).text).toBe('ｆｏｏ');
    expect(reads).toBe(3);
  });

  it('findPii and findSecrets read a getter once per call, short text or long (in pieces)', () => {
    const long = `${'lorem ipsum dolor sit amet '.repeat(5_000)}${text}`;
    let piiReads = 0;
    const piiOptions = {
      get entities() {
        piiReads++;
        return ['EMAIL_ADDRESS', 'PHONE_NUMBER'] as ('EMAIL_ADDRESS' | 'PHONE_NUMBER')[];
      },
    };
    expect(findPii(text, piiOptions).map(span => span.type)).toEqual([
      'EMAIL_ADDRESS',
      'PHONE_NUMBER',
    ]);
    expect(piiReads).toBe(1);
    expect(findPii(long, piiOptions).map(span => span.type)).toEqual([
      'EMAIL_ADDRESS',
      'PHONE_NUMBER',
    ]);
    expect(piiReads).toBe(2);
    let secretReads = 0;
    const secretOptions = {
      get entropy() {
        secretReads++;
        return true;
      },
    };
    expect(findSecrets(key, secretOptions).map(span => span.type)).toEqual(['HIGH_ENTROPY_STRING']);
    expect(secretReads).toBe(1);
    expect(
      findSecrets(`${'lorem ipsum dolor sit amet '.repeat(5_000)}${key}`, secretOptions).map(
        span => span.type,
      ),
    ).toEqual(['HIGH_ENTROPY_STRING']);
    expect(secretReads).toBe(2);
  });
});
