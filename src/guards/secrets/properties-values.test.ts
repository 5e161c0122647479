import { describe, expect, it } from 'vitest';
import { expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { foundSecrets as found } from '../../../test/helpers/secrets-redacted';
import { secretsPotentialStart } from './potential-start';
import { secrets } from './secrets';

// Round 34: a `.properties` password with blanks inside was read to its
// first blank: `correct` was judged alone (a plain word, no secret) and the
// whole passphrase reached the model.
describe('a .properties password runs to its line end', () => {
  it.each([
    ['with = and blanks', 'db.password = correct horse battery staple\nuser=bob\n'],
    [
      'with : and an indented key',
      'x=1\n  spring.datasource.password: correct horse battery staple  \r\ny=2',
    ],
    ['with = and no blanks around it', 'ssl.key-store-password=correct horse battery staple'],
  ])('%s', (_name, text) => {
    expect(found(text)).toEqual([['GENERIC_SECRET', 'correct horse battery staple']]);
  });

  it('a value continued with \\ is read on from its line end', () => {
    expect(found('db.password = correct horse \\\n   battery staple\nx=1')).toEqual([
      ['GENERIC_SECRET', 'correct horse \\\n   battery staple'],
    ]);
  });

  it('a value of one word is read as before, a comment after it is the value', () => {
    expect(found('db.password = Tr0ub4dor&3x\n')).toEqual([['GENERIC_SECRET', 'Tr0ub4dor&3x']]);
    expect(found('db.password=hunter22 # prod')).toEqual([['GENERIC_SECRET', 'hunter22 # prod']]);
  });

  it('leaves alone message keys, naming keys, keys inside a line, and placeholders', () => {
    for (const text of [
      'password.reset.message = Your password has been reset',
      'db.password_hint = the name of my dog',
      'app.token.help = Rotate this every month',
      'Set db.password = correct horse battery staple',
      'password = correct horse battery staple',
      'db.password = change me please',
      'db.password = $' + '{DB_PASSWORD}',
    ]) {
      expect(found(text)).toEqual([]);
    }
  });

  it('window mode holds the line from its key while it is open', () => {
    const text = 'Config:\n  db.password = correct horse battery staple and more';
    const key = text.indexOf('db.password');
    for (let end = text.indexOf('correct'); end <= text.length; end++) {
      expect(secretsPotentialStart(text.slice(0, end))).toBeLessThanOrEqual(key);
    }
    expect(secretsPotentialStart(`${text}\nDone`)).toBe(text.length + 1);
  });

  it('streams as generateText redacts it', async () => {
    for (const [answer, redacted] of [
      [
        'In application.properties:\ndb.password = correct horse battery staple\nuser=bob\n',
        'In application.properties:\ndb.password = [GENERIC_SECRET]\nuser=bob\n',
      ],
      [
        'db.password = correct horse \\\n   battery staple\nx=1',
        'db.password = [GENERIC_SECRET]\nx=1',
      ],
    ]) {
      await expectWindowAsGenerate(() => secrets({ action: 'redact' }), answer!, redacted!, [
        [1],
        [7],
        [17],
        [64],
      ]);
    }
  });
});
