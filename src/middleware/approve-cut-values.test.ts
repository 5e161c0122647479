import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { notShownString } from '../../test/helpers';
import { cutName } from '../../test/helpers/cut-names';
import { backUpConversation, pinningModel, searchDocs } from '../../test/helpers/tool-pins';
import { GuardrailConfigError } from '../core/errors';
import { memoryStore } from '../store/memory-store';
import { guardTools } from '../tools';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { approveToolDefinition, forgetToolDefinitionPin } from './tool-definition-pins';

/*
 * Round 26: records cut a tool name or serverId over 64 characters to 64
 * and `…`. approveToolDefinition took the record's cut scope or name and
 * approved nothing, silently: the tool stayed held. Refused now, saying
 * what to pass instead.
 */

const LONG_ID = `docs-${'s'.repeat(1_000)}`;
const SHOWN_ID = cutName(LONG_ID);
const LONG_NAME = `search_${'n'.repeat(200)}`;
const SHOWN_NAME = cutName(LONG_NAME);

const search = searchDocs;
const exfiltrate = backUpConversation;

function pinning() {
  const store = memoryStore();
  return { store, ...pinningModel(store) };
}

const SCOPE_EXPECTED =
  'the whole pin scope, "<scope>:<serverId>" with the serverId the tools were guarded with: a record\'s info.scope cuts a serverId over 64 characters to 64, "…#" and a digest, and no pin lives there';
const NAME_EXPECTED =
  'the whole tool name: a record\'s toolName cuts a name over 64 characters to 64, "…#" and a digest, and no pin lives there';

describe('approveToolDefinition refuses a scope or name as a record cuts it', () => {
  it('a cut serverId in the scope of a tool-definition-new record: refused; the whole one approves', async () => {
    const { store, model, seen } = pinning();
    await generateText({
      model,
      tools: guardTools({ search }, { serverId: LONG_ID }),
      prompt: 'a',
    });
    const held = await generateText({
      model,
      tools: guardTools({ search, exfiltrate }, { serverId: LONG_ID }),
      prompt: 'b',
    });
    const record = (await getGuardrailOutcome(held))!.records[0]!;
    const { scope, definitionHash } = record.info as { scope: string; definitionHash: string };
    expect([record.guardrail, scope, record.toolName]).toEqual([
      'tool-definition-new',
      `default:${SHOWN_ID}`,
      'exfiltrate',
    ]);

    const refused = await approveToolDefinition(store, scope, 'exfiltrate', definitionHash).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(GuardrailConfigError);
    expect((refused as GuardrailConfigError).issues).toEqual([
      {
        path: 'approveToolDefinition.scope',
        value: notShownString(scope),
        expected: SCOPE_EXPECTED,
      },
    ]);
    // The message shows the value's length only (round 39: no value given in code is quoted).
    expect((refused as Error).message).toBe(
      `Invalid guardrail configuration at approveToolDefinition.scope: expected ${SCOPE_EXPECTED}, received ${notShownString(scope)}`,
    );

    await approveToolDefinition(store, `default:${LONG_ID}`, 'exfiltrate', definitionHash);
    const passed = await generateText({
      model,
      tools: guardTools({ search, exfiltrate }, { serverId: LONG_ID }),
      prompt: 'c',
    });
    expect((await getGuardrailOutcome(passed))?.records ?? []).toEqual([]);
    expect(seen).toEqual([['search'], ['search'], ['search', 'exfiltrate']]);
  });

  it('a cut tool name of a tool-definition-changed record: refused; the whole one approves', async () => {
    const { store, model, seen } = pinning();
    await generateText({ model, tools: { [LONG_NAME]: search }, prompt: 'a' });
    const changed = await generateText({ model, tools: { [LONG_NAME]: exfiltrate }, prompt: 'b' });
    const record = (await getGuardrailOutcome(changed))!.records[0]!;
    const { scope, definitionHash } = record.info as { scope: string; definitionHash: string };
    expect([record.guardrail, scope, record.toolName]).toEqual([
      'tool-definition-changed',
      'default',
      SHOWN_NAME,
    ]);

    const refused = await approveToolDefinition(
      store,
      scope,
      record.toolName!,
      definitionHash,
    ).catch((error: unknown) => error);
    expect((refused as GuardrailConfigError).issues).toEqual([
      {
        path: 'approveToolDefinition.name',
        value: notShownString(SHOWN_NAME),
        expected: NAME_EXPECTED,
      },
    ]);

    await approveToolDefinition(store, scope, LONG_NAME, definitionHash);
    const passed = await generateText({ model, tools: { [LONG_NAME]: exfiltrate }, prompt: 'c' });
    expect((await getGuardrailOutcome(passed))?.records ?? []).toEqual([]);
    expect(seen).toEqual([[LONG_NAME], [], [LONG_NAME]]);
  });

  it('a name cut before half of a surrogate pair (63 characters and …) is refused too', async () => {
    const name = `${'t'.repeat(63)}😀${'u'.repeat(10)}`;
    const shown = cutName(name, 63);
    const refused = await approveToolDefinition(
      memoryStore(),
      'default',
      shown,
      'a'.repeat(64),
    ).catch((error: unknown) => error);
    expect((refused as GuardrailConfigError).issues).toEqual([
      { path: 'approveToolDefinition.name', value: notShownString(shown), expected: NAME_EXPECTED },
    ]);
    await expect(
      approveToolDefinition(memoryStore(), 'default', name, 'a'.repeat(64)),
    ).resolves.toBe(undefined);
  });

  it('forgetToolDefinitionPin refuses a cut name and scope the same way', async () => {
    const refused = await forgetToolDefinitionPin(
      memoryStore(),
      `default:${SHOWN_ID}`,
      SHOWN_NAME,
    ).catch((error: unknown) => error);
    expect((refused as GuardrailConfigError).issues).toEqual([
      {
        path: 'forgetToolDefinitionPin.scope',
        value: notShownString(`default:${SHOWN_ID}`),
        expected: SCOPE_EXPECTED,
      },
      {
        path: 'forgetToolDefinitionPin.name',
        value: notShownString(SHOWN_NAME),
        expected: NAME_EXPECTED,
      },
    ]);
  });
});
