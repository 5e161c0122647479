import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 27: a key split into string literals joined by `+` in source code
 * (`"ghp_q8Zr4Lm2" + "Xw9Tb6…"`) was never joined: the split-token reading
 * joins pieces across blanks only, so the prefix piece and the short pieces
 * reached the model (of 60 GitHub tokens cut at random into 2-4 pieces, 0
 * were covered whole). The text is now also read with the quotes and `+`
 * between literals removed.
 */
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const GITLAB = 'glpat-Xq9Lm2Zr8Wq4Tb6Yp1Kd';

describe('keys split into string literals joined by +', () => {
  it('generateText: the model receives every piece redacted; the record has the spans', async () => {
    const prompt = `const token = "${GITHUB.slice(0, 9)}" + "${GITHUB.slice(9, 22)}" + "${GITHUB.slice(22)}";`;
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), prompt);
    expect(sent).toBe('const token = "[GITHUB_TOKEN]";');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: { types: ['GITHUB_TOKEN'], spans: [{ type: 'GITHUB_TOKEN', start: 15, end: 65 }] },
      },
    ]);
  });

  it('reads literals over lines and in single quotes; other concatenations stay', () => {
    const text = `key = '${GITLAB.slice(0, 8)}' +\n    '${GITLAB.slice(8)}'`;
    expect(foundSecrets(text)).toEqual([['GITLAB_TOKEN', text.slice(7, -1)]]);
    expect(foundSecrets('const label = "Hello, " + "world" + name;')).toEqual([]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Use:\nconst t = "${GITHUB.slice(0, 6)}" +\n  "${GITHUB.slice(6)}";\nDone.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [5], [11], [1, 7, 3]],
    );
    expect(generated).toBe('Use:\nconst t = "[GITHUB_TOKEN]";\nDone.');
    for (const text of streamed) expect(text).toBe(generated);
  });
});
