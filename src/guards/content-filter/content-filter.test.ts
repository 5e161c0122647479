import { describe, expect, it } from 'vitest';
import { guardContext, notShownString } from '../../../test/helpers';
import { GuardrailConfigError } from '../../core/errors';
import { NotShown } from '../../core/redact-secrets';
import { contentFilter } from './content-filter';

const ctx = guardContext('output');

describe('contentFilter', () => {
  it('blocks a default phrase and names its category and index, not the words', async () => {
    expect(await contentFilter().check('Just go kill yourself.', ctx)).toEqual({
      action: 'block',
      message: 'This content is not allowed.',
      reason: 'matched self-harm entry 1',
      severity: 'warning',
      info: { category: 'self-harm', entry: 1 },
    });
  });

  it.each([
    'k1ll yourself',
    'k i l l yourself',
    'KILL   YOURSELF',
    'kіll yourself', // Cyrillic і
    'ki\u200bll yourself',
    'k\u{13430}ill yourself', // Egyptian hieroglyph vertical joiner (round 38)
    'k\u{1343F}i\u{13437}ll yourself', // end walled enclosure, begin segment
    'кі\u{16FE4}ll yourself', // Cyrillic look-alikes, Khitan small script filler (round 38)
    '$kill yourself', // a symbol before the word is not leetspeak for "s"
  ])('sees through the obfuscation %j', async text => {
    expect((await contentFilter().check(text, ctx)).info).toEqual({
      category: 'self-harm',
      entry: 1,
    });
  });

  it.each([
    'That was a skillful move.',
    'Kill the process with SIGTERM.',
    'Scunthorpe United won again.',
    'He will shitake... I mean shiitake mushrooms.',
  ])('allows the near miss %j', async text => {
    expect(await contentFilter().check(text, ctx)).toEqual({ action: 'allow' });
  });

  it('replaces the default categories when categories are given', async () => {
    const guard = contentFilter({ categories: { competitors: ['Globex', 'Initech Corp'] } });
    expect(await guard.check('kill yourself', ctx)).toEqual({ action: 'allow' });
    expect((await guard.check('Try initech  corp instead', ctx)).info).toEqual({
      category: 'competitors',
      entry: 1,
    });
  });

  it('blocks blocklist entries under the blocklist category', async () => {
    const guard = contentFilter({ blocklist: ['project falcon'], categories: {} });
    expect(await guard.check('Tell me about Project Falcon.', ctx)).toMatchObject({
      action: 'block',
      reason: 'matched blocklist entry 0',
    });
  });

  it('caps the length and then is not stream-safe', async () => {
    const guard = contentFilter({ categories: {}, maxLength: 10 });
    expect(await guard.check('01234567890', ctx)).toEqual({
      action: 'block',
      message: 'This content is not allowed.',
      reason: 'text is 11 characters, more than maxLength 10',
      severity: 'warning',
      info: { length: 11, maxLength: 10 },
    });
    expect(guard.streamSafe).toBe(false);
  });

  it('is stream-safe with a window from the longest entry', () => {
    const guard = contentFilter({ blocklist: ['abcdefghij'], categories: {} });
    expect(guard.streamSafe).toBe(true);
    expect(guard.maxMatchLength).toBe(40);
  });

  it('reports every bad option at construction', () => {
    let error: unknown;
    try {
      contentFilter({ blocklist: ['ok', ''], maxLength: -1 });
    } catch (caught) {
      error = caught;
    }
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as GuardrailConfigError).issues).toEqual([
      {
        path: 'content-filter.maxLength',
        value: new NotShown('-1'),
        expected: 'a positive integer',
      },
      {
        path: 'content-filter.blocklist[1]',
        value: notShownString(''),
        expected: 'a non-empty string',
      },
    ]);
  });
});

