import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../test/helpers/turns-model';
import { block, defineGuardrail } from '../core/define-guardrail';
import type { GuardrailEvent } from '../core/types';
import { guardTools } from './guard-tool';

// Round 26: with neither `pii()` nor `secrets()` built (this file builds
// neither: no detector hands in a judge), tool-call ids were judged by
// their shape alone, so a card number, a phone number or a GitHub token
// written as a call's id (the model writes them; a prompt-injected model
// can be told to) went whole into records and events. A minimal check in
// the core, with no detector, hides an id holding a run of 9 digits or a
// common key's start; generated ids are still shown as written.

const refuse = defineGuardrail({ name: 'refuse', check: () => block({ reason: 'no' }) });

async function shownIds(ids: string[]) {
  const events: GuardrailEvent[] = [];
  const tools = guardTools(
    {
      lookup: tool({
        inputSchema: z.object({ q: z.string() }),
        execute: async () => 'found',
      }),
    },
    { input: [refuse], onEvent: event => events.push(event) },
  );
  await generateText({
    model: turnsModel([
      {
        toolCalls: ids.map(toolCallId => ({ toolCallId, toolName: 'lookup', input: { q: 'x' } })),
      },
      { text: 'done' },
    ]),
    tools,
    stopWhen: stepCountIs(2),
    prompt: 'Look it up.',
  });
  return events.map(event => event.record.toolCallId);
}

describe('tool-call ids without pii() or secrets(): values of an id shape are hidden', () => {
  it('a card number, a phone number, a GitHub token and an AWS key id are hidden; generated ids are shown', async () => {
    expect(
      await shownIds([
        'call_abc123XYZ',
        '4111111111111111',
        'toolu_01A09q90qw90lq917835lq9',
        'ghp_Dq9Zx8Wc7Ev6Rb5Tn4Ym3Ul2Ik1Oj0Ph9Ag8',
        '1-415-555-0132',
        'AKIAIOSFODNN7EXAMPLE',
        'call-1',
      ]),
    ).toEqual([
      'call_abc123XYZ',
      '#hidden-id-1',
      'toolu_01A09q90qw90lq917835lq9',
      '#hidden-id-2',
      '#hidden-id-3',
      '#hidden-id-4',
      'call-1',
    ]);
  });

  // Round 27: what the check missed: a Stripe webhook secret, other keys of a
  // known prefix, a number of 6 to 8 digits alone, an IBAN without a run of
  // 9 digits (its mod-97 check holds; a near miss fails it and is shown).
  it('a webhook secret, a Shopify token, a short number alone and an IBAN are hidden', async () => {
    expect(
      await shownIds([
        'whsec_MfKQ9r8GKYqrTZjJ2a8b',
        'call_abc123XYZ',
        'shpat_4f9a0c1d2e3b4a5f',
        '19850412',
        '555-0132',
        'GB36WEST1234AB5678CD',
        'FR912004101005AB0013M02606',
        'GB37WEST1234AB5678CD',
        'call-12',
        'call_GB36WEST1234AB5678CD',
      ]),
    ).toEqual([
      '#hidden-id-1',
      'call_abc123XYZ',
      '#hidden-id-2',
      '#hidden-id-3',
      '#hidden-id-4',
      '#hidden-id-5',
      '#hidden-id-6',
      'GB37WEST1234AB5678CD',
      'call-12',
      '#hidden-id-7',
    ]);
  });
});
