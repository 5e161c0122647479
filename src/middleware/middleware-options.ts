import type { GuardrailConfigIssue } from '../core/errors';
import {
  anyOf,
  booleanOption,
  functionOption,
  guardrailList,
  listOf,
  nonEmptyString,
  type OptionShape,
  objectOption,
  oneOf,
  positiveInt,
  required,
  rule,
  storeOption,
  stringOption,
  timerMilliseconds,
  validatedOptions,
} from '../core/options';
import { type OutputSideGuardrail, outputSideIssues } from '../core/output-side';
import { PARALLEL_DOES_NOT_APPLY, parallelIssues } from '../core/parallel-issues';
import { NotShown } from '../core/redact-secrets';
import type { StreamWatchingGuardrail } from '../core/stream-watch';
import type { Guardrail } from '../core/types';

/**
 * The rules of `guardrails()`'s options: every option it accepts, and nothing
 * else (an unknown key is an error). A new option of `GuardrailsOptions` needs
 * its rule here, or `guardrails({ newOption })` fails as "no such option".
 */
export const guardrailsOptionShape = {
  input: guardrailList,
  output: guardrailList,
  stream: objectOption(
    {
      mode: oneOf(['hold', 'window', 'passthrough']),
      window: positiveInt,
    },
    "{ mode?: 'hold' | 'window' | 'passthrough', window? }",
  ),
  onTrip: oneOf(['return', 'throw']),
  blockedMessage: anyOf(
    [stringOption, functionOption()],
    'a string or a function of the record returning a string',
  ),
  onEvent: functionOption('a function receiving each guardrail event'),
  inputScope: oneOf(['user', 'all']),
  unreadableFiles: oneOf(['pass', 'block']),
  outputScope: oneOf(['every-step', 'final']),
  checkReasoning: booleanOption,
  context: functionOption('a function of the call options returning metadata'),
  memoSize: positiveInt,
  store: storeOption,
  verdictTtlMs: positiveInt,
  defaultTimeoutMs: timerMilliseconds,
  retry: objectOption(
    {
      maxAttempts: required(
        rule(
          value => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 10,
          'an integer from 1 to 10 (extra model calls)',
        ),
        'an integer from 1 to 10 (extra model calls)',
      ),
      feedback: functionOption('a function of the record returning the feedback text'),
    },
    '{ maxAttempts: 1..10, feedback?: (record) => string }',
  ),
  toolDefinitions: guardrailList,
  toolOutputs: guardrailList,
  toolCalls: guardrailList,
  onToolDefinitionTrip: oneOf(['remove', 'block']),
  pinToolDefinitions: anyOf(
    [
      booleanOption,
      objectOption(
        {
          // A server's pins live in "<scope>:<serverId>": a scope with `:`
          // would share them with another scope's server (round 24).
          scope: rule(
            value => typeof value === 'string' && value !== '' && !value.includes(':'),
            "a non-empty string without ':' (a server's pins live in \"<scope>:<serverId>\")",
          ),
          ttlMs: positiveInt,
          newTools: oneOf(['hold', 'pin']),
          approved: listOf(
            objectOption(
              {
                name: required(nonEmptyString, 'the tool name'),
                hash: required(
                  rule(
                    value => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value),
                    'a SHA-256 hex digest (64 lowercase hex characters)',
                  ),
                  'a SHA-256 hex digest (64 lowercase hex characters)',
                ),
                serverId: nonEmptyString,
              },
              '{ name, hash, serverId? }',
            ),
            'an array of { name, hash, serverId? }',
          ),
        },
        '{ scope?, ttlMs?, approved?, newTools? }',
      ),
    ],
    'true, false or { scope?, ttlMs?, approved?, newTools? }',
  ),
  specificationVersion: rule(
    value => value === 'v4' || value === 'v3',
    "'v4' (AI SDK 7) or 'v3' (AI SDK 6)",
  ),
} satisfies OptionShape;

/** In window mode every output guardrail must be stream-safe: named by its place in the list. */
function windowModeIssues(options: Record<string, unknown>, issues: GuardrailConfigIssue[]): void {
  const { stream, output } = options;
  if ((stream as { mode?: unknown } | null | undefined)?.mode !== 'window') return;
  if (!Array.isArray(output)) return;
  output.forEach((guardrail: Partial<Guardrail> | null | undefined, index) => {
    // Not a guardrail at all: reported by the list's own rule.
    if (typeof guardrail?.check !== 'function' || guardrail.streamSafe) return;
    // A guardrail may say why it is not stream-safe with its options (outputSchema's JSON rules, an unbounded pattern).
    const because = (guardrail as StreamWatchingGuardrail).notStreamSafeBecause;
    issues.push({
      path: `output[${index}]`,
      value: guardrail.name,
      expected:
        typeof because === 'string'
          ? `a stream-safe guardrail in window mode ("${guardrail.name}": ${because}; use stream mode 'hold')`
          : `a stream-safe guardrail in window mode ("${guardrail.name}" needs the whole answer: use stream mode 'hold')`,
    });
  });
}

