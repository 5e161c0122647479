import { describe, expect, it } from 'vitest';
import { expectInputRedacted, expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import {
  foundSecrets as found,
  oneSecretInputRecord,
} from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 28: provider keys of hex digits after a short prefix were read as
 * nothing outside an assignment, and as a `GENERIC_SECRET` inside one:
 * Mailgun's `key-` + 32, Twilio's account SID `AC` + 32, Databricks'
 * `dapi` + 32 (and its `-2` suffix). A Stripe key longer than 107
 * characters (Stripe documents up to 255) was not a `STRIPE_KEY` either.
 */

const HEX = 'a3f9c2e17b4d58609e1f2a3b4c5d6e7f';
const MAILGUN = `key-${HEX}`;
const TWILIO_SID = `AC${HEX}`;
const DATABRICKS = `dapi${HEX}-2`;
const STRIPE = `rk_live_51HqLyjWDarjtT1zdp7dcXk9Q${'aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2uV3wX4yZ5'.repeat(3)}`;
const redact = () => secrets({ action: 'redact' });

describe('hex provider keys with a short prefix', () => {
  it('are found in prose, typed by provider', () => {
    expect(found(`use ${MAILGUN} please`)).toEqual([['MAILGUN_API_KEY', MAILGUN]]);
    expect(found(`sid ${TWILIO_SID} here`)).toEqual([['TWILIO_ACCOUNT_SID', TWILIO_SID]]);
    expect(found(`token ${DATABRICKS} here`)).toEqual([['DATABRICKS_TOKEN', DATABRICKS]]);
    expect(found(`stripe ${STRIPE} ok`)).toEqual([['STRIPE_KEY', STRIPE]]);
    // A Mailgun key of today's shape under a key naming Mailgun.
    const current = `${HEX}-0a1b2c3d-4e5f6a7b`;
    expect(found(`MAILGUN_KEY=${current}`)).toEqual([['MAILGUN_API_KEY', current]]);
  });

  it('leave words of the same letters alone', () => {
    expect(found('the key-value store and dapiDataGetTopLongShortPositionRatio')).toEqual([]);
    expect(found('ACCOUNT ACCESS ACKNOWLEDGED by the key-holder')).toEqual([]);
    // One hex digit short, or a letter past `f`: not the format.
    expect(found(`sid AC${HEX.slice(1)} and AC${HEX.slice(1)}g`)).toEqual([]);
  });

  it('generateText: the model receives each key redacted, with the record', async () => {
    for (const [key, type] of [
      [MAILGUN, 'MAILGUN_API_KEY'],
      [TWILIO_SID, 'TWILIO_ACCOUNT_SID'],
      [DATABRICKS, 'DATABRICKS_TOKEN'],
      [STRIPE, 'STRIPE_KEY'],
    ] as const) {
      await expectInputRedacted(
        redact,
        `use ${key} now`,
        `use [${type}] now`,
        oneSecretInputRecord(type, 4, key.length),
      );
    }
  });

  it('window streaming ends as generate does', async () => {
    await expectWindowAsGenerate(
      redact,
      `Keys: ${MAILGUN}, ${TWILIO_SID} and ${DATABRICKS}.`,
      'Keys: [MAILGUN_API_KEY], [TWILIO_ACCOUNT_SID] and [DATABRICKS_TOKEN].',
    );
  });
});
