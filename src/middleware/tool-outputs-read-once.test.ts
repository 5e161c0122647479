import { afterEach, describe, expect, it, vi } from 'vitest';
import { withoutTiming } from '../../test/helpers';
import { judgeOneToolOutput } from '../../test/helpers/tool-history';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { DEFAULT_MAX_TOOL_OUTPUT_LENGTH } from './tool-outputs';

/*
 * `toolOutputs` reads each tool result twice: a first pass starts the verdict
 * lookups of every text at once, the second judges. The passes share what
 * they compute (a text file's decoded text, the JSON limit walk), and a file
 * whose text cannot fit in the limit is refused from its size, undecoded.
 */

function judging() {
  const seen: string[] = [];
  const guardrail = defineGuardrail({
    name: 'seen',
    check: content => {
      seen.push(content);
      return allow();
    },
  });
  const judge = async (output: unknown) => {
    const result = await judgeOneToolOutput(guardrail, output);
    return withoutTiming(result.records);
  };
  return { judge, seen };
}

const textFile = (data: string) => ({
  type: 'content',
  value: [{ type: 'file', mediaType: 'text/plain', data: { type: 'data', data } }],
});

const tooLong = {
  guardrail: 'tool-output-unreadable',
  kind: 'tool_output',
  status: 'error',
  reason: `the result of tool "fetch" was not judged: the text is longer than ${DEFAULT_MAX_TOOL_OUTPUT_LENGTH} characters`,
  toolName: 'fetch',
  toolCallId: 'c1',
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('toolOutputs reads each value once', () => {
  it('a base64 text file is decoded once for both passes', async () => {
    const data = btoa('The report is ready.');
    const atob = vi.spyOn(globalThis, 'atob');
    const { judge, seen } = judging();
    expect(await judge(textFile(data))).toEqual([
      {
        guardrail: 'seen',
        kind: 'tool_output',
        status: 'passed',
        toolName: 'fetch',
        toolCallId: 'c1',
      },
    ]);
    expect(seen).toEqual(['The report is ready.']);
    expect(atob.mock.calls.filter(([argument]) => argument === data)).toHaveLength(1);
  });

  it('a base64 text file whose text cannot fit is withheld undecoded, with the record of a long text', async () => {
    // 3,000,006 bytes: at least 1,000,001 characters of UTF-8 text, whatever they are
    // (3 bytes a character at most, and a byte order mark of 3 bytes is dropped).
    const data = 'QUJD'.repeat(1_000_002);
    const atob = vi.spyOn(globalThis, 'atob');
    const { judge, seen } = judging();
    expect(await judge(textFile(data))).toEqual([tooLong]);
    expect(seen).toEqual([]);
    expect(atob.mock.calls.filter(([argument]) => argument === data)).toHaveLength(0);
    // Bytes of an ASCII text just over the limit are decoded, then refused the same way.
    expect(await judge(textFile(btoa('a'.repeat(DEFAULT_MAX_TOOL_OUTPUT_LENGTH + 1))))).toEqual([
      tooLong,
    ]);
    // Not base64 (an URL-safe alphabet atob rejects): unreadable, as before.
    expect((await judge(textFile('QUJD-_-_'.repeat(4))))[0]?.reason).toBe(
      'the result of tool "fetch" was not judged: its output is not a tool result output the guardrails can read (type "content")',
    );
  });

  it('a JSON value is walked for the limits once: each key is read by the walk and by canonical JSON', async () => {
    const reads = new Map<string, number>();
    const row = new Proxy(
      { id: 7, name: 'row', tags: ['a', 'b'] },
      {
        get(target, key, receiver) {
          if (typeof key === 'string') reads.set(key, (reads.get(key) ?? 0) + 1);
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const { judge, seen } = judging();
    expect(await judge({ type: 'json', value: row })).toHaveLength(1);
    expect(seen).toEqual(['{"id":7,"name":"row","tags":["a","b"]}']);
    expect(Object.fromEntries(reads)).toEqual({ id: 2, name: 2, tags: 2, toJSON: 1 });
  });
});