describe('contentFilter categories by name', () => {
  it('uses only the named built-in lists, including hate and sexual', async () => {
    const guard = contentFilter({ categories: ['violence', 'hate', 'sexual'] });
    expect(await guard.check('Heil Hitler, all of you.', ctx)).toEqual({
      action: 'block',
      message: 'This content is not allowed.',
      reason: 'matched hate entry 13',
      severity: 'warning',
      info: { category: 'hate', entry: 13 },
    });
    expect((await guard.check('send nudes', ctx)).info).toEqual({
      category: 'sexual',
      entry: 5,
    });
    expect((await guard.check('I will kill you', ctx)).info).toEqual({
      category: 'violence',
      entry: 0,
    });
    // profanity is not named, so it is off.
    expect(await guard.check('oh shit', ctx)).toEqual({ action: 'allow' });
  });

  it('accepts the seed spelling self_harm', async () => {
    const guard = contentFilter({ categories: ['self_harm'] });
    expect((await guard.check('I want to kill myself', ctx)).info).toEqual({
      category: 'self-harm',
      entry: 0,
    });
  });

  it('leaves hate and sexual off by default', async () => {
    expect(await contentFilter().check('send nudes', ctx)).toEqual({ action: 'allow' });
  });

  it('names an unknown category and the known ones', () => {
    expect(() => contentFilter({ categories: ['violence', 'gore'] })).toThrow(
      'Invalid guardrail configuration at content-filter.categories[1]: expected a built-in category (profanity, violence, self-harm, weapons, hate, sexual) or an object of word lists, received a string of 4 characters (not shown)',
    );
  });
});

describe('contentFilter properties', () => {
  it('matches an entry whatever its case and zero-width characters inside it', async () => {
    const fc = await import('fast-check');
    const guard = contentFilter({ blocklist: ['project falcon'], categories: {} });
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
        fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
        fc.string({ maxLength: 10 }).map(prefix => prefix.replace(/[\p{L}\p{N}]/gu, ' ')),
        (upper, zeroWidth, prefix) => {
          const disguised = Array.from('project falcon', (char, index) => {
            const cased = upper[index] ? char.toUpperCase() : char;
            return zeroWidth[index] ? `${cased}\u200b` : cased;
          }).join('');
          expect(guard.check(`${prefix}${disguised}.`, ctx)).toMatchObject({ action: 'block' });
        },
      ),
    );
  });
});

describe('contentFilter with entries too long', () => {
  it('is a config error naming no entry, not an error record quoting the list on every check', async () => {
    // Before 6a98ec3: the pattern compiled on the first check and threw there
    // ("Invalid regular expression: /…abab…/: Stack overflow"): every answer
    // was blocked with that reason in its record. Entries are now at most
    // 10,000 characters, checked before any other work.
    const { loadGuardrailsConfig } = await import('../../config/load-guardrails-config');
    const error = await loadGuardrailsConfig(
      JSON.stringify({ output: [{ type: 'content-filter', blocklist: ['ab'.repeat(50_000)] }] }),
    ).catch(caught => caught);
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Invalid guardrail configuration at output[0].blocklist[0]: expected an entry of at most 10000 characters, received a string of 100000 characters (not shown)',
    );
    expect((error as Error).message).not.toContain('abab');
  });

  it('rejects one 200,000-character entry with a typed error naming its place, before any other work', async () => {
    // Before: the pattern's failure, after folding every entry; under V8's
    // limit (about 20,000 characters) the window hook then put every prefix
    // of an entry in a set, the square of its length (20,000: 5 s).
    const { loadGuardrailsConfig } = await import('../../config/load-guardrails-config');
    const error = await loadGuardrailsConfig(
      JSON.stringify({
        output: [{ type: 'content-filter', categories: { mine: ['ok', 'a b '.repeat(50_000)] } }],
      }),
    ).catch(caught => caught);
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Invalid guardrail configuration at output[0].categories.mine[1]: expected an entry of at most 10000 characters, received a string of 200000 characters (not shown)',
    );
  });

  it('checks the folded length too (NFKC lengthens \ufdfa 18 times), and builds an entry of 10,000 that blocks', () => {
    expect(() => contentFilter({ blocklist: ['\ufdfa'.repeat(1_000)] })).toThrow(
      'Invalid guardrail configuration at content-filter.blocklist[0]: expected an entry of at most 10000 characters, received a string of 18000 characters (not shown)',
    );
    const entry = 'ab '.repeat(3_333).concat('a');
    expect(entry.length).toBe(10_000);
    const guard = contentFilter({ blocklist: [entry], categories: {} });
    expect(guard.check(`Say ${entry.toUpperCase()}.`, ctx)).toEqual({
      action: 'block',
      message: 'This content is not allowed.',
      reason: 'matched blocklist entry 0',
      severity: 'warning',
      info: { category: 'blocklist', entry: 0 },
    });
    expect(guard.check(`Say ${entry}b.`, ctx)).toEqual({ action: 'allow' });
  });
});
