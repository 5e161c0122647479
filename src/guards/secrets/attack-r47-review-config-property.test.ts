import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { secrets } from './secrets';

/*
 * Round 47 review (hK): a seeded property test of round 47's config rules
 * (provider-rules.ts) in window mode: random `.netrc` blocks, PHP `define`,
 * key items, `htpasswd -b`, JSON arrays, `auth` keys, `docker login -p`,
 * `redis-cli -a`, with anchors near and far from their values, secret and
 * placeholder values, each streamed in random chunkings (1 to 50) and whole:
 * the streamed text must equal generateText's. Every value is made up here.
 */

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%*';
const PLACEHOLDERS = ['<password>', 'changeme', `\${DB_PASS}`, 'xxxxxxxx', '$TOKEN'];
const PROSE = ['Here is the file:', 'Done.', 'Use this config', 'ok', 'Then run it again.'];

function textOf(random: () => number): string {
  const int = (below: number) => Math.floor(random() * below);
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  const word = (length: number, chars = 'abcdefghijklmnopqrstuvwxyz') =>
    Array.from({ length: Math.max(1, length) }, () => chars[int(chars.length)]).join('');
  // Near (a few characters) or far (past the 48 characters a check keeps as context).
  const pad = () => (random() < 0.5 ? 1 + int(12) : 40 + int(260));
  const value = () =>
    random() < 0.75 ? `${word(4, 'QZXW')}${word(8 + int(20), ALPHABET)}7` : pick(PLACEHOLDERS);
  const host = () => (random() < 0.5 ? word(pad()) : word(pad()).replace(/(.{4})/g, '$1.'));
  const shapes: Array<() => string> = [
    () => `machine ${host()}.test login ${word(pad())} password ${value()}`,
    () => `machine ${host()}\n  login ${word(pad())}\n  password ${value()}\n`,
    () => `default login ${word(3)} password ${value()}`,
    () => `define('${word(pad()).toUpperCase()}_PASSWORD', '${value()}');`,
    () => `$cfg['${word(pad())}']['password'] = '${value()}';`,
    () => `os.environ["${word(pad()).toUpperCase()}_TOKEN"] = "${value()}"`,
    () =>
      `htpasswd -b${random() < 0.5 ? 'c' : ''} /etc/${word(pad())}/users ${word(pad())} ${value()}`,
    () =>
      `{"api_tokens": [${Array.from({ length: 1 + int(9) }, () => `"${random() < 0.5 ? word(pad()) : value()}"`).join(', ')}]}`,
    () => `${word(pad()).toUpperCase()}_AUTH=${value()}`,
    () =>
      `docker login ${Array.from({ length: int(6) }, () => word(pad())).join(' ')} -p ${value()} r.test`,
    () =>
      `redis-cli ${Array.from({ length: int(6) }, () => word(pad())).join(' ')} -a ${value()} ping`,
  ];
  const parts = [pick(PROSE)];
  for (let count = 1 + int(2); count > 0; count--) parts.push(pick(shapes)(), pick(PROSE));
  return parts.join(random() < 0.5 ? '\n' : ' ');
}

describe('round 47 config shapes: window stream == generate (seeded)', () => {
  it('300 texts, each in a random chunking and whole', { timeout: 600_000 }, async () => {
    const random = seededRandom(47);
    const mismatches: string[] = [];
    let redactedTexts = 0;
    for (let index = 0; index < 300; index++) {
      const text = textOf(random);
      const sizes = Array.from(
        { length: 1 + Math.floor(random() * 3) },
        () => 1 + Math.floor(random() * 50),
      );
      const { generated, streamed } = await windowAndGenerateTexts(
        secrets({ action: 'redact' }),
        text,
        [sizes, [text.length]],
      );
      if (generated !== text) redactedTexts++;
      for (const stream of streamed) {
        if (stream !== generated) mismatches.push(`#${index} [${sizes}] ${JSON.stringify(text)}`);
      }
    }
    expect(mismatches).toEqual([]);
    // The generator makes secrets most of the time: the property is not vacuous.
    expect(redactedTexts).toBeGreaterThan(200);
  });
});
