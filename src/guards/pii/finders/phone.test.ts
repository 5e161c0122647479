import { readFileSync } from 'node:fs';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { type CountryCode, findPhoneNumbersInText, getCountries } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../bench/fixtures';
import { cut, modelFor } from '../../../../test/helpers';
import { guardrails } from '../../../middleware/guardrails-middleware';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';
import { cannotHoldValidNumber, matcherCandidateDigits } from './phone';
import { withReusedRegExps } from './reused-regexps';

const nativeRegExp = RegExp;

const phones = (text: string) =>
  findPii(text, { entities: ['PHONE_NUMBER'] }).map(span => text.slice(span.start, span.end));

describe('phone numbers as people write them', () => {
  it.each([
    ['Phone: 467 3395', '467 3395'],
    ['call me on 9472 7916', '9472 7916'],
    ['Mobile 60-56-85-91', '60-56-85-91'],
    ['Tel. 03.93.92.16.85', '03.93.92.16.85'],
    ['phone (72) 754-186', '(72) 754-186'],
    ['Tel +41 (0)96 471 07 95', '+41 (0)96 471 07 95'],
    ['Phone 001-518-640-0854', '001-518-640-0854'],
    ['phone 345-899-3560x4587', '345-899-3560x4587'],
    ['Call +1-903-140-4508x769 now', '+1-903-140-4508x769'],
    ['fax +1-984-182-0190', '+1-984-182-0190'],
    ['my phone number is 5550 1988', '5550 1988'],
    ['Handy: 0171 2345 678', '0171 2345 678'],
    ['Téléphone : 06 12 34 56 78', '06 12 34 56 78'],
    ['llámame al 612 34 56 78', '612 34 56 78'],
    ['WhatsApp: 4471 2290', '4471 2290'],
    ['Tel:4673395', '4673395'],
  ])('finds %j', (text, phone) => {
    expect(phones(text)).toEqual([phone]);
  });

  it('keeps an extension with a number that validates strictly', () => {
    expect(phones('Desk: +1 415 555 0132 ext. 204.')).toEqual(['+1 415 555 0132 ext. 204']);
  });

  it('needs the context word before the number, not after it', () => {
    // Window-mode streaming treats a number as final once it can no longer grow.
    expect(phones('467 3395 is my phone')).toEqual([]);
    expect(phones('Room 467 3395')).toEqual([]);
    expect(phones('60-56-85-91')).toEqual([]);
  });

  it('judges each repetition of a run by the words before it (round 43)', () => {
    // The same runs, validated once per call (`phoneVerdicts`): a verdict
    // kept for a run must not carry one occurrence's context to another.
    const text =
      'Room 467 3395, Phone: 467 3395, order 467 3395, Tel:467 3395, 60-56-85-91, ' +
      'Mobile 60-56-85-91, 12-34-56-78-9, Phone 12-34-56-78-9, Tel:12-34-56-78-9';
    expect(
      findPii(text, { entities: ['PHONE_NUMBER'] }).map(({ start, end }) => [start, end]),
    ).toEqual([
      [22, 30],
      [52, 60],
      [82, 93],
    ]);
    expect(phones(text)).toEqual(['467 3395', '467 3395', '60-56-85-91']);
  });

  it('breaks the link when another word stands between the context word and the number', () => {
    expect(phones('Call us about order 5567 8891.')).toEqual([]);
    expect(phones('Phone model 4471 2290 is sold out.')).toEqual([]);
  });

  it('flags at most 5% of the look-alike set (order numbers, dates, times, prices, versions, ISBNs, tracking numbers)', () => {
    const rows: Array<{ kind: string; text: string }> = readFileSync(
      new URL('../../../../test/fixtures/phone-lookalikes.jsonl', import.meta.url),
      'utf8',
    )
      .trim()
      .split('\n')
      .map(line => JSON.parse(line));
    const flagged = rows.filter(row => phones(row.text).length > 0);
    expect(rows.length).toBeGreaterThanOrEqual(60);
    // The one flagged row is a ten-digit order number that is also a valid
    // North American number: nothing in it says which it is.
    expect(flagged.map(row => row.kind)).toEqual(['order']);
    expect(flagged.length / rows.length).toBeLessThanOrEqual(0.05);
  });

  it('leaves scientific notation alone, even right after a phone word', () => {
    expect(phones('phone: 6.022140857e23')).toEqual([]);
    expect(phones('call 1.2345678E+10 now')).toEqual([]);
    expect(phones('Tel 4.5678912E+11, fax 6.626e-34 J s')).toEqual([]);
    expect(phones('Phone: 1.4155552671e9')).toEqual([]);
  });

  it('leaves number ranges alone unless a phone word stands right before them', () => {
    expect(phones('Office budget is 1500-2000 euros per desk.')).toEqual([]);
    expect(phones('Phone prices: 1999-2499 EUR.')).toEqual([]);
    expect(phones('Call duration 1500-2000 s, staff 150000-200000')).toEqual([]);
    // Right after the word, a grouped local number and a range look the same.
    expect(phones('Phone: 1500-2000')).toEqual(['1500-2000']);
  });

  it('leaves decimal fractions alone, even after a phone word', () => {
    // libphonenumber reads `0.493012345678` as a German number and finds a
    // valid US number inside `0.3314567890`; no area code is a lone `0`.
    expect(phones('The loss was 0.493012345678 after epoch 3.')).toEqual([]);
    expect(phones('p = 0.44207946095, score 0.3314567890')).toEqual([]);
    expect(phones('{"lat": 0.7447123456, "x": 1}')).toEqual([]);
    expect(phones('phone: 0.493012345678')).toEqual([]);
    // A number with a trunk zero and dotted groups is still one.
    expect(phones('Tel. 03.93.92.16.85')).toEqual(['03.93.92.16.85']);
  });

  it('stays linear on a text full of phone words and short numbers', () => {
    const text = 'phone call tel 12 '.repeat(50_000);
    expect(phones(text)).toEqual([]);
  });
});

