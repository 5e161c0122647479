import { describe, expect, it } from 'vitest';
import { allPiiEntities } from '../pii/find-pii';
import { printableRuns } from '../shared/anchored-scan';
import { findSecrets } from './find-secrets';
import { isPlaceholderRun, withoutPlaceholderRuns } from './placeholder-runs';
import { providerRunLength } from './provider-scan';
import { secretTypesFor } from './secret-types';

// Made-up values of real keys' shapes (no real credentials).
const githubKey = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const awsId = 'AKIAZ7QH3M2KX9TN4LPW';
const openAiKey = 'sk-proj-Tq7vR2mX9pLw4Z8nYd3Kc6Hb1Jf5Gs0Aa2';

const whole = (text: string) => isPlaceholderRun(text, 0, text.length);

describe('the runs of the chain’s placeholders (round 47)', () => {
  it('reads a run as placeholders only when it is nothing but the chain’s own', () => {
    for (const run of [
      '[EMAIL_ADDRESS]',
      '[PHONE_NUMBER_2]',
      '[URL_1234]',
      '[INTRA42_CLIENT_SECRET]',
      '[GITHUB_TOKEN][EMAIL_ADDRESS]',
      '[EMAIL_ADDRESS],[IP_ADDRESS];[URL_12]',
    ]) {
      expect([run, whole(run)]).toEqual([run, true]);
    }
    for (const run of [
      `[${awsId}]`,
      `[EMAIL_ADDRESS]${githubKey}`,
      `${openAiKey}[PHONE_NUMBER]`,
      '[EMAIL_ADDRESS_12345]',
      '[EMAIL_ADDRESS_]',
      '[_1]',
      '[EMAIL_ADDRES]',
      '[EMAIL_ADDRESSX]',
      '[email_address]',
      '[MY_OWN_TYPE]',
      '[EMAIL_ADDRESS',
      '[EMAIL_ADDRESS],',
      '[EMAIL_ADDRESS],,[URL]',
      '[EMAIL_ADDRESS]:[URL]',
      '[EMAIL_ADDRESS]x',
    ]) {
      expect([run, whole(run)]).toEqual([run, false]);
    }
  });

  it('knows every type the chain writes: pii’s and findSecrets’', () => {
    const types = [...allPiiEntities, ...secretTypesFor()];
    expect(types.filter(type => !whole(`[${type}]`) || !whole(`[${type}_3]`))).toEqual([]);
  });

  it('drops only the runs of placeholders, in order, and keeps the list when there are none', () => {
    const text = `see [EMAIL_ADDRESS] and [EMAIL_ADDRESS]${githubKey} or [${awsId}] [PHONE_NUMBER],[URL]`;
    const runs = printableRuns(text, providerRunLength);
    expect(Array.from(runs)).toEqual([4, 19, 24, 79, 83, 105, 106, 126]);
    expect(Array.from(withoutPlaceholderRuns(text, runs))).toEqual([24, 79, 83, 105]);
    const plain = `key ${githubKey} here`;
    const plainRuns = printableRuns(plain, providerRunLength);
    expect(withoutPlaceholderRuns(plain, plainRuns)).toBe(plainRuns);
    const flood = '[EMAIL_ADDRESS] '.repeat(2_000);
    expect(withoutPlaceholderRuns(flood, printableRuns(flood, providerRunLength)).length).toBe(0);
  });
});

describe('findSecrets beside the chain’s placeholders (round 47)', () => {
  it('finds keys glued to a placeholder, before or after it', () => {
    expect(findSecrets(`mail [EMAIL_ADDRESS]${githubKey} now`)).toEqual([
      { type: 'GITHUB_TOKEN', start: 20, end: 60 },
    ]);
    expect(findSecrets(`key ${openAiKey}[PHONE_NUMBER] ok`)).toEqual([
      { type: 'OPENAI_API_KEY', start: 4, end: 46 },
    ]);
    expect(findSecrets(`[EMAIL_ADDRESS_2]${awsId}`)).toEqual([
      { type: 'AWS_ACCESS_KEY_ID', start: 17, end: 37 },
    ]);
  });

  it('finds a key written as a placeholder of no type the chain writes', () => {
    // A skip of every `[A-Z0-9_]` run between brackets would release it.
    expect(findSecrets(`id [${awsId}] here`)).toEqual([
      { type: 'AWS_ACCESS_KEY_ID', start: 4, end: 24 },
    ]);
    expect(findSecrets(`ids [EMAIL_ADDRESS],[${awsId}] here`)).toEqual([
      { type: 'AWS_ACCESS_KEY_ID', start: 21, end: 41 },
    ]);
  });

  it('finds a key after a flood of placeholders, and nothing in the flood', () => {
    const flood = '[EMAIL_ADDRESS] [IP_ADDRESS],[URL] '.repeat(3_000);
    expect(findSecrets(flood)).toEqual([]);
    expect(findSecrets(`${flood}${githubKey}[EMAIL_ADDRESS]`)).toEqual([
      { type: 'GITHUB_TOKEN', start: flood.length, end: flood.length + 40 },
    ]);
    expect(findSecrets(`${flood}token [EMAIL_ADDRESS]${awsId} [URL]`)).toEqual([
      { type: 'AWS_ACCESS_KEY_ID', start: flood.length + 21, end: flood.length + 41 },
    ]);
  });
});
