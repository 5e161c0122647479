import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { alphanumerics, expectWhole, seededRun } from '../../../test/helpers/secrets-redacted';
import { turnsModel } from '../../../test/helpers/turns-model';
import { collectToolRecords } from '../../tools/collect-tool-records';
import { guardTools } from '../../tools/guard-tool';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * Round 32. A provider rule whose value has an upper bound and then a
 * token boundary (`sk-proj-` and 20 to 200 characters, then no more token
 * characters) did not match a longer token at all, so the whole key
 * reached the model; rules with a bound and no boundary (`xapp-`, Slack
 * webhooks, Yandex, `--password` and the other command-line flags) were
 * redacted up to the bound with the rest released. A URL's password past
 * 128 characters and a JWT whose header passes 500 did not match either.
 * Each is now redacted to its end, at one past the bound and at ten times it.
 */

/** `length` letters and digits from `seed`. */
const letters = (length: number, seed = 12345) => seededRun(length, alphanumerics, seed);
const upper = (length: number) => seededRun(length, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 7);
const lower = (length: number) => seededRun(length, 'abcdefghijklmnopqrstuvwxyz0123456789', 11);
const digits = (length: number) => seededRun(length, '0123456789', 13);

/** A JWT whose header is `{"alg":"HS256","typ":"JWT","kid":"<kid>"}`, base64url. */
function jwtWithKid(kid: string): string {
  const header = btoa(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid })).replace(/=+$/, '');
  return `${header}.eyJ${letters(40, 3)}.${letters(43, 5)}`;
}

/** Tokens made longer than their rule's bound by `extra` characters (`times` the bound). */
function pastBound(times: number): Array<[string, string]> {
  const past = (bound: number) => bound * times + 1;
  return [
    ['OPENAI_API_KEY', `sk-proj-${letters(past(200))}`],
    ['OPENAI_API_KEY', `sk-proj-${letters(40)}T3BlbkFJ${letters(past(200), 9)}`],
    ['OPENAI_API_KEY', `sk-${letters(past(200))}T3BlbkFJ${letters(40, 9)}`],
    ['GITLAB_TOKEN', `glpat-${letters(past(300))}.${lower(9)}`],
    ['GITLAB_TOKEN', `glagent-${letters(past(1024))}`],
    ['SLACK_TOKEN', `xoxb-${digits(10)}-${digits(12)}-${letters(past(250))}`],
    ['SLACK_TOKEN', `xoxe.xoxp-1-${upper(past(200))}`],
    ['SLACK_TOKEN', `xapp-1-A${upper(9)}-${digits(13)}-${lower(past(80))}`],
    ['SLACK_WEBHOOK', `https://hooks.slack.com/services/${letters(past(120))}`],
    ['STRIPE_KEY', `sk_live_${letters(past(247))}`],
    ['SENDGRID_API_KEY', `SG.${letters(22)}.${letters(past(50))}`],
    ['SENDGRID_API_KEY', `SG.${letters(past(24))}.${letters(43, 9)}`],
    ['DISCORD_TOKEN', `M${letters(23)}.${letters(6, 3)}.${letters(past(38), 9)}`],
    ['SQUARE_TOKEN', `sq0atp-${letters(past(60))}`],
    ['VAULT_TOKEN', `hvs.${letters(past(300))}`],
    ['FACEBOOK_ACCESS_TOKEN', `EAA${letters(past(400))}`],
    ['HASHICORP_TF_TOKEN', `${letters(14)}.atlasv1.${letters(past(70), 9)}`],
    ['YANDEX_TOKEN', `t1.${letters(past(40))}.${letters(86, 9)}`],
    ['YANDEX_TOKEN', `t1.${letters(20)}.${letters(past(86), 9)}`],
    ['AZURE_AD_CLIENT_SECRET', `abc8Q~${letters(past(34))}`],
    ['DATABRICKS_TOKEN', `dapi${seededRun(32, '0123456789abcdef', 5)}-${digits(past(3))}`],
    ['JWT', jwtWithKid(letters(past(375)))],
  ];
}

