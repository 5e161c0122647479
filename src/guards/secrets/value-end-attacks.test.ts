import { describe, expect, it } from 'vitest';
import { promptTextSent } from '../../../test/helpers';
import { secrets } from './secrets';

/** What the model got for `prompt` with secrets redacting input. */
const sent = (prompt: string) => promptTextSent(secrets({ action: 'redact' }), prompt);

describe('an unquoted value ends at ; , ) & # only where what follows is not more of it', () => {
  it('a value holding ; (or , ) & inside a bracket or query) glued to more of it is redacted whole', async () => {
    // Each ended at its ; , ) & or #: the part before was too short for a
    // secret (or was redacted alone) and the rest reached the model.
    expect(
      await sent(
        [
          'password=Tr0ub;4dor&3xQ9zz',
          'DB_PASSWORD=hQx;wbmTrzkv',
          'api_key=q8Zr4;Lm2Xw9Tb6Yp1Kd7',
          'secret=Zq8;Zr4Lm2Xw9Tb6Yp1Kd7Xq==',
          'f(password=abc,defgh1234)',
          '[token=Xq2,Lm9Zr8Wq4Tb]',
          '(password=Tr0ub)4dor&3xQ9',
          'https://x.io/?password=ab&cdefgh1234',
          'https://x.io/?password=ab#cdefgh1234',
        ].join('\n'),
      ),
    ).toBe(
      [
        'password=[GENERIC_SECRET]',
        'DB_PASSWORD=[GENERIC_SECRET]',
        'api_key=[GENERIC_SECRET]',
        'secret=[GENERIC_SECRET]',
        'f(password=[GENERIC_SECRET])',
        '[token=[GENERIC_SECRET]]',
        '(password=[GENERIC_SECRET]',
        'https://x.io/?password=[GENERIC_SECRET]',
        'https://x.io/?password=[GENERIC_SECRET]',
      ].join('\n'),
    );
  });

  it('still ends before the next setting, a blank, the end, or a closing bracket not glued to more', async () => {
    expect(
      await sent(
        'Password=Tr0ub4dor&3x;Database=x Server=db;Password=Q8zr4Lm2xw;User_Id=sa token=Xq2Lm9Zr8Wq4;path=/ {password: Tr0ub4dor&3x,user: bob} f(password=Tr0ub4dor&3x).then(g) ?access_token=q8Zr4Lm2Xw9T&page=2#top pwd=Tr0ub4dor&3x;',
      ),
    ).toBe(
      'Password=[GENERIC_SECRET];Database=x Server=db;Password=[GENERIC_SECRET];User_Id=sa token=[GENERIC_SECRET];path=/ {password: [GENERIC_SECRET],user: bob} f(password=[GENERIC_SECRET]).then(g) ?access_token=[GENERIC_SECRET]&page=2#top pwd=[GENERIC_SECRET];',
    );
  });
});