/**
 * A retry asks the model again after the answer was judged; window and
 * passthrough streams release text before that, so there is nothing to
 * take back: `retry` is only for generate calls and `hold` streams.
 */
function retryModeIssues(options: Record<string, unknown>, issues: GuardrailConfigIssue[]): void {
  const { stream, retry } = options;
  if (retry === undefined) return;
  const mode = (stream as { mode?: unknown } | null | undefined)?.mode;
  if (mode !== 'window' && mode !== 'passthrough') return;
  issues.push({
    path: 'retry',
    value: new NotShown(`stream mode '${mode}'`),
    expected: `stream mode 'hold' with retry: '${mode}' releases text before the answer is judged, so a tripped answer cannot be replaced by a retry`,
  });
}

/**
 * A tool-output (or tool-call) guardrail judges each tool result's (or
 * call's) text; a per-call one
 * (`rateLimit`, `tokenBudget`) judges the call and would count every tool
 * result of the history as a call: its place is `input`.
 */
function toolOutputIssues(options: Record<string, unknown>, issues: GuardrailConfigIssue[]): void {
  for (const key of ['toolOutputs', 'toolCalls'] as const) {
    const list = options[key];
    if (!Array.isArray(list)) continue;
    list.forEach((guardrail: Partial<Guardrail> | null | undefined, index) => {
      // Not a guardrail at all: reported by the list's own rule.
      if (typeof guardrail?.check !== 'function' || !guardrail.perCall) return;
      issues.push({
        path: `${key}[${index}]`,
        value: guardrail.name,
        expected: `a guardrail that judges a text ("${guardrail.name}" judges the call, once per model call: put it in ${key === 'toolCalls' ? 'input or output' : 'input'})`,
      });
    });
  }
}

/**
 * `parallel: true` only applies to input guardrails (alongside the model
 * call): in output, toolDefinitions and toolOutputs it is an error, where it
 * used to be ignored.
 */
function parallelOutsideInputIssues(
  options: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
): void {
  for (const key of ['output', 'toolDefinitions', 'toolOutputs', 'toolCalls'] as const) {
    issues.push(...parallelIssues(options[key], key, PARALLEL_DOES_NOT_APPLY[key]));
  }
}

/**
 * A pseudonymising `pii` in input or toolOutputs needs the same instance in
 * output, or the user reads the model's placeholders: an error, never a
 * silently useless setting.
 */
function outputSideMissingIssues(
  options: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
): void {
  const todo =
    "add it there, as in guardrails({ input: [p], output: [p] }), or use action 'redact' if the user may see placeholders";
  for (const key of ['input', 'toolOutputs'] as const) {
    issues.push(...outputSideIssues(options[key], key, options.output, todo));
  }
}

/**
 * A pseudonymising `pii` restores its placeholders at kind `tool_input`: in
 * `toolCalls` it would write the originals into the response's tool calls,
 * which the next model call of the run reads back (the assistant turn), so
 * the model would read the values it was given placeholders for.
 */
function toolCallsPseudonymIssues(
  options: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
): void {
  const { toolCalls } = options;
  if (!Array.isArray(toolCalls)) return;
  toolCalls.forEach((guardrail: OutputSideGuardrail | null | undefined, index) => {
    if (typeof guardrail?.check !== 'function') return;
    if (typeof guardrail.undoneInOutputOnlyByItself !== 'string') return;
    issues.push({
      path: `toolCalls[${index}]`,
      value: guardrail.name,
      expected: `a guardrail that keeps the model's placeholders in its tool calls ("${guardrail.name}" restores them at kind tool_input, and the next model call reads the call back); restore them for the tool only with guardTools({ input: [p] }), and use action 'redact' in toolCalls`,
    });
  });
}

function refineIssues(options: Record<string, unknown>, issues: GuardrailConfigIssue[]): void {
  outputSideMissingIssues(options, issues);
  toolCallsPseudonymIssues(options, issues);
  windowModeIssues(options, issues);
  parallelOutsideInputIssues(options, issues);
  retryModeIssues(options, issues);
  toolOutputIssues(options, issues);
}

/**
 * Checks the options of `guardrails()` and returns them (`{}` for none);
 * throws one `GuardrailConfigError` naming every bad option (`stream.mode`,
 * `input[1]`, an unknown key...). `null` is not "no options": it is an error.
 */
export function validateGuardrailsOptions<OPTIONS extends object>(
  options: OPTIONS | undefined,
): OPTIONS {
  return validatedOptions(options, {
    prefix: '',
    root: 'guardrails',
    shape: guardrailsOptionShape,
    refine: refineIssues,
  });
}
