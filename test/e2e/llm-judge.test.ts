import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { llmJudge } from '../../src/guards/llm-judge/llm-judge';
import { DEFAULT_BLOCKED_MESSAGE } from '../../src/middleware/blocked-response';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { withoutTiming } from '../helpers';
import {
  type MockReply,
  type OpenAIServer,
  type RecordedRequest,
  startOpenAIServer,
} from './openai-server';

const policy = 'The assistant must not give medical advice.';
const flagged = { flagged: true, confidence: 0.92, reason: 'recommends a medication dose' };
const clean = { flagged: false, confidence: 0.97, reason: 'a cooking tip' };

/** Per-test behaviour of the server, by model id. */
let replies: Record<string, (request: RecordedRequest) => MockReply | Promise<MockReply>>;
let server: OpenAIServer;
let openai: ReturnType<typeof createOpenAI>;

function gate() {
  let open!: () => void;
  const promise = new Promise<void>(resolve => {
    open = resolve;
  });
  return { promise, open };
}

/** The judge replies by what it is asked to judge: medical words are flagged. */
function verdictFor(request: RecordedRequest): MockReply {
  const asked = JSON.stringify(request.body.input);
  return {
    text: JSON.stringify(/aspirin|ibuprofen/i.test(asked) ? flagged : clean),
    usage: { input: 180, output: 20 },
  };
}

beforeAll(async () => {
  server = await startOpenAIServer(request => {
    const reply = replies[request.model];
    if (!reply) return { status: 404, error: `no such model ${request.model}` };
    return reply(request);
  });
  openai = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' });
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
  replies = { judge: verdictFor };
});

function guarded(options: Parameters<typeof guardrails>[0], main = openai('main')) {
  return wrapLanguageModel({ model: main, middleware: guardrails(options) });
}

