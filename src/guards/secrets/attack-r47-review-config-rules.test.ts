import { describe, expect, it } from 'vitest';
import { findSecrets } from './find-secrets';

/** Each finding as `TYPE:value`. */
const found = (text: string) =>
  findSecrets(text).map(span => `${span.type}:${text.slice(span.start, span.end)}`);

/*
 * Round 47 review (hJ) of hI's config rules (issue 17). Benign config text
 * that the new rules reported; none was reported on cab602fa. Fixed by the
 * lead: under a key named `auth` a value of short words joined by `-` is a
 * method's name (`isMethodName` in provider-rules.ts; the trade-off: a
 * password written that way under `REDIS_AUTH` is not reported either), and
 * WordPress's sample phrase joined the documented placeholder list (so
 * `password = "put your unique phrase here"` is quiet too, as it was not on
 * cab602fa).
 */
describe("round 47 review: hI's config rules on benign config", () => {
  // `auth` names a method far more often than a secret (`auth: basic` is
  // already kept quiet by hI's tests; these are the same kind of value).
  it('an auth method or mechanism name under `auth` is no secret', () => {
    expect(found('auth: jwt-v2')).toEqual([]);
    expect(found('auth: oauth2-proxy')).toEqual([]);
    expect(found('auth=SCRAM-SHA-256')).toEqual([]);
  });

  // wp-config-sample.php's own placeholder, pasted as is into many a question.
  it("WordPress's sample placeholder in define('AUTH_KEY', …) is no secret", () => {
    expect(found("define('AUTH_KEY', 'put your unique phrase here');")).toEqual([]);
    expect(found("define( 'SECURE_AUTH_SALT',  'put your unique phrase here' );")).toEqual([]);
    expect(found('password = "put your unique phrase here"')).toEqual([]);
  });

  // The trade-off of `isMethodName`: short words joined by `-` under `auth`.
  it('reads short words joined by `-` under auth as a method, even as a password', () => {
    expect(found('REDIS_AUTH=my-redis-pass-2024')).toEqual([]);
  });

  it('still reports a real-looking value under auth and in define', () => {
    expect(found('REDIS_AUTH=Zq8vR2mXkP4wLs9T')).toEqual(['GENERIC_SECRET:Zq8vR2mXkP4wLs9T']);
    expect(found('auth: 550e8400-e29b-41d4-a716-446655440000')).toEqual([
      'GENERIC_SECRET:550e8400-e29b-41d4-a716-446655440000',
    ]);
    expect(found("define('AUTH_KEY', 'x+J|S!e>6Y;o h?3Lk9-p2');")).toEqual([
      'GENERIC_SECRET:x+J|S!e>6Y;o h?3Lk9-p2',
    ]);
    expect(found("define('DB_PASSWORD', 'Zq8vR2mXkP4wLs9T');")).toEqual([
      'GENERIC_SECRET:Zq8vR2mXkP4wLs9T',
    ]);
  });
});