describe('a provider token longer than its rule bounds', () => {
  it('generateText: is redacted to its end at one past the bound and ten times it', async () => {
    for (const times of [1, 10]) {
      for (const [type, token] of pastBound(times)) {
        await expectWhole(type, 'key ', token, ' ok');
      }
    }
  });

  it('generateText: a URL password or a command-line value past 128 is redacted whole', async () => {
    for (const length of [129, 1280]) {
      const password = `${letters(length)}!x`;
      await expectWhole('DATABASE_URL_PASSWORD', 'postgres://app:', password, '@db:5432/app ok');
      await expectWhole('BASIC_AUTH_URL', 'https://app:', password, '@example.com/ ok');
      await expectWhole('CURL_USER', 'curl -u app:', password, ' https://example.com');
      await expectWhole('GENERIC_SECRET', 'run --password ', password, ' now');
      await expectWhole('GENERIC_SECRET', 'sshpass -p ', password, ' ssh host');
      await expectWhole('GENERIC_SECRET', 'mysql -u root -p', password, ' app');
    }
  });

  it('generateText: a key past its bound split after its prefix is redacted to its end', async () => {
    for (const times of [1, 10]) {
      await expectWhole('OPENAI_API_KEY', 'key ', `sk-proj- ${letters(200 * times + 100)}`, ' ok');
      await expectWhole('SLACK_TOKEN', 'key ', `xoxb- ${letters(250 * times + 50)}`, ' ok');
    }
  });

  it('a token no longer than the bound, and a full stop after one, read as before', async () => {
    await expectWhole('OPENAI_API_KEY', 'key ', `sk-proj-${letters(200)}`, ' ok');
    await expectWhole('AZURE_AD_CLIENT_SECRET', 'key ', `abc8Q~${letters(34)}`, '. Next');
    await expectWhole('JWT', 'token ', jwtWithKid('k1'), ' ok');
  });

  // Round 33: a format of one exact length did not match a longer token at all.
  it('generateText: a token longer than its exact length is redacted to its end, typed', async () => {
    const anthropic = (kind: string) => `sk-ant-${kind}-${letters(93, 21)}AA`;
    for (const extra of [1, 37, 400]) {
      const more = letters(extra, 77);
      await expectWhole('GITHUB_TOKEN', 'key ', `ghp_${letters(36)}${more}`, ' ok');
      await expectWhole('GITLAB_TOKEN', 'key ', `glpat-${letters(20)}${more}`, ' ok');
      await expectWhole('GOOGLE_API_KEY', 'key ', `AIza${letters(35)}${more}`, ' ok');
      await expectWhole('NPM_TOKEN', 'key ', `npm_${letters(36)}${more}`, ' ok');
      await expectWhole(
        'HUGGINGFACE_TOKEN',
        'key ',
        `hf_${letters(34).replace(/\d/g, 'q')}${more.replace(/\d/g, 'z')}`,
        ' ok',
      );
      await expectWhole('ANTHROPIC_API_KEY', 'key ', `${anthropic('api03')}${more}`, ' ok');
      await expectWhole('ANTHROPIC_ADMIN_KEY', 'key ', `${anthropic('admin01')}${more}`, ' ok');
      // After a secret-named key too (before: an untyped GENERIC_SECRET).
      await expectWhole('GITHUB_TOKEN', 'token: ', `ghp_${letters(36)}${more}`, '\nuser: bob');
    }
  });

  it('a token of its exact length, and one shorter, read as before', async () => {
    await expectWhole('GITHUB_TOKEN', 'key ', `ghp_${letters(36)}`, '. Next');
    await expectWhole('GOOGLE_API_KEY', 'key ', `AIza${letters(35)}`, ' ok');
    await expectWhole('ANTHROPIC_API_KEY', 'key ', `sk-ant-api03-${letters(93, 21)}AA`, ' ok');
    expect(findSecrets(`key npm_${letters(35)}.`)).toEqual([]);
    expect(findSecrets(`key AIza${letters(34)}.`)).toEqual([]);
  });

  it('window streaming ends as generate does for a key past its bound', async () => {
    const key = `sk-proj-${letters(201)}`;
    await expectWindowAsGenerate(
      () => secrets({ action: 'redact' }),
      `Use ${key} for the call.`,
      'Use [OPENAI_API_KEY] for the call.',
      [[7], [64], [500]],
    );
  });

  it('guardTools at tool_input: the tool receives a key past its bound redacted', async () => {
    const key = `sk-proj-${letters(2001)}`;
    const received: unknown[] = [];
    const model = turnsModel([
      { toolCalls: [{ toolCallId: 'c1', toolName: 'store', input: { apiKey: key } }] },
      { text: 'Stored.' },
    ]);
    const out = await generateText({
      model,
      tools: guardTools(
        {
          store: tool({
            inputSchema: z.object({ apiKey: z.string() }),
            execute: async input => {
              received.push(input);
              return 'ok';
            },
          }),
        },
        { input: [secrets({ action: 'redact' })] },
      ),
      prompt: 'Store the key',
      stopWhen: isStepCount(2),
    });
    expect(received).toEqual([{ apiKey: '[OPENAI_API_KEY]' }]);
    expect(collectToolRecords(out.steps)).toEqual([
      expect.objectContaining({
        guardrail: 'secrets',
        kind: 'tool_input',
        status: 'modified',
        info: {
          types: ['OPENAI_API_KEY'],
          spans: [{ type: 'OPENAI_API_KEY', start: 11, end: 11 + key.length }],
        },
      }),
    ]);
  });
});