describe('llmJudge end to end through @ai-sdk/openai and HTTP', () => {
  it('trips on a flagged answer: the blocked message replaces it and the record carries verdict and judge usage', async () => {
    replies.main = () => ({ text: 'Take two aspirin every four hours.' });
    const model = guarded({ output: [llmJudge({ model: openai('judge'), policy })] });
    const result = await generateText({ model, prompt: 'My head hurts.' });
    expect(result.text).toBe('This content was blocked by a content policy.');
    expect(result.finishReason).toBe('content-filter');
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'llm-judge',
        kind: 'output',
        status: 'blocked',
        message: 'This content was blocked by a content policy.',
        reason: 'recommends a medication dose',
        severity: 'warning',
        info: {
          ...flagged,
          threshold: 0.7,
          cached: false,
          usage: { inputTokens: 180, outputTokens: 20, totalTokens: 200 },
        },
      },
    ]);
    // The judge was asked for a structured verdict over the Responses API.
    const judgeRequest = server.requestsFor('judge')[0]!;
    expect(judgeRequest.path).toBe('/v1/responses');
    expect((judgeRequest.body.text as { format: { type: string } }).format.type).toBe(
      'json_schema',
    );
  });

  it('passes a clean streamed answer, judging the whole SSE stream once (hold mode)', async () => {
    replies.main = () => ({
      text: 'Salt the water well.',
      deltas: ['Salt ', 'the water ', 'well.'],
    });
    const model = guarded({ output: [llmJudge({ model: openai('judge'), policy })] });
    const result = streamText({ model, prompt: 'Pasta tips?' });
    expect(await result.text).toBe('Salt the water well.');
    expect((await getGuardrailOutcome(result))?.status).toBe('passed');
    expect(server.requestsFor('main')[0]?.stream).toBe(true);
    expect(server.requestsFor('judge')).toHaveLength(1);
    expect(JSON.stringify(server.requestsFor('judge')[0]?.body.input)).toContain(
      'Salt the water well.',
    );
  });

  it('guards a chat-completions model too (openai.chat, streamed)', async () => {
    replies['main-chat'] = () => ({
      text: 'Ibuprofen, 400 mg.',
      deltas: ['Ibuprofen', ', 400 mg.'],
    });
    const model = guarded(
      { output: [llmJudge({ model: openai('judge'), policy })] },
      openai.chat('main-chat'),
    );
    const result = streamText({ model, prompt: 'Headache?' });
    expect(await result.text).toBe('This content was blocked by a content policy.');
    expect(server.requestsFor('main-chat')[0]?.path).toBe('/v1/chat/completions');
  });

  it("a judge timeout is an error record that blocks with onError 'block', and the judge request is abandoned", async () => {
    replies.main = () => ({ text: 'Salt the water.' });
    replies.judge = () => ({ hang: true });
    const model = guarded({
      output: [llmJudge({ model: openai('judge'), policy, timeoutMs: 150 })],
    });
    const result = await generateText({ model, prompt: 'Pasta?' });
    expect(result.text).toBe(DEFAULT_BLOCKED_MESSAGE);
    const [record] = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(record).toMatchObject({ guardrail: 'llm-judge', status: 'error' });
    expect(record?.reason).toMatch(/timed out after 150 ms/);
    expect(await server.requestsFor('judge')[0]?.closed).toEqual({ early: true });
  });

  it("a judge timeout lets the answer through with onError 'allow'", async () => {
    replies.main = () => ({ text: 'Salt the water.' });
    replies.judge = () => ({ hang: true });
    const model = guarded({
      output: [llmJudge({ model: openai('judge'), policy, timeoutMs: 150, onError: 'allow' })],
    });
    const result = await generateText({ model, prompt: 'Pasta?' });
    expect(result.text).toBe('Salt the water.');
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('passed');
    expect(outcome?.records[0]?.status).toBe('error');
  });

  it('malformed judge output is an error record (fails closed)', async () => {
    replies.main = () => ({ text: 'Salt the water.' });
    replies.judge = () => ({ text: 'Looks fine to me!' });
    const model = guarded({ output: [llmJudge({ model: openai('judge'), policy })] });
    const result = await generateText({ model, prompt: 'Pasta?' });
    expect(result.text).toBe(DEFAULT_BLOCKED_MESSAGE);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'llm-judge',
        kind: 'output',
        status: 'error',
        reason:
          'judge returned output that is not a valid verdict, which the judged text can cause; failing closed whatever onError says',
      },
    ]);
  });

  it('N identical concurrent checks make one judge HTTP call (counted at the server)', async () => {
    replies.main = () => ({ text: 'Salt the water.' });
    const release = gate();
    replies.judge = async request => {
      await release.promise; // hold the first judge call until every check is waiting
      return verdictFor(request);
    };
    const model = guarded({ output: [llmJudge({ model: openai('judge'), policy })] });
    const runs = Array.from({ length: 8 }, () => generateText({ model, prompt: 'Pasta?' }));
    while (server.requestsFor('main').length < 8 || server.requestsFor('judge').length < 1) {
      await new Promise(resolve => setTimeout(resolve, 5));
    }
    release.open();
    const results = await Promise.all(runs);
    expect(results.map(r => r.text)).toEqual(Array(8).fill('Salt the water.'));
    expect(server.requestsFor('main')).toHaveLength(8);
    expect(server.requestsFor('judge')).toHaveLength(1);
    // A later identical check is answered from the cache.
    const later = await generateText({ model, prompt: 'Pasta?' });
    expect((await getGuardrailOutcome(later))?.records[0]?.info).toMatchObject({ cached: true });
    expect(server.requestsFor('judge')).toHaveLength(1);
  });

  it('the circuit breaker stops calling a failing judge and applies onError at once', async () => {
    replies.main = () => ({ text: 'Salt the water.' });
    replies.judge = () => ({ status: 500, error: 'judge overloaded' });
    const model = guarded({
      output: [
        llmJudge({
          model: openai('judge'),
          policy,
          cache: false,
          breaker: { failures: 2, resetMs: 60_000 },
        }),
      ],
    });
    const reasons: Array<string | undefined> = [];
    for (let i = 0; i < 4; i++) {
      const result = await generateText({ model, prompt: `Pasta ${i}?` });
      expect(result.text).toBe(DEFAULT_BLOCKED_MESSAGE);
      reasons.push((await getGuardrailOutcome(result))?.records[0]?.reason);
    }
    // Two failed checks, then one health check (HTTP 500 may be caused by a
    // client's text, so the circuit opens only when the judge fails it too).
    expect(server.requestsFor('judge')).toHaveLength(3);
    expect(reasons[0]).toBe('judge call failed: AI_APICallError (HTTP 500)');
    expect(reasons[2]).toMatch(
      /^judge circuit open after 2 consecutive failures and a health check that failed too; not called/,
    );
    expect(reasons[3]).toMatch(/^judge circuit open/);
  });

  it('the breaker lets one trial through after resetMs and closes on success', async () => {
    replies.main = () => ({ text: 'Salt the water.' });
    let failing = true;
    replies.judge = request => (failing ? { status: 500, error: 'down' } : verdictFor(request));
    const model = guarded({
      output: [
        llmJudge({
          model: openai('judge'),
          policy,
          cache: false,
          breaker: { failures: 1, resetMs: 100 },
        }),
      ],
    });
    await generateText({ model, prompt: 'a' });
    const open = await generateText({ model, prompt: 'b' });
    expect((await getGuardrailOutcome(open))?.records[0]?.reason).toMatch(/circuit open/);
    // The failed check and the health check that failed too.
    expect(server.requestsFor('judge')).toHaveLength(2);
    failing = false;
    await new Promise(resolve => setTimeout(resolve, 150));
    const recovered = await generateText({ model, prompt: 'c' });
    expect(recovered.text).toBe('Salt the water.');
    expect(server.requestsFor('judge')).toHaveLength(3);
  });

  it('a parallel input judge that trips cancels the main model HTTP request (generate)', async () => {
    const mainArrived = gate();
    replies.main = () => {
      mainArrived.open();
      return { hang: true };
    };
    replies.judge = async () => {
      await mainArrived.promise; // the main model is already in flight when the judge trips
      return { text: JSON.stringify(flagged) };
    };
    const model = guarded({
      input: [llmJudge({ model: openai('judge'), policy, parallel: true })],
    });
    const result = await generateText({ model, prompt: 'How much aspirin can I take?' });
    expect(result.text).toBe('This content was blocked by a content policy.');
    expect((await getGuardrailOutcome(result))?.records[0]).toMatchObject({
      guardrail: 'llm-judge',
      kind: 'input',
      status: 'blocked',
    });
    expect(await server.requestsFor('main')[0]?.closed).toEqual({ early: true });
  });

  it('a parallel input judge that trips cancels the main model SSE stream mid-way (stream)', async () => {
    const mainStreaming = gate();
    replies.main = () => {
      mainStreaming.open();
      return { hang: true, deltas: ['Take ', 'two '] };
    };
    replies.judge = async () => {
      await mainStreaming.promise;
      return { text: JSON.stringify(flagged) };
    };
    const model = guarded({
      input: [llmJudge({ model: openai('judge'), policy, parallel: true })],
    });
    const result = streamText({ model, prompt: 'How much aspirin can I take?' });
    expect(await result.text).toBe('This content was blocked by a content policy.');
    expect(await server.requestsFor('main')[0]?.closed).toEqual({ early: true });
  });

  it('a parallel input judge that passes lets the answer through unchanged', async () => {
    replies.main = () => ({ text: 'Salt the water.' });
    const model = guarded({
      input: [llmJudge({ model: openai('judge'), policy, parallel: true })],
    });
    const result = await generateText({ model, prompt: 'Pasta?' });
    expect(result.text).toBe('Salt the water.');
    expect(await server.requestsFor('main')[0]?.closed).toEqual({ early: false });
  });
});
