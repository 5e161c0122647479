import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import {
  allow,
  block,
  defineGuardrail,
  type Guardrail,
  GuardrailConfigError,
  type GuardrailConfigIssue,
  type GuardrailContext,
  type GuardrailKind,
  type GuardrailOutcome,
  type GuardrailsOptions,
  getGuardrailOutcome,
  guardrails,
  modify,
} from '../../src';
import { NotShown } from '../../src/core/redact-secrets';

export const usage: LanguageModelV4Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

export const stop = { unified: 'stop', raw: 'stop' } as const;

/** A tool-input guardrail for the SQL tool tests: blocks any `DROP TABLE`. */
export const noDropTable = defineGuardrail({
  name: 'no-drop-table',
  check: content =>
    /drop\s+table/i.test(content)
      ? block({ message: 'Dropping tables is not allowed.', reason: 'DDL statement' })
      : allow(),
});

export function generateResult(
  content: LanguageModelV4Content[] | string,
  extra: Partial<LanguageModelV4GenerateResult> = {},
): LanguageModelV4GenerateResult {
  return {
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : content,
    finishReason: stop,
    usage,
    warnings: [],
    ...extra,
  };
}

/** The parts of a streamed text answer, cut into the given deltas. */
export function textParts(deltas: string[], id = 't1'): LanguageModelV4StreamPart[] {
  return [
    { type: 'text-start', id },
    ...deltas.map(delta => ({ type: 'text-delta' as const, id, delta })),
    { type: 'text-end', id },
  ];
}

export function streamOf(
  parts: LanguageModelV4StreamPart[],
  finish: Partial<Extract<LanguageModelV4StreamPart, { type: 'finish' }>> = {},
) {
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: 'stream-start', warnings: [] },
      ...parts,
      { type: 'finish', finishReason: stop, usage, ...finish },
    ]),
  };
}

/** A mock model that answers every generate call with `text` and every stream call with its deltas. */
export function textModel(text: string | string[]) {
  const deltas = Array.isArray(text) ? text : [text];
  return new MockLanguageModelV4({
    doGenerate: async () => generateResult(deltas.join('')),
    doStream: async () => streamOf(textParts(deltas)),
  });
}

/** The text the model got for `prompt` through `generateText` with `guardrail` judging input (e.g. redacting). */
export async function promptTextSent(guardrail: Guardrail, prompt: string): Promise<string> {
  return (await promptSentWithRecords(guardrail, prompt)).sent;
}

/** As {@link promptTextSent}, with the call's guardrail records (timing stripped). */
export async function promptSentWithRecords(guardrail: Guardrail, prompt: string) {
  const mock = textModel('ok');
  const result = await generateText({
    model: wrapLanguageModel({ model: mock, middleware: guardrails({ input: [guardrail] }) }),
    prompt,
  });
  return {
    sent: (mock.doGenerateCalls[0]!.prompt[0]!.content as Array<{ text: string }>)[0]!.text,
    records: withoutTiming((await getGuardrailOutcome(result))?.records),
  };
}

/**
 * What the model got for one user file of `mediaType` and `data` under an
 * input `guardrail`: the part's media type, its bytes and their UTF-8 text;
 * or, when the call was blocked, the finish reason and provider metadata.
 */
export async function fileSent(guardrail: Guardrail, mediaType: string, data: Uint8Array | string) {
  const mock = textModel('ok');
  const result = await generateText({
    model: wrapLanguageModel({ model: mock, middleware: guardrails({ input: [guardrail] }) }),
    messages: [{ role: 'user', content: [{ type: 'file', mediaType, data }] }],
  });
  const call = mock.doGenerateCalls[0];
  if (!call) return { blocked: result.finishReason, reason: result.providerMetadata };
  const part = (call.prompt[0]!.content as unknown as Array<Record<string, unknown>>)[0]!;
  const sent = (part.data as { data: Uint8Array }).data;
  return { mediaType: part.mediaType, text: new TextDecoder().decode(sent), bytes: sent };
}

/**
 * The input record of a `secrets` guardrail that redacted generic secrets
 * at `spans` (`[start, end]` pairs of the text it judged).
 */
export function genericSecretsRedacted(spans: Array<[number, number]>) {
  return {
    guardrail: 'secrets',
    kind: 'input',
    status: 'modified',
    info: {
      types: ['GENERIC_SECRET'],
      spans: spans.map(([start, end]) => ({ type: 'GENERIC_SECRET', start, end })),
    },
  };
}

/** Blocks text containing `word` (case-insensitive, whole word). Stream-safe. */
export function blockWord(word: string, name = `block-${word}`) {
  const pattern = new RegExp(`\\b${word}\\b`, 'i');
  return defineGuardrail({
    name,
    streamSafe: true,
    maxMatchLength: word.length + 2,
    check: text =>
      pattern.test(text)
        ? block({
            message: `"${word}" is not allowed.`,
            reason: `matched ${word}`,
            severity: 'critical',
          })
        : allow(),
  });
}

/**
 * A `parallel: true` input guardrail that blocks (`No.`) the texts `blocks`
 * says, and the texts it judged, in order.
 */
