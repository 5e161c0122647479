import { describe, expect, it } from 'vitest';
import { guardContext } from '../../../test/helpers';
import { runChain } from '../../core/chain';
import { GuardrailConfigError } from '../../core/errors';
import type { GuardrailKind } from '../../core/types';
import { memoryStore } from '../../store/memory-store';
import { pii } from './pii';

const context = (kind: GuardrailKind, metadata: Record<string, string> = {}) =>
  guardContext(kind, { metadata });

describe('pii', () => {
  it('checks synchronously when redacting or blocking, and asynchronously when pseudonymising', async () => {
    // A chain settles a synchronous verdict without a promise, timer or race.
    const text = 'Mail jane@example.com now.';
    const redacted = pii().check(text, context('input'));
    expect(redacted).not.toBeInstanceOf(Promise);
    expect(redacted).toEqual({
      action: 'modify',
      content: 'Mail [EMAIL_ADDRESS] now.',
      info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 5, end: 21 }] },
    });
    const blocked = pii({ action: 'block' }).check(text, context('input'));
    expect(blocked).not.toBeInstanceOf(Promise);
    expect(blocked).toMatchObject({ action: 'block', reason: 'pii: EMAIL_ADDRESS' });
    const pseudonymised = pii({ action: 'pseudonymize' }).check(text, context('input'));
    expect(pseudonymised).toBeInstanceOf(Promise);
    expect(await pseudonymised).toMatchObject({ content: 'Mail <EMAIL_ADDRESS_1> now.' });
  });

  it('redacts each value with a typed placeholder', async () => {
    const verdict = await pii().check('Mail jane@example.com, SSN 078-05-1123.', context('input'));
    expect(verdict).toEqual({
      action: 'modify',
      content: 'Mail [EMAIL_ADDRESS], SSN [US_SSN].',
      info: {
        types: ['EMAIL_ADDRESS', 'US_SSN'],
        spans: [
          { type: 'EMAIL_ADDRESS', start: 5, end: 21 },
          { type: 'US_SSN', start: 27, end: 38 },
        ],
      },
    });
  });

  it('replaces exactly the original characters, invisible ones included', async () => {
    const verdict = await pii({ placeholder: type => `<${type.toLowerCase()}>` }).check(
      'card ４０１２\u200B8888\u200B8888\u200B1881 ok',
      context('output'),
    );
    expect(verdict).toMatchObject({ action: 'modify', content: 'card <credit_card> ok' });
  });

  it('allows text without PII', async () => {
    expect(await pii().check('Order 12345 ships on 2024-05-01.', context('input'))).toEqual({
      action: 'allow',
    });
  });

  it('blocks with the entity types and never the values', async () => {
    const verdict = await pii({ action: 'block' }).check(
      'jane@example.com 078-05-1123',
      context('input'),
    );
    expect(verdict).toMatchObject({
      action: 'block',
      message: 'The text contains personal data (EMAIL_ADDRESS, US_SSN).',
      info: { types: ['EMAIL_ADDRESS', 'US_SSN'] },
    });
    expect(JSON.stringify(verdict)).not.toContain('jane');
    expect(JSON.stringify(verdict)).not.toContain('1123');
  });

  it('is stream-safe with an honest window', () => {
    const guardrail = pii();
    expect(guardrail.streamSafe).toBe(true);
    expect(guardrail.maxMatchLength).toBeGreaterThanOrEqual(800);
  });

  it('pseudonymises input and restores the originals in the output', async () => {
    const guardrail = pii({ action: 'pseudonymize' });
    const metadata = { sessionId: 'conversation-1' };
    const input = await guardrail.check(
      'I am jane@example.com, cc bob@example.org and jane@example.com.',
      context('input', metadata),
    );
    expect(input).toMatchObject({
      action: 'modify',
      content: 'I am <EMAIL_ADDRESS_1>, cc <EMAIL_ADDRESS_2> and <EMAIL_ADDRESS_1>.',
    });
    const output = await guardrail.check(
      'Sure <EMAIL_ADDRESS_1>, I wrote to <EMAIL_ADDRESS_2> (not <EMAIL_ADDRESS_9>).',
      context('output', metadata),
    );
    expect(output).toEqual({
      action: 'modify',
      content: 'Sure jane@example.com, I wrote to bob@example.org (not <EMAIL_ADDRESS_9>).',
      info: { restored: 2 },
    });
  });

  it('keeps placeholders stable across turns of one conversation and apart between conversations', async () => {
    const guardrail = pii({ action: 'pseudonymize' });
    const first = { sessionId: 'a' };
    await guardrail.check('jane@example.com', context('input', first));
    expect(
      await guardrail.check('bob@example.org, jane@example.com', context('input', first)),
    ).toMatchObject({
      content: '<EMAIL_ADDRESS_2>, <EMAIL_ADDRESS_1>',
    });
    expect(
      await guardrail.check('bob@example.org', context('input', { sessionId: 'b' })),
    ).toMatchObject({
      content: '<EMAIL_ADDRESS_1>',
    });
    expect(
      await guardrail.check('<EMAIL_ADDRESS_2>', context('output', { sessionId: 'b' })),
    ).toEqual({
      action: 'allow',
    });
  });

  it('gives concurrent turns of one conversation on two instances distinct placeholders, each restorable', async () => {
    const store = memoryStore(); // shared, as Redis is between instances
    const instanceA = pii({ action: 'pseudonymize', store });
    const instanceB = pii({ action: 'pseudonymize', store });
    const session = { sessionId: 'shared' };
    const [a, b] = await Promise.all([
      instanceA.check('ann@example.com', context('input', session)),
      instanceB.check('bob@example.org', context('input', session)),
    ]);
    const tokenA = (a as { content: string }).content;
    const tokenB = (b as { content: string }).content;
    expect(new Set([tokenA, tokenB]).size).toBe(2);
    expect([tokenA, tokenB].sort()).toEqual(['<EMAIL_ADDRESS_1>', '<EMAIL_ADDRESS_2>']);
    const restored = await instanceA.check(`${tokenA} and ${tokenB}`, context('output', session));
    expect(restored).toMatchObject({ content: 'ann@example.com and bob@example.org' });
    // The same value on both instances at once gets one placeholder.
    const [c, d] = await Promise.all([
      instanceA.check('cy@example.net', context('input', session)),
      instanceB.check('cy@example.net', context('input', session)),
    ]);
    expect((c as { content: string }).content).toBe((d as { content: string }).content);
  });

  it('round-trips within one call through the shared state when there is no conversation id', async () => {
    const guardrail = pii({ action: 'pseudonymize' });
    const ctx = context('input');
    const input = await runChain([guardrail], 'Call +1 415 555 0132', ctx);
    expect(input.content).toBe('Call <PHONE_NUMBER_1>');
    const output = await runChain([guardrail], 'Calling <PHONE_NUMBER_1> now', {
      ...ctx,
      kind: 'output',
    });
    expect(output.content).toBe('Calling +1 415 555 0132 now');
  });

  it('uses a custom conversationId function', async () => {
    const guardrail = pii({
      action: 'pseudonymize',
      conversationId: ctx => String(ctx.metadata.userId),
    });
    await guardrail.check('jane@example.com', context('input', { userId: 'u1' }));
    expect(
      await guardrail.check('<EMAIL_ADDRESS_1>', context('output', { userId: 'u1' })),
    ).toMatchObject({
      content: 'jane@example.com',
    });
  });

  it('rejects bad options at construction', () => {
    expect(() => pii({ action: 'mask' as never })).toThrow(GuardrailConfigError);
    expect(() => pii({ entities: ['NAME' as never] })).toThrow(/pii\.entities/);
  });
});
