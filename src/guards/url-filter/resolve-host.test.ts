import { generateText, isStepCount, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardContext as context, textModel } from '../../../test/helpers';
import { turnsModel } from '../../../test/helpers/turns-model';
import { GuardrailConfigError } from '../../core/errors';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { collectToolRecords } from '../../tools/collect-tool-records';
import { guardTools } from '../../tools/guard-tool';
import { type ResolveHost, urlFilter } from './url-filter';

/**
 * Round 39: `resolveHost` lets `blockPrivate` judge a name by its DNS
 * answers (a domain the sender owns pointed at 169.254.169.254 passed).
 * Every answer is judged; a lookup that throws, answers nothing or
 * outlasts the guardrail's timeout flags the name (fail closed). Records
 * name the URL by scheme and registrable domain only.
 */
function dns(answers: Record<string, unknown>) {
  const asked: string[] = [];
  const resolveHost: ResolveHost = async (host, { signal }) => {
    asked.push(host);
    expect(signal).toBeInstanceOf(AbortSignal);
    const answer = answers[host];
    if (answer instanceof Error) throw answer;
    return answer as string[];
  };
  return { asked, resolveHost };
}

const text =
  '{"url":"https://user:pw@meta.evil.io/latest/meta-data?token=s3cr3t","mirror":"http://cdn.example.com/a"}';

async function judged(answers: Record<string, unknown>, content = text) {
  const { asked, resolveHost } = dns(answers);
  const verdict = await urlFilter({ blockUserinfo: false, resolveHost }).check(
    content,
    context('tool_input'),
  );
  return { asked, info: verdict.action === 'block' ? verdict.info : verdict.action };
}

const flagged = (url: string, rule: string) => ({ urls: [{ url, rule }], count: 1 });

