import { describe, expect, it } from 'vitest';
import { configErrorOf } from '../../test/helpers';
import {
  contentFilter,
  defineGuardrail,
  guardrails,
  guardTools,
  llmJudge,
  pii,
  secrets,
  tokenBudget,
  urlFilter,
} from '../index';
import { redisStore } from '../redis';

/*
 * Round 39: a factory called in code echoed what it was given in its
 * GuardrailConfigError (message, issues, JSON): `pii({ pasword: 'hunter2' })`
 * said `received "hunter2"`. An app that builds options from user or
 * environment data logs these errors. Every factory now follows the config
 * loader's rule: a value is shown as its type and length; the option names and
 * the choices of an enum are listed; a number out of its range is quoted.
 */

const SECRET = 'hunter2';
const PII_KEYS =
  'action, entities, custom, defaultRegion, phoneRegions, obfuscatedEmails, placeholder, store, conversationId, ttlMs, toolRestore, message, name';
const URL_KEYS =
  'allow, deny, schemes, blockUserinfo, allowSubdomains, blockPrivate, resolveHost, blockHomographs, action, replacement, message, name';
const TOOLS_KEYS =
  'input, output, onTrip, blockedMessage, onEvent, context, stopOnTrip, serverId, serverGroup, unreadableFiles, historyApprovals, only';

const aTool = { inputSchema: undefined, execute: async () => 'ok' };
const throwingGetter = Object.defineProperty({}, 'action', {
  enumerable: true,
  get() {
    throw new Error(`token ${SECRET}`);
  },
});

describe('a factory quotes no value it was given, only its type and length', () => {
  it.each<[string, () => unknown, string]>([
    [
      'pii: a secret under a misspelt key',
      () => pii({ pasword: SECRET } as never),
      `Invalid guardrail configuration at pii.pasword: expected no such option (known: ${PII_KEYS}), received a string of 7 characters (not shown)`,
    ],
    [
      'secrets: a value outside the enum',
      () => secrets({ action: SECRET } as never),
      "Invalid guardrail configuration at secrets.action: expected 'block' or 'redact', received a string of 7 characters (not shown)",
    ],
    [
      'contentFilter: a string for a list',
      () => contentFilter({ blocklist: SECRET } as never),
      'Invalid guardrail configuration at content-filter.blocklist: expected an array of strings (wrap a single value in [ ]), received a string of 7 characters (not shown)',
    ],
    [
      'urlFilter: a key under a misspelt name, a number of the wrong type',
      () => urlFilter({ allow: 42, tokn: 'sk-abcdefghijklmnopqrstuv' } as never),
      `Invalid guardrail configuration (2 problems):\n- url-filter.tokn: expected no such option (known: ${URL_KEYS}), received a string of 25 characters (not shown)\n- url-filter.allow: expected an array of host patterns, received a number (not shown)`,
    ],
    [
      'llmJudge: a number for the template',
      () => llmJudge({ model: SECRET, policy: 'p', template: 42 } as never),
      'Invalid guardrail configuration at llm-judge.template: expected a template string or a function, received a number (not shown)',
    ],
    [
      'guardrails: a nested object and a wrong enum',
      () => guardrails({ stream: { mode: SECRET, extra: { password: SECRET } } } as never),
      "Invalid guardrail configuration (2 problems):\n- stream.extra: expected no such option (known: mode, window), received an object (not shown)\n- stream.mode: expected 'hold', 'window' or 'passthrough', received a string of 7 characters (not shown)",
    ],
    [
      'guardTools: a secret under a misspelt key, an array',
      () => guardTools({ t: aTool } as never, { pasword: [SECRET] } as never),
      `Invalid guardrail configuration at pasword: expected no such option (known: ${TOOLS_KEYS}), received an array of 1 item(s) (not shown)`,
    ],
    [
      'redisStore: an array for a string, a client without eval',
      () => redisStore({} as never, { prefix: [SECRET] } as never),
      'Invalid guardrail configuration (2 problems):\n- redisStore.client: expected a node-redis (v4+) client, an ioredis client or an @upstash/redis client (with eval and evalsha), received (object without eval and evalsha)\n- redisStore.prefix: expected a string, received an array of 1 item(s) (not shown)',
    ],
    [
      'pii: a string for the options',
      () => pii(SECRET as never),
      'Invalid guardrail configuration at pii: expected an options object, or nothing for the defaults, received a string of 7 characters (not shown)',
    ],
    [
      'pii: a getter that throws (the error was rethrown raw, its message and all)',
      () => pii(throwingGetter as never),
      'Invalid guardrail configuration at pii.action: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)',
    ],
    [
      'defineGuardrail: a name that is blank',
      () => defineGuardrail({ name: ' ', check: () => ({ action: 'allow' }) } as never),
      'Invalid guardrail configuration at name: expected a non-empty string, received a string of 1 character (not shown)',
    ],
    [
      'tokenBudget: a number out of range is quoted',
      () => tokenBudget({ maxInputTokens: -3 }),
      'Invalid guardrail configuration at token-budget.maxInputTokens: expected a positive integer, received -3',
    ],
  ])('%s', (_slip, build, message) => {
    const error = configErrorOf(build);
    expect(error.message).toBe(message);
    const shown = JSON.stringify(error);
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain('sk-');
  });

  it('error.issues holds what the message shows, never the value', () => {
    expect(
      JSON.parse(JSON.stringify(configErrorOf(() => secrets({ action: SECRET } as never)).issues)),
    ).toEqual([
      {
        path: 'secrets.action',
        value: 'a string of 7 characters (not shown)',
        expected: "'block' or 'redact'",
      },
    ]);
  });

  it('a key over 64 characters is cut in the path, as the loader cuts it', () => {
    const key = 'x'.repeat(100);
    expect(configErrorOf(() => pii({ [key]: 1 } as never)).issues[0]!.path).toBe(
      `pii.${'x'.repeat(16)}… (100 characters)`,
    );
  });
});