describe('phone numbers through the AI SDK', () => {
  const answer = 'Sure. Call me on 9472 7916 or fax +1-984-182-0190, from 9.00 - 12.30.';
  const redacted = 'Sure. Call me on [PHONE_NUMBER] or fax [PHONE_NUMBER], from 9.00 - 12.30.';

  it('redacts context-only phone numbers in generateText', async () => {
    const model = wrapLanguageModel({
      model: modelFor(answer, [answer]),
      middleware: guardrails({ output: [pii()] }),
    });
    const { text } = await generateText({ model, prompt: 'How do I reach you?' });
    expect(text).toBe(redacted);
  });

  it('redacts them in window-mode streamText, whatever the delta boundaries', async () => {
    for (const sizes of [[1], [3, 7], [64]]) {
      const model = wrapLanguageModel({
        model: modelFor(answer, cut(answer, sizes)),
        middleware: guardrails({ output: [pii()], stream: { mode: 'window' } }),
      });
      const result = streamText({ model, prompt: 'How do I reach you?' });
      expect(await result.text).toBe(redacted);
    }
  });
});

describe('phone validation with stack capture off', () => {
  // The finder turns V8's stack capture off while libphonenumber runs (its
  // rejected candidates each throw a ParseError internally). Its answers
  // must not depend on that, and the caller's setting must come back.
  const regions = ['US', 'GB', 'DE', 'FR', 'IL', 'IN', 'CA', 'BR', 'JP', 'CN'] as const;
  const runs = (() => {
    let state = 20_261_130;
    const next = () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state / 4_294_967_296;
    };
    const separators = ['', ' ', '-', '.', '/', '(', ')', '+', ' (0)'];
    const list = ['0.7447422496202984', '02/22/2022', '+41 (0)96 471 07 95', '(415) 555-2671'];
    for (let index = 0; index < 300; index++) {
      let run = next() < 0.3 ? '0' : next() < 0.2 ? '+' : '';
      const groups = 1 + Math.floor(next() * 5);
      for (let group = 0; group < groups; group++) {
        const digits = 1 + Math.floor(next() * 6);
        for (let digit = 0; digit < digits; digit++) run += String(Math.floor(next() * 10));
        if (group < groups - 1) run += separators[Math.floor(next() * separators.length)];
      }
      list.push(run);
    }
    return list;
  })();
  const answers = () =>
    runs.map(run =>
      regions
        .map(region =>
          findPhoneNumbersInText(run, { defaultCountry: region })
            .map(match => `${match.startsAt}-${match.endsAt}:${match.number.isValid()}`)
            .join(' '),
        )
        .join('|'),
    );

  it('libphonenumber gives the same matches with and without stack traces', () => {
    const limit = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 10;
      const withStacks = answers();
      Error.stackTraceLimit = 0;
      const withoutStacks = answers();
      expect(withoutStacks).toEqual(withStacks);
      // The runs reach both outcomes: some hold valid numbers, most none.
      expect(withStacks.some(answer => answer.includes(':true'))).toBe(true);
      expect(withStacks.some(answer => answer.replaceAll('|', '') === '')).toBe(true);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });

  it('libphonenumber gives the same matches with its regexes kept between calls', () => {
    const fresh = answers();
    // The first pass fills the kept regexes, the second runs on them.
    expect(withReusedRegExps(answers)).toEqual(fresh);
    expect(withReusedRegExps(answers)).toEqual(fresh);
    expect(globalThis.RegExp).toBe(nativeRegExp);
  });

  it('finds phone numbers where Error is frozen (node --frozen-intrinsics, SES lockdown)', async () => {
    // Setting Error.stackTraceLimit threw a TypeError there: pii() failed on
    // every text with seven digits in a row and the call was blocked.
    const own = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')!;
    Object.defineProperty(Error, 'stackTraceLimit', { ...own, writable: false });
    try {
      expect(phones('Call 0.7447422496202984 or (415) 555-2671')).toEqual(['(415) 555-2671']);
      const answer = 'Call me on (415) 555-2671.';
      const model = wrapLanguageModel({
        model: modelFor(answer, [answer]),
        middleware: guardrails({ output: [pii()] }),
      });
      const { text } = await generateText({ model, prompt: 'How do I reach you?' });
      expect(text).toBe('Call me on [PHONE_NUMBER].');
      expect(Error.stackTraceLimit).toBe(own.value);
    } finally {
      Object.defineProperty(Error, 'stackTraceLimit', own);
    }
  });

  it("restores the caller's stack trace limit", () => {
    const limit = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 37;
      expect(phones('Call 0.7447422496202984 or (415) 555-2671')).toEqual(['(415) 555-2671']);
      expect(Error.stackTraceLimit).toBe(37);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });
});

