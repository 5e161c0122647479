import { describe, expect, it } from 'vitest';
import { promptTextSent } from '../../../test/helpers';
import { secrets } from './secrets';

describe('a database URL with a password and no user name', () => {
  it('redis://:password@host (Redis before 6 has no user names) is redacted like user:password', async () => {
    // The rule required a user name of at least one character: the password reached the model.
    expect(
      await promptTextSent(
        secrets({ action: 'redact' }),
        'REDIS_URL=redis://:Xq9Lm2Zr8Wq4Tb@10.0.0.12:6379/0 and amqp://:Q8zr4Lm2xw@mq.internal:5672 and redis://default:Q8zr4Lm2xw@cache:6379',
      ),
    ).toBe(
      'REDIS_URL=redis://:[DATABASE_URL_PASSWORD]@10.0.0.12:6379/0 and amqp://:[DATABASE_URL_PASSWORD]@mq.internal:5672 and redis://default:[DATABASE_URL_PASSWORD]@cache:6379',
    );
  });
});
