import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/*
 * Round 46 review (hJ): the Terraform rule (provider-rules.ts, round 46)
 * matches from `variable "db_password" {` to its `default = "…"`, up to 300
 * characters of the block's other settings between. `secretsPotentialStart`
 * did not know the block: window mode released its start, and a check keeps
 * only 48 characters of released text as context, so with a long
 * `description` between, the check that saw the value no longer saw the
 * `variable` line: `generateText` redacted the password, every stream
 * released it raw.
 */

const VALUE = 'Zq8!vN3kLm2Rt7Wp';
const block = (pad: number) =>
  `variable "db_password" {\n  description = "${'a'.repeat(pad)}"\n  type = string\n  default = "${VALUE}"\n}\nok`;

describe('a Terraform variable block in window mode', () => {
  it.each([[10], [150], [250]])(
    'stream == generate, the default redacted (description of %d)',
    async pad => {
      const text = block(pad);
      const start = text.indexOf(VALUE);
      expect(findSecrets(text)).toEqual([
        { type: 'GENERIC_SECRET', start, end: start + VALUE.length },
      ]);
      const { generated, streamed } = await windowAndGenerateTexts(
        secrets({ action: 'redact' }),
        text,
        // Cut inside `variable`, inside the name, after the `{`, and whole.
        [[1], [7], [30], [1, 7, 3], [5, 4096], [13, 4096], [24, 4096], [4096]],
      );
      const redacted = text.replace(VALUE, '[GENERIC_SECRET]');
      expect(generated).toBe(redacted);
      expect(streamed).toEqual(Array(8).fill(redacted));
    },
  );
});
