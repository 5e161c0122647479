import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets as found } from '../../../test/helpers/secrets-redacted';
import { scanSecrets } from './find-secrets';
import { secrets } from './secrets';

// Round 33: a `.properties` value continued with `\` ended at the `\`, and its
// continuation lines were released raw.
describe('values continued past a trailing backslash', () => {
  it('reports a .properties value to its last continuation line', () => {
    const text = 'db.password=Tr0ub4dor\\\n    &3xQ9\\\n    Lm2Zr8\nuser=bob\n';
    expect(found(text)).toEqual([['GENERIC_SECRET', 'Tr0ub4dor\\\n    &3xQ9\\\n    Lm2Zr8']]);
  });

  it('judges the value joined: a low-entropy password split over two lines', () => {
    const text =
      'spring.datasource.password=letmein\\\n  please2024\nspring.datasource.url=jdbc:x\n';
    expect(found(text)).toEqual([['GENERIC_SECRET', 'letmein\\\n  please2024']]);
    expect(found('password=letmein\\\r\n  please2024\r\nx=1')).toEqual([
      ['GENERIC_SECRET', 'letmein\\\r\n  please2024'],
    ]);
  });

  it('a key on a continuation line is part of the value', () => {
    const text = 'password=hunter2\\\n  password=hunter3\\\n  xyz\n';
    expect(found(text)).toEqual([['GENERIC_SECRET', 'hunter2\\\n  password=hunter3\\\n  xyz']]);
  });

  it('a first line of fewer than four characters, or none, is read on too', () => {
    expect(found('password=ab\\\n  Tr0ub4dor&3x\n')).toEqual([
      ['GENERIC_SECRET', 'ab\\\n  Tr0ub4dor&3x'],
    ]);
    expect(found('password=\\\n  Tr0ub4dor&3x\n')).toEqual([
      ['GENERIC_SECRET', '\\\n  Tr0ub4dor&3x'],
    ]);
    expect(found('password=ab\\\n\nx')).toEqual([]);
  });

  it('a placeholder split over lines is skipped and counted', () => {
    expect(scanSecrets('password=change\\\n  me\n')).toEqual({ spans: [], placeholdersSkipped: 1 });
  });

  it('continues only at a backslash right before the line break, up to an empty line', () => {
    expect(found('password=Tr0ub4dor\\ 3x\n')).toEqual([['GENERIC_SECRET', 'Tr0ub4dor\\']]);
    expect(found('password=Tr0ub4dor\\\n\nuser=bob')).toEqual([['GENERIC_SECRET', 'Tr0ub4dor\\']]);
    expect(found('password=Tr0ub4dor3x\nnext=line\n')).toEqual([['GENERIC_SECRET', 'Tr0ub4dor3x']]);
  });

  it('window streaming holds a continued value while more of it may come', async () => {
    // Read up to its 100 `x`, the value is a mask (a placeholder) and was released (round 33).
    const value = `Tr0ub4dor\\\n    ${'x'.repeat(100)}q1`;
    const answer = `Set db.password=${value}\nDone.`;
    const redacted = answer.replace(value, '[GENERIC_SECRET]');
    const chunkings = [[1], [7], [64]];
    expect(await windowAndGenerateTexts(secrets({ action: 'redact' }), answer, chunkings)).toEqual({
      generated: redacted,
      streamed: chunkings.map(() => redacted),
    });
  });

  it('is redacted alike in generate and in window streaming', async () => {
    // `Tr` then `0` is no secret yet: released before the rest came (round 33).
    const answer = 'In application.properties:\n\ndb.password=Tr\\\n    0ub4dor&3x\nDone.';
    const redacted = answer.replace('Tr\\\n    0ub4dor&3x', '[GENERIC_SECRET]');
    const chunkings = [[1], [7], [13, 2, 40]];
    expect(await windowAndGenerateTexts(secrets({ action: 'redact' }), answer, chunkings)).toEqual({
      generated: redacted,
      streamed: chunkings.map(() => redacted),
    });
  });
});
