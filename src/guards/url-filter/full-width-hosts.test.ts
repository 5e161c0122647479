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

/**
 * Round 24: enclosed letters are ASCII ones to the URL parser too
 * (`ⓔⓥⓘⓛ.com` goes to evil.com), and a combining mark cut a bare host
 * (`e\u0301vil.com` was read as `vil.com`; the parser's host is évil.com).
 */
describe('urlFilter: bare hosts in enclosed letters or with combining marks', () => {
  it('generateText: ⓔⓥⓘⓛ.com and 🄴🅅🄸🄻.com are evil.com, e\\u0301vil.com is évil.com', async () => {
    expect(await answered('Go to ⓔⓥⓘⓛ.com, 🄴🅅🄸🄻.com or e\u0301vil.com now.')).toEqual({
      text: 'Go to [link removed], [link removed] or [link removed] now.',
      info: {
        urls: [
          { url: 'http://evil.com', rule: 'host "evil.com" is not on the allow list' },
          { url: 'http://evil.com', rule: 'host "evil.com" is not on the allow list' },
          {
            url: 'http://xn--vil-9la.com',
            rule: 'host "xn--vil-9la.com" is not on the allow list',
          },
        ],
        count: 3,
      },
    });
  });

  it('leaves decomposed Vietnamese, Hindi and enclosed list letters alone', async () => {
    const answer =
      'Tie\u0302\u0301ng Vie\u0323\u0302t ra\u0302\u0301t đe\u0323p. Xin chào. नमस्ते दुनिया.यह ठीक है। ⓐ. one ⓑ. two ⓔⓥⓘⓛ.ｔｘｔ';
    expect(await answered(answer)).toEqual({ text: answer, info: undefined });
  });
});