describe('urlFilter resolveHost', () => {
  it('flags a name with a private answer among public ones; each distinct name is looked up once', async () => {
    expect(
      await judged({
        'meta.evil.io': ['93.184.216.34', '169.254.169.254'],
        'cdn.example.com': ['93.184.216.34'],
      }),
    ).toEqual({
      asked: ['meta.evil.io', 'cdn.example.com'],
      info: flagged(
        'https://*.evil.io',
        'host "*.evil.io" resolves to 169.254.169.254: private or local',
      ),
    });
  });

  it("reads Node's lookup answers ({ address, family }), IPv6 with a zone or a mapped IPv4", async () => {
    const answers = (address: string) => ({
      'meta.evil.io': [{ address, family: 6 }],
      'cdn.example.com': ['2606:2800:220:1::1'],
    });
    expect((await judged(answers('::1'))).info).toEqual(
      flagged('https://*.evil.io', 'host "*.evil.io" resolves to [::1]: private or local'),
    );
    expect((await judged(answers('fe80::1%eth0'))).info).toEqual(
      flagged('https://*.evil.io', 'host "*.evil.io" resolves to [*]: private or local'),
    );
    expect((await judged(answers('::ffff:127.0.0.1'))).info).toEqual(
      flagged('https://*.evil.io', 'host "*.evil.io" resolves to [*]: private or local'),
    );
  });

  it('passes names whose every answer is public', async () => {
    expect(
      await judged({ 'meta.evil.io': ['93.184.216.34'], 'cdn.example.com': ['8.8.8.8'] }),
    ).toEqual({ asked: ['meta.evil.io', 'cdn.example.com'], info: 'allow' });
  });

  it.each([
    [
      'throws',
      new Error('getaddrinfo ENOTFOUND meta.evil.io/latest?token=s3cr3t'),
      'was not looked up (the lookup failed): not judged',
    ],
    ['answers nothing', [], 'was looked up to no address: not judged'],
    ['answers no array', undefined, 'was looked up to no address: not judged'],
    ['answers a name', ['evil.com'], 'was looked up to a value that is no IP address: not judged'],
    [
      'answers an address with a path',
      ['1.2.3.4/x'],
      'was looked up to a value that is no IP address: not judged',
    ],
  ])('flags a name whose lookup %s, its error not kept', async (_, answer, rule) => {
    const { info } = await judged({ 'meta.evil.io': answer, 'cdn.example.com': ['8.8.8.8'] });
    expect(info).toEqual(flagged('https://*.evil.io', `host "*.evil.io" ${rule}`));
    expect(JSON.stringify(info)).not.toMatch(/s3cr3t|token|latest|user|pw|meta/);
  });

  it('a lookup that throws synchronously fails closed too', async () => {
    const guard = urlFilter({
      resolveHost: () => {
        throw new Error('no DNS here');
      },
    });
    expect(await guard.check('https://evil.io/x', context('tool_input'))).toMatchObject({
      action: 'block',
      reason: 'https://evil.io: host "evil.io" was not looked up (the lookup failed): not judged',
    });
  });

  it('looks up no IP literal, no name another rule flagged, no name where blockPrivate is off', async () => {
    const { asked, resolveHost } = dns({});
    const guard = urlFilter({ deny: ['denied.io'], resolveHost });
    const content =
      'http://8.8.8.8/ https://denied.io/x http://127.0.0.1.nip.io/ http://[2001:db8::1]/';
    expect(await guard.check(content, context('tool_input'))).toMatchObject({
      info: {
        urls: [
          { url: 'https://denied.io', rule: 'host "denied.io" is denied by "denied.io"' },
          {
            url: 'http://*.nip.io',
            rule: 'host "*.nip.io" is a wildcard-DNS name for 127.0.0.1: private or local',
          },
        ],
        count: 2,
      },
    });
    // On output blockPrivate is off by default: nothing is looked up.
    expect(await guard.check('https://evil.io/', context('output'))).toEqual({ action: 'allow' });
    expect(asked).toEqual([]);
  });

  it('looks up 32 distinct names per text; the others are flagged unjudged', async () => {
    const { asked, resolveHost } = dns(
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`h${i}.example.com`, ['8.8.8.8']])),
    );
    const content = Array.from({ length: 34 }, (_, i) => `https://h${i}.example.com/`).join(' ');
    const verdict = await urlFilter({ resolveHost }).check(content, context('tool_input'));
    expect(asked).toHaveLength(32);
    const past = {
      url: 'https://*.example.com',
      rule: 'host "*.example.com" is past the 32 host names looked up per text: not judged',
    };
    expect(verdict).toMatchObject({ action: 'block', info: { urls: [past, past], count: 2 } });
  });

  it('a resolveHost with blockPrivate: false, or one that is no function, is a config error', () => {
    expect(() => urlFilter({ blockPrivate: false, resolveHost: async () => [] })).toThrow(
      GuardrailConfigError,
    );
    expect(() => urlFilter({ resolveHost: 'dns' as unknown as ResolveHost })).toThrow(
      GuardrailConfigError,
    );
  });

  it('generateText: a tool call to a name that resolves to the metadata service is blocked, the tool not run', async () => {
    let ran = false;
    const fetchPage = tool({
      inputSchema: z.object({ url: z.string() }),
      execute: async () => {
        ran = true;
        return 'page';
      },
    });
    const url = 'https://metadata.attacker.io/latest/meta-data/iam?token=s3cr3t';
    const call = { toolCallId: 'c1', toolName: 'fetchPage', input: { url } };
    const resolveHost = async () => ['169.254.169.254'];
    const run = await generateText({
      model: turnsModel([{ toolCalls: [call] }, { text: 'done' }]),
      tools: guardTools({ fetchPage }, { input: [urlFilter({ resolveHost })] }),
      prompt: 'Fetch it.',
      stopWhen: isStepCount(2),
    });
    expect(ran).toBe(false);
    expect(
      collectToolRecords(run.steps).map(({ status, reason, info, toolName }) => ({
        status,
        reason,
        info,
        toolName,
      })),
    ).toEqual([
      {
        status: 'blocked',
        toolName: 'fetchPage',
        reason:
          'https://*.attacker.io: host "*.attacker.io" resolves to 169.254.169.254: private or local',
        info: flagged(
          'https://*.attacker.io',
          'host "*.attacker.io" resolves to 169.254.169.254: private or local',
        ),
      },
    ]);
  });

  it('a window stream looks each name up once per call, and blocks at the private one', async () => {
    const { asked, resolveHost } = dns({
      'ok.example.com': ['93.184.216.34'],
      'meta.evil.io': ['169.254.169.254'],
    });
    const streamed = streamText({
      model: wrapLanguageModel({
        model: textModel([
          'see ',
          'https://ok.example.com/a and ',
          'more ',
          'https://meta.evil.io/x?t=1 end',
        ]),
        middleware: guardrails({
          output: [urlFilter({ blockPrivate: true, resolveHost })],
          stream: { mode: 'window' },
        }),
      }),
      prompt: 'hi',
    });
    expect(await streamed.text).toBe(
      'see https://ok.example.com/a and This content contains a link that is not allowed.',
    );
    expect((await getGuardrailOutcome(streamed))!.records.map(r => [r.status, r.reason])).toEqual([
      [
        'blocked',
        'https://*.evil.io: host "*.evil.io" resolves to 169.254.169.254: private or local',
      ],
    ]);
    // Before the call's answers were kept, ok.example.com was looked up at every window check.
    expect(asked).toEqual(['ok.example.com', 'meta.evil.io']);
  });

  it("generateText: a lookup that outlasts the guardrail's timeout fails closed", async () => {
    const result = await generateText({
      model: wrapLanguageModel({
        model: textModel('see https://evil.io/x?token=s3cr3t'),
        middleware: guardrails({
          output: [urlFilter({ blockPrivate: true, resolveHost: () => new Promise(() => {}) })],
          defaultTimeoutMs: 20,
        }),
      }),
      prompt: 'hi',
    });
    expect(result.text).toBe("Sorry, I can't help with that.");
    const records = (await getGuardrailOutcome(result))!.records;
    expect(records.map(({ guardrail, status, reason }) => ({ guardrail, status, reason }))).toEqual(
      [{ guardrail: 'url-filter', status: 'error', reason: 'timed out after 20 ms' }],
    );
  });
});
