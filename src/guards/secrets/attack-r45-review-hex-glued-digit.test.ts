import { describe, expect, it } from 'vitest';
import { foundSecrets, secretsRedacted } from '../../../test/helpers/secrets-redacted';

/*
 * Round 45 review (hJ): round 45 made every hex provider rule of one length
 * stop short of a longer hex run (`longerHexRun` in provider-rules.ts, for
 * a commit id or SHA-256 after `key-`, `SK` or `AC`:
 * attack-r45-hex-read-on-digests.test.ts). The same lookahead holds for
 * prefixes no digest is written after (`shpat_`, `dop_v1_`, `sntryu_`,
 * `sgp_`): one hex digit glued after a real key now releases the whole key,
 * which round 44 (f45bd334) found read to the token's end. A one-character
 * evasion: `shpat_<key>0`. A fix keeps the lookahead to the prefixes a
 * digest follows (`key-`, `SK`, `AC`): fixed by the lead in provider-rules.ts
 * (`digestAfterPrefix`). (For `key-`, `SK`, `AC` the same loss is round 45's
 * chosen trade-off, said in that test: not pinned here.)
 */

const HEX32 = '3f9a1c7e5b2d4086af13c9e7b5d20486';
const keys = [
  ['SHOPIFY_TOKEN', `shpat_${HEX32}`],
  ['DIGITALOCEAN_TOKEN', `dop_v1_${HEX32}${HEX32}`],
  ['SENTRY_TOKEN', `sntryu_${HEX32}${HEX32}`],
  ['SOURCEGRAPH_TOKEN', `sgp_${HEX32}01234567`],
] as const;

describe('a hex provider key of a prefix no digest follows, one hex digit glued after it', () => {
  it.each(keys)('%s alone, and with a letter glued: found (the baselines)', (type, key) => {
    expect(foundSecrets(`token ${key} ok`)).toEqual([[type, key]]);
    expect(foundSecrets(`token ${key}x ok`)).toEqual([[type, `${key}x`]]);
  });

  // Before the lead's fix (round 45's merged main): [] and the text released unchanged.
  it.each(keys)(
    '%s and a hex digit: the key read to the token end (as round 44) and hidden',
    (type, key) => {
      expect(foundSecrets(`token ${key}0 ok`)).toEqual([[type, `${key}0`]]);
      expect(secretsRedacted(`token ${key}0 ok`)).toBe(`token [${type}] ok`);
    },
  );
});
