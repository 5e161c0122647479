/**
 * An LLM judge with `@ai-sdk/openai`: an on-topic check on the user's input
 * (running in parallel with the answer) and a "no medical advice" check on
 * the answer, with a cache, a timeout and a circuit breaker.
 *
 * With OPENAI_API_KEY set it calls OpenAI (gpt-4.1-mini as the judge).
 * Without a key it runs offline against a local OpenAI-compatible server
 * (the one the end-to-end tests use), so the example always runs.
 *
 * Run: npx tsx examples/judge.ts
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, wrapLanguageModel } from 'ai';
import { getGuardrailOutcome, guardrails, llmJudge } from '../src/index';
import { startOpenAIServer } from '../test/e2e/openai-server';

const apiKey = process.env.OPENAI_API_KEY;
let stop: (() => Promise<void>) | undefined;
let provider: ReturnType<typeof createOpenAI>;

if (apiKey) {
  provider = createOpenAI({ apiKey });
} else {
  console.log('OPENAI_API_KEY is not set: running against a local OpenAI-compatible server.\n');
  const server = await startOpenAIServer(({ model, body }) => {
    const asked = JSON.stringify(body.input);
    if (model === 'gpt-4.1-mini') {
      // Only the judged content counts, not the policy text around it.
      const judged = /<content>([\s\S]*?)<\/content>/.exec(asked)?.[1] ?? '';
      // The judge: flags medicine in answers and off-topic questions.
      const medical = /aspirin|dose/i.test(judged);
      const offTopic = /football/i.test(judged);
      return {
        text: JSON.stringify(
          medical
            ? { flagged: true, confidence: 0.93, reason: 'recommends a medication dose' }
            : offTopic
              ? { flagged: true, confidence: 0.88, reason: 'not about cooking' }
              : { flagged: false, confidence: 0.96, reason: 'on topic and harmless' },
        ),
        usage: { input: 210, output: 24 },
      };
    }
    if (/headache/i.test(asked)) return { text: 'Take 1,000 mg of aspirin every four hours.' };
    return { text: 'Salt the water generously and cook the pasta al dente.' };
  });
  provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'offline' });
  stop = server.close;
}

const judge = provider('gpt-4.1-mini');

const model = wrapLanguageModel({
  model: provider('gpt-4.1'),
  middleware: guardrails({
    input: [
      llmJudge({
        name: 'on-topic',
        model: judge,
        policy: 'Users may only ask about cooking, recipes and kitchen equipment.',
        parallel: true, // judged while the main model already answers
      }),
    ],
    output: [
      llmJudge({
        name: 'no-medical-advice',
        model: judge,
        policy: 'The assistant must not give medical advice, diagnoses or medication doses.',
        threshold: 0.8,
        timeoutMs: 5_000,
        onError: 'block',
        breaker: { failures: 3, resetMs: 30_000 },
      }),
    ],
  }),
});

for (const prompt of [
  'How do I cook pasta?',
  'Who won the football match yesterday?',
  'I have a headache while cooking, what should I take?',
]) {
  const result = await generateText({ model, prompt });
  const outcome = await getGuardrailOutcome(result);
  console.log(`> ${prompt}\n${result.text}`);
  for (const record of outcome?.records ?? []) {
    const info = record.info as
      | { confidence?: number; usage?: { totalTokens?: number } }
      | undefined;
    console.log(
      `  [${record.guardrail}] ${record.status}${record.reason ? ` (${record.reason})` : ''}` +
        `${info?.confidence !== undefined ? ` confidence ${info.confidence}` : ''}` +
        `${info?.usage?.totalTokens !== undefined ? `, judge tokens ${info.usage.totalTokens}` : ''}`,
    );
  }
  console.log();
}

await stop?.();