export function recordingParallelJudge(blocks: (text: string) => boolean) {
  const judged: string[] = [];
  const guardrail = defineGuardrail({
    name: 'parallel-judge',
    parallel: true,
    check: async text => {
      judged.push(text);
      return blocks(text) ? block({ message: 'No.' }) : allow();
    },
  });
  return { guardrail, judged };
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** Redacts e-mail addresses to `[EMAIL]`. Stream-safe. */
export function redactEmails(name = 'redact-email') {
  return defineGuardrail({
    name,
    streamSafe: true,
    maxMatchLength: 64,
    check: text => {
      const count = text.match(EMAIL)?.length ?? 0;
      return count > 0 ? modify(text.replace(EMAIL, '[EMAIL]'), { count }) : allow();
    },
  });
}

export function userPrompt(text: string): LanguageModelV4CallOptions['prompt'] {
  return [{ role: 'user', content: [{ type: 'text', text }] }];
}

/** Reads every part of a stream. */
export async function readAll<T>(stream: ReadableStream<T> | AsyncIterable<T>): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of stream as AsyncIterable<T>) parts.push(part);
  return parts;
}

/**
 * `value` as JSON without its `durationMs` fields: a check that no hidden
 * digits (`2671`, `4111`) reach a record must not read them in a duration
 * (`3.267159999999876` failed CI once).
 */
export function serialisedWithoutTiming(value: unknown): string {
  return JSON.stringify(value, (key, field: unknown) => (key === 'durationMs' ? undefined : field));
}

/** Strips timing so records compare exactly. */
export function withoutTiming<T extends { durationMs?: number }>(
  records: readonly T[] | undefined,
) {
  return (records ?? []).map(({ durationMs, ...rest }) => {
    expectNumber(durationMs);
    return rest;
  });
}

function expectNumber(value: unknown) {
  if (typeof value !== 'number' || !(value >= 0))
    throw new Error(`durationMs is not a non-negative number: ${value}`);
}

/** A mock model that answers `text` whole (generate) or in the given deltas (stream). */
export function modelFor(text: string, deltas: string[]) {
  return new MockLanguageModelV4({
    doGenerate: async () => generateResult(text),
    doStream: async () => streamOf(textParts(deltas)),
  });
}

/**
 * The text `generateText` gives for a model answering `answer` with
 * `guardrail` (or a chain of them) on output in window mode, and the texts
 * `streamText` gives for it cut into each of `chunkings` (sizes as {@link cut} takes them): a
 * window stream must end as the generate call does.
 */
export async function windowAndGenerateTexts(
  guardrail: Guardrail | Guardrail[],
  answer: string,
  chunkings: number[][],
): Promise<{ generated: string; streamed: string[] }> {
  const model = (deltas: string[]) =>
    wrapLanguageModel({
      model: modelFor(answer, deltas),
      middleware: guardrails({ output: [guardrail].flat(), stream: { mode: 'window' } }),
    });
  const generated = (await generateText({ model: model([answer]), prompt: 'hi' })).text;
  const streamed: string[] = [];
  for (const sizes of chunkings) {
    streamed.push(await streamText({ model: model(cut(answer, sizes)), prompt: 'hi' }).text);
  }
  return { generated, streamed };
}

/**
 * Cuts `text` into deltas of the given sizes (cycling through them), never
 * splitting a surrogate pair: a model streams whole code points.
 */
export function cut(text: string, sizes: number[]): string[] {
  const deltas: string[] = [];
  let at = 0;
  let index = 0;
  while (at < text.length) {
    const size = Math.max(1, sizes[index++ % sizes.length] ?? 1);
    const end = Math.min(text.length, at + size);
    const safeEnd = end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!) ? end + 1 : end;
    deltas.push(text.slice(at, safeEnd));
    at = safeEnd;
  }
  return deltas;
}

/** A guardrail context for calling `check` directly, outside a model call. */
export function guardContext(
  kind: GuardrailKind = 'input',
  extra: Partial<GuardrailContext> = {},
): GuardrailContext {
  return {
    kind,
    messages: [],
    abortSignal: new AbortController().signal,
    metadata: {},
    state: new Map(),
    ...extra,
  };
}

/** The `GuardrailConfigError` that `run` throws; fails when it throws none or another error. */
export function configErrorOf(run: () => unknown): GuardrailConfigError {
  try {
    run();
  } catch (error) {
    if (GuardrailConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a GuardrailConfigError');
}

/** The issues of the `GuardrailConfigError` that `run` throws; fails when it throws none or another error. */
export function configIssuesOf(run: () => unknown): GuardrailConfigIssue[] {
  return configErrorOf(run).issues;
}

/**
 * What a config loader's issue holds for a string of the file: its length,
 * never its characters (round 39). `written` is the string as written in the test.
 */
export function notShownString(written: string): NotShown {
  const { length } = written;
  return new NotShown(`a string of ${length} character${length === 1 ? '' : 's'} (not shown)`);
}

/**
 * The guarded model's own stream for one call over `parts`: every part, the
 * finish without its metadata, and the outcome the finish carried.
 */
export async function guardedStreamParts(
  parts: LanguageModelV4StreamPart[],
  options: GuardrailsOptions,
  prompt: string,
): Promise<{ parts: unknown[]; outcome: GuardrailOutcome }> {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
    middleware: guardrails(options),
  });
  const { stream } = await model.doStream({ prompt: userPrompt(prompt) });
  const out = await readAll(stream);
  const finish = out.at(-1) as Extract<LanguageModelV4StreamPart, { type: 'finish' }>;
  const outcome = finish.providerMetadata?.guardrails as unknown as GuardrailOutcome;
  return {
    parts: out.map(part =>
      part.type === 'finish' ? { type: 'finish', finishReason: part.finishReason } : part,
    ),
    outcome,
  };
}
