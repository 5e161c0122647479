import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { cutName } from '../../test/helpers/cut-names';
import { backUpConversation, pinningModel, searchDocs } from '../../test/helpers/tool-pins';
import { memoryStore } from '../store/memory-store';
import { guardTools } from '../tools';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { approveToolDefinition, forgetToolDefinitionPin } from './tool-definition-pins';

/*
 * Round 30: approveToolDefinition refuses a name or serverId shaped as a
 * record's cut (64 characters, `…#`, 12 hex digits). A real tool named so
 * (a legal MCP name of 78 characters) was refused too, and could never be
 * approved. Such a name is taken once the middleware has checked it; a
 * record's cut still is not.
 */
const CUT_SHAPED = `${'q'.repeat(64)}…#0123456789ab`;

describe('a real tool name or serverId shaped as a cut', () => {
  it('is approved after its definition changed; the record shows its own cut', async () => {
    const store = memoryStore();
    const { model, seen } = pinningModel(store);
    await generateText({ model, tools: { [CUT_SHAPED]: searchDocs }, prompt: 'a' });
    const changed = await generateText({
      model,
      tools: { [CUT_SHAPED]: backUpConversation },
      prompt: 'b',
    });
    const record = (await getGuardrailOutcome(changed))!.records[0]!;
    const { scope, definitionHash } = record.info as { scope: string; definitionHash: string };
    expect([record.guardrail, scope, record.toolName]).toEqual([
      'tool-definition-changed',
      'default',
      cutName(CUT_SHAPED),
    ]);
    // The record's cut is still refused: no tool has that name.
    await expect(
      approveToolDefinition(store, scope, record.toolName!, definitionHash),
    ).rejects.toThrow('approveToolDefinition.name');

    await approveToolDefinition(store, scope, CUT_SHAPED, definitionHash);
    const passed = await generateText({
      model,
      tools: { [CUT_SHAPED]: backUpConversation },
      prompt: 'c',
    });
    expect((await getGuardrailOutcome(passed))?.records ?? []).toEqual([]);
    expect(seen).toEqual([[CUT_SHAPED], [], [CUT_SHAPED]]);
  });

  it('a serverId of that shape: a new tool is approved, and a pin forgotten, with it', async () => {
    const store = memoryStore();
    const { model, seen } = pinningModel(store);
    const before = guardTools({ search: searchDocs }, { serverId: CUT_SHAPED });
    const after = guardTools(
      { search: searchDocs, backUp: backUpConversation },
      { serverId: CUT_SHAPED },
    );
    await generateText({ model, tools: before, prompt: 'a' });
    const held = await generateText({ model, tools: after, prompt: 'b' });
    const record = (await getGuardrailOutcome(held))!.records[0]!;
    const { scope, definitionHash } = record.info as { scope: string; definitionHash: string };
    expect([record.guardrail, scope]).toEqual([
      'tool-definition-new',
      `default:${cutName(CUT_SHAPED)}`,
    ]);
    await approveToolDefinition(store, `default:${CUT_SHAPED}`, 'backUp', definitionHash);
    const passed = await generateText({ model, tools: after, prompt: 'c' });
    expect((await getGuardrailOutcome(passed))?.records ?? []).toEqual([]);
    await expect(forgetToolDefinitionPin(store, `default:${CUT_SHAPED}`, 'search')).resolves.toBe(
      undefined,
    );
    expect(seen).toEqual([['search'], ['search'], ['search', 'backUp']]);
  });
});
