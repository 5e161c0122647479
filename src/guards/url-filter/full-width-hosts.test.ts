import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { urlFilter } from './url-filter';

/**
 * Round 23: the URL parser and address bars read full-width Latin letters
 * as the ASCII ones (`ｅｖｉｌ．ｃｏｍ` goes to evil.com), but a bare host
 * in them was no link: its suffix (`ｃｏｍ`) was looked up as written, and
 * the other-full-stop pass read ASCII labels only.
 */
async function answered(answer: string) {
  const result = await generateText({
    model: wrapLanguageModel({
      model: textModel(answer),
      middleware: guardrails({ output: [urlFilter({ allow: ['good.com'], action: 'redact' })] }),
    }),
    prompt: 'hi',
  });
  const [record] = (await getGuardrailOutcome(result))!.records;
  return { text: result.text, info: record!.info };
}

describe('urlFilter: bare hosts in full-width letters', () => {
  it('generateText: ｅｖｉｌ．ｃｏｍ, evil.ｃｏｍ and ＥＶＩＬ。ＣＯＭ are evil.com', async () => {
    expect(await answered('Go to ｅｖｉｌ．ｃｏｍ, evil.ｃｏｍ or ＥＶＩＬ。ＣＯＭ now.')).toEqual({
      text: 'Go to [link removed], [link removed] or [link removed] now.',
      info: {
        urls: [
          { url: 'http://evil.com', rule: 'host "evil.com" is not on the allow list' },
          { url: 'http://evil.com', rule: 'host "evil.com" is not on the allow list' },
          { url: 'http://evil.com', rule: 'host "evil.com" is not on the allow list' },
        ],
        count: 3,
      },
    });
  });

  it('leaves CJK sentences and full-width file names alone', async () => {
    const answer =
      '北京。中国是首都。東京．日本 ファイル．ｔｘｔ バージョン１．２．３ ｇｏｏｄ．ｃｏｍ';
    expect(await answered(answer)).toEqual({ text: answer, info: undefined });
  });
});