describe('cannotHoldValidNumber (runs libphonenumber need not read)', () => {
  it('rules out runs of digits no region of the calling code validates, and only those', () => {
    expect(cannotHoldValidNumber('1998-1999', 'US')).toBe(true); // a year range
    expect(cannotHoldValidNumber('1163400995', 'US')).toBe(true); // +1 numbers start with 2-9
    expect(cannotHoldValidNumber('(415) 555-2671', 'US')).toBe(false);
    expect(cannotHoldValidNumber('310-1234', 'US')).toBe(false); // a 7-digit Canadian UAN number
    expect(cannotHoldValidNumber('+44 1998-1999', 'US')).toBe(false); // international: any region
    expect(cannotHoldValidNumber('011 683 4002', 'US')).toBe(false); // the US access prefix
  });

  it('libphonenumber finds only valid numbers (the finder does not ask `isValid()` again)', () => {
    // Its default leniency, `VALID`, keeps a match only when `isValid()` holds.
    const next = seededRandom(29);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const regions: CountryCode[] = getCountries();
    const separators = [' ', '-', '.', '(', ')', '/', ' - ', '', '', ''];
    let found = 0;
    for (let sample = 0; sample < 3_000; sample++) {
      const region =
        sample % 2 === 0 ? pick(['US', 'GB', 'DE', 'FR', 'IN', 'CA'] as const) : pick(regions);
      let run = pick(['', '', '', '+', '+1 ', '+44 ', '00', '011 ', '(']);
      const digits = 6 + Math.floor(next() * 10);
      for (let digit = 0; digit < digits; digit++) {
        run += String(Math.floor(next() * 10));
        if (next() < 0.25) run += pick(separators);
      }
      for (const match of findPhoneNumbersInText(run, { defaultCountry: region })) {
        found++;
        expect([region, run, match.number.isValid()]).toEqual([region, run, true]);
      }
    }
    expect(found).toBeGreaterThan(300);
  });

  it("follows libphonenumber's matcher: slash dates skipped, each candidate parsed whole", () => {
    // The matcher skips a candidate holding a slash date, inner ones too.
    expect(matcherCandidateDigits('02/22/2022')).toEqual([]);
    for (const region of ['US', 'DE', 'BR', 'JP']) {
      expect([region, cannotHoldValidNumber('02/22/2022', region)]).toEqual([region, true]);
    }
    // The whole run, the text before the first space and each group after
    // one: `3101010` (a Canadian UAN number) is in the digits, but no
    // candidate ends with it.
    expect(matcherCandidateDigits('3   10   10   10   10')).toEqual([
      '310101010',
      '3',
      '10',
      '10',
      '10',
      '10',
    ]);
    expect(cannotHoldValidNumber('3   10   10   10   10', 'US')).toBe(true);
    expect(cannotHoldValidNumber('3101010 10', 'US')).toBe(false);
    // Parsing takes off only the calling code and a national prefix: of
    // `1506816000000` (a timestamp) the national number is 13 or 12
    // digits, never its last ten (`6816000000`, a valid +1 number).
    expect(cannotHoldValidNumber('1506816000000', 'US')).toBe(true);
    expect(cannotHoldValidNumber('16816000000', 'US')).toBe(false);
    expect(cannotHoldValidNumber('6816000000', 'US')).toBe(false);
    // Shapes it does not follow: five separators in a row, other characters.
    expect(matcherCandidateDigits('3     10   10   10   10')).toBeUndefined();
    expect(matcherCandidateDigits('+1 415 555 2671')).toBeUndefined();
    expect(matcherCandidateDigits('-415 555 2671')).toBeUndefined();
  });

  it('rules out, from the candidates, only runs in which libphonenumber finds nothing', () => {
    const next = seededRandom(34);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const regions: CountryCode[] = getCountries();
    const separators = [' ', '  ', '   ', '-', '.', '(', ')', '/', ' - ', '. ', ') ', '', '', ''];
    let ruledOut = 0;
    for (let sample = 0; sample < 3_000; sample++) {
      const region =
        sample % 2 === 0 ? pick(['US', 'GB', 'DE', 'BR', 'JP', 'CA'] as const) : pick(regions);
      let run: string;
      if (sample % 4 === 0) {
        const part = () => String(Math.floor(next() * 40));
        run = `${part()}/${part()}/${pick(['2022', '1999', '05', '7'])}`;
        if (next() < 0.4) run += `${pick([' ', '-', '/'])}${Math.floor(next() * 1e6)}`;
      } else {
        run = next() < 0.15 ? '(' : '';
        const digits = 7 + Math.floor(next() * 10);
        for (let digit = 0; digit < digits; digit++) {
          run += String(Math.floor(next() * 10));
          if (next() < 0.35) run += pick(separators);
        }
      }
      if (!cannotHoldValidNumber(run, region) || matcherCandidateDigits(run) === undefined)
        continue;
      ruledOut++;
      expect([region, run, findPhoneNumbersInText(run, { defaultCountry: region })]).toEqual([
        region,
        run,
        [],
      ]);
    }
    expect(ruledOut).toBeGreaterThan(1_000);
  });

  it('never rules out a run in which libphonenumber finds a valid number, in any region', () => {
    const next = seededRandom(16);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const regions: CountryCode[] = getCountries();
    const separators = [' ', '-', '.', '(', ')', '/', ' - ', '', '', ''];
    let ruledOut = 0;
    for (let sample = 0; sample < 4_000; sample++) {
      const region =
        sample % 2 === 0 ? pick(['US', 'GB', 'DE', 'FR', 'IN', 'CA'] as const) : pick(regions);
      let run = next() < 0.2 ? '(' : '';
      const digits = 6 + Math.floor(next() * 10);
      for (let digit = 0; digit < digits; digit++) {
        run += String(Math.floor(next() * 10));
        if (next() < 0.25) run += pick(separators);
      }
      if (!cannotHoldValidNumber(run, region)) continue;
      ruledOut++;
      const valid = findPhoneNumbersInText(run, { defaultCountry: region }).filter(match =>
        match.number.isValid(),
      );
      expect([region, run, valid.length]).toEqual([region, run, 0]);
    }
    expect(ruledOut).toBeGreaterThan(1_000);
  });
});
