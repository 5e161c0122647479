import { describe, expect, it } from 'vitest';
import { findSecrets } from './find-secrets';

/** Each finding as `TYPE:value`. */
const found = (text: string) =>
  findSecrets(text).map(span => `${span.type}:${text.slice(span.start, span.end)}`);

/*
 * Round 47 review (hJ) of hI's config rules (issue 17). Benign config text
 * that the new rules report; none was reported on cab602fa. The values go
 * through `judgeSecretValue` as a secret key's would, and that judge calls
 * a word-hyphen-word with a digit (`jwt-v2`) and a phrase of plain words a
 * secret under any secret key: no small rule change fixes it without
 * changing the judge every assignment shares, so these stay open for the
 * rules' owner.
 */
describe("round 47 review: hI's config rules on benign config", () => {
  // `auth` names a method far more often than a secret (`auth: basic` is
  // already kept quiet by hI's tests; these are the same kind of value).
  it.fails('an auth method or mechanism name under `auth` is no secret', () => {
    expect(found('auth: jwt-v2')).toEqual([]);
    expect(found('auth: oauth2-proxy')).toEqual([]);
    expect(found('auth=SCRAM-SHA-256')).toEqual([]);
  });

  // wp-config-sample.php's own placeholder, pasted as is into many a question.
  it.fails("WordPress's sample placeholder in define('AUTH_KEY', …) is no secret", () => {
    expect(found("define('AUTH_KEY', 'put your unique phrase here');")).toEqual([]);
  });

  it('still reports a real-looking value under auth and in define', () => {
    expect(found('REDIS_AUTH=Zq8vR2mXkP4wLs9T')).toEqual(['GENERIC_SECRET:Zq8vR2mXkP4wLs9T']);
    expect(found("define('DB_PASSWORD', 'Zq8vR2mXkP4wLs9T');")).toEqual([
      'GENERIC_SECRET:Zq8vR2mXkP4wLs9T',
    ]);
  });
});
