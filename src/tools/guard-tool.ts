import { getErrorMessage, type JSONValue, type LanguageModelV4Prompt } from '@ai-sdk/provider';
import {
  asSchema,
  jsonSchema,
  type ModelMessage,
  type Tool,
  type ToolExecuteFunction,
  type ToolExecutionOptions,
  type ToolSet,
} from 'ai';
import { kindOf, settleUnawaited } from '../core/callback-result';
import { readCallerObject, thrownKind } from '../core/caller-values';
import { runChain } from '../core/chain';
import { dataProperty, errorClass } from '../core/error-class';
import {
  GuardrailConfigError,
  type GuardrailConfigIssue,
  GuardrailTripwireError,
} from '../core/errors';
import { emitEvent } from '../core/events';
import { metadataObject } from '../core/metadata-object';
import { readsModelOutput } from '../core/model-output-reader';
import { optionIssues } from '../core/options';
import type { OutputSideGuardrail } from '../core/output-side';
import { jsonErrorDetail } from '../core/redact-secrets';
import {
  cutServerId,
  cutToolName,
  HIDDEN_TOOL_CALL_ID_PREFIX,
  shownToolCallIdOf,
  shownToolName,
  showToolCallIdAs,
  stepToolCallIds,
} from '../core/shown-tool-calls';
import type {
  Guardrail,
  GuardrailContext,
  GuardrailEventListener,
  GuardrailMetadata,
  GuardrailRecord,
} from '../core/types';
import {
  DEFAULT_MAX_TOOL_OUTPUT_LENGTH,
  jsonLimitProblem,
  MAX_TOOL_OUTPUT_TEXTS,
  TOOL_OUTPUT_UNREADABLE,
  walkJson,
} from '../middleware/tool-outputs';
import {
  blockedOutput,
  defaultBlockedMessage,
  type GuardrailBlockedOutput,
  hasGuardrailBlockedShape,
  isGuardrailBlocked,
} from './blocked-output';
import { canonicalJson } from './canonical-json';
import { type CharCodeArray, restoreCharCodeArrays, withCharCodeTexts } from './char-code-text';
import { approvedInHistory } from './history-approvals';
import {
  checkModelOutputTexts,
  foundByModifiers,
  UNREADABLE_FILE,
  type UnreadableFiles,
  unreadableFileReason,
} from './model-output-check';
import { parseModifiedJson } from './quote-redacted-literals';
import { type ListedDefinition, registerServerListing } from './server-listing';
import { streamedStepOf } from './step-calls';
import {
  rememberErrorTextRecords,
  rememberModelOutputRecords,
  rememberToolCallRecords,
  toolCallRecordsOf,
} from './tool-call-records';
import { guardToolOptionShape, guardToolsOptionShape, parallelToolIssues } from './tool-options';

/** What the `context` option of the tool wrappers receives for each tool call. */
export interface ToolGuardrailCall {
  /** The tool's name in the tool set (`undefined` for `guardTool` without `name`). */
  toolName: string | undefined;
  toolCallId: string;
  /** The messages the tool call came from, as the AI SDK passes them to `execute`. */
  messages: ModelMessage[];
  /** The tool context the AI SDK passes to `execute` (`toolsContext` of the call). */
  context: unknown;
}

/** Options shared by `guardTool` and `guardTools`. */
export interface GuardToolOptions {
  /** Guardrails over the arguments, before the tool runs (kind `tool_input`). */
  input?: readonly Guardrail[];
  /**
   * Guardrails over the result, before the model sees it (kind
   * `tool_output`), and over the text of an error the tool throws, which
   * the AI SDK gives the model as the result.
   */
  output?: readonly Guardrail[];
  /**
   * What a trip does:
   * - `'return'` (default): the tool's output becomes a `GuardrailBlockedOutput`;
   *   the model sees its `message` and the loop goes on.
   * - `'throw'`: the tool throws a `GuardrailTripwireError`, which the AI SDK
   *   reports as a tool error.
   */
  onTrip?: 'return' | 'throw';
  /**
   * The text the model sees for a blocked call. Default: the tripping
   * guardrail's `message`, else a neutral sentence naming the tool.
   */
  blockedMessage?: string | ((record: GuardrailRecord) => string);
  /** Receives one event per guardrail decision (passed, modified, blocked, error). */
  onEvent?: GuardrailEventListener;
  /**
   * Per-call values for `ctx.metadata` (a session id, a user id, ...),
   * computed from the tool call. Default: no metadata.
   */
  context?: (call: ToolGuardrailCall) => GuardrailMetadata | PromiseLike<GuardrailMetadata>;
  /**
   * A tripped argument check stops the step (seed 000: a trip ends the turn's
   * other calls): the other calls of the same step return a blocked output
   * without running. The wrapper checks every call's arguments before any of
   * them runs (in the AI SDK's `onInputAvailable`, which `generateText` calls
   * for each tool call of a step before executing them), so the order of the
   * calls does not matter. In `streamText` a call waits, before it runs,
   * until its step's calls are all known and checked: AI SDK 7 and recent
   * 6.0.x releases run tools only after the model's response ended, and with the `guardrails()` middleware on the model (with at
   * least one guardrail) the wrapper also learns the step's calls from the
   * stream, so an SDK that starts a call as soon as it arrives is held too.
   * The wait is bounded (`STOP_ON_TRIP_WAIT_MS`, then the call does not run:
   * an `error` record) and ends with the call's abort signal. Default false.
   */
  stopOnTrip?: boolean;
  /**
   * Where the tools come from, for tools of an MCP server (`await
   * mcpClient.tools()`): an id you choose per server (`'github'`). Records
   * of these tools (and `ctx.serverId`) carry it, and the wrapped tools
   * carry it to the middleware (in their `providerOptions.guardrails`), so
   * that `guardrails({ toolDefinitions, pinToolDefinitions })` reports
   * their definitions by server and pins them per server: two servers may
   * both have a tool named `search`.
   */
  serverId?: string;
  /**
   * With `serverId`: a name you give this set of the server's tools when
   * you guard them in more than one `guardTools` call (`'read'`,
   * `'write'`). `pinToolDefinitions` lists each named group at its own
   * first sight, apart from the server's other tools, so a group first
   * offered after the server was first seen is pinned on sight, not held as
   * new; a tool added to a group later is held. Pins stay per server and
   * tool name, whatever the group. Choose it in code: never from what a
   * server lists.
   */
  serverGroup?: string;
  /**
   * A file in what the model reads of a result that no guardrail can read
   * (a PDF, an image, audio, a file by URL or id, in a `content` output of
   * the tool's `toModelOutput`): `'pass'` (default) lets it through as it
   * is; `'block'` withholds the output (a `blocked` record named
   * `unreadable-file`), since the model reads text in it that the output
   * guardrails never saw. Applies when there are output guardrails.
   */
  unreadableFiles?: UnreadableFiles;
  /**
   * A call the history approves: the AI SDK runs every call that a
   * `tool-approval-response` with `approved: true` in the messages it is
   * given approves, before the first step, even one of a tool that asks for
   * no approval, and the client writes that history (a call the model never
   * made, any arguments). `'verify'` (default): such a call runs only when
   * the tool asks for approval for these arguments (its `needsApproval` is
   * `true`, or a function that returns true for them, asked again); else it
   * is refused as an approval the server never requested (a `blocked`
   * record named `tool-approval`; the tool does not run). `'trust'`: runs
   * it, as the SDK does: for apps that ask for approval through
   * `generateText`'s `toolApproval` option, which the wrapper cannot see
   * (sign approvals there with `experimental_toolApprovalSecret`).
   */
  historyApprovals?: 'verify' | 'trust';
}

/** Options of `guardTool`. */
export interface GuardSingleToolOptions extends GuardToolOptions {
  /**
   * The tool's name, reported as `toolName` in records and `ctx`. The AI SDK
   * does not tell `execute` which name a tool has; `guardTools` sets it from
   * the key in the tool set.
   */
  name?: string;
}

/** Options of `guardTools`. */
export interface GuardToolsOptions<NAME extends string = string> extends GuardToolOptions {
  /**
   * The names of the tools to guard. Others are returned unchanged (so tools
   * that cannot be guarded, such as client-side or provider-executed ones, can
   * stay in the set). Default: every tool.
   */
  only?: readonly NAME[];
}

/**
 * A tool after `guardTool`: the same input and context types, with
 * `GuardrailBlockedOutput` added to its output type.
 */
export type GuardedTool<TOOL> =
  TOOL extends Tool<infer INPUT, infer OUTPUT, infer CONTEXT>
    ? Tool<INPUT, OUTPUT | GuardrailBlockedOutput, CONTEXT> & {
        execute: ToolExecuteFunction<INPUT, OUTPUT | GuardrailBlockedOutput, CONTEXT>;
      }
    : never;

/** A tool set after `guardTools`: the tools named in `only` (default all) are guarded. */
export type GuardedToolSet<TOOLS extends ToolSet, ONLY extends keyof TOOLS = keyof TOOLS> = {
  [NAME in keyof TOOLS]: NAME extends ONLY ? GuardedTool<TOOLS[NAME]> : TOOLS[NAME];
};

type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;
type AnyExecute = (input: unknown, options: ToolExecutionOptions<unknown>) => unknown;
type WrappableTool = {
  execute?: unknown;
  providerOptions?: unknown;
  onInputAvailable?: (options: { input: unknown } & Record<string, unknown>) => unknown;
  needsApproval?: boolean | ((input: unknown, options: never) => boolean | PromiseLike<boolean>);
  type?: unknown;
  isProviderExecuted?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  toModelOutput?: (options: {
    toolCallId: string;
    input: unknown;
    output: unknown;
  }) => ToolResultOutput | PromiseLike<ToolResultOutput>;
};

const blockedOutputJsonSchema = {
  type: 'object',
  properties: {
    status: { const: 'blocked' },
    guardrail: { type: 'object' },
    message: { type: 'string' },
  },
  required: ['status', 'guardrail', 'message'],
} as const;

/**
 * Wraps one tool so that guardrails check its arguments before it runs and its
 * result before the model sees it.
 *
 * Guardrails see the arguments (or the result) as canonical JSON text (keys
 * sorted, no whitespace; a string result as the text itself, as the model
 * reads it) in `content`, and the parsed value in `ctx.value`,
 * with `ctx.toolName`, `ctx.toolCallId`, `ctx.messages` and `ctx.abortSignal`.
 * Input and output guardrails of one call share `ctx.state`.
 *
 * - An input trip does not run the tool.
 * - An input `modify` rewrites the arguments the tool receives. The new text
 *   must parse as JSON and match the tool's input schema; otherwise the call is
 *   blocked with a reason that says so.
 * - An output trip withholds the result: it appears in no step, message or UI
 *   stream. An output `modify` (JSON text, matching the output schema when the
 *   tool has one) replaces the result.
 * - Streaming tools (`execute` returning an `AsyncIterable`) are checked per
 *   yielded value; a trip ends the iteration with the blocked output.
 * - An error the tool throws is judged as the text the model reads of it
 *   (the AI SDK's `getErrorMessage`): allowed, it is rethrown; modified, a
 *   new error with the new text alone is thrown; a trip gives the blocked
 *   output (see docs/tools.md, "Errors a tool throws").
 *
 * The tool's description, schemas, approval settings and own `toModelOutput`
 * (for unblocked outputs) still apply. With its own `toModelOutput`, the
 * output guardrails also judge the model output it makes of the result (the
 * text the model reads; see docs/tools.md), and the model reads exactly that.
 *
 * @throws GuardrailConfigError when the tool has no `execute` (client-side
 * tool), is executed by the provider, or an option is invalid.
 *
 * @example
 * const runSql = guardTool(sqlTool, {
 *   name: 'runSql',
 *   input: [defineGuardrail({ name: 'no-drop', check: t => (/drop\s+table/i.test(t) ? block('Not allowed.') : allow()) })],
 * });
 */
export function guardTool<TOOL extends Tool>(
  tool: TOOL,
  toolOptions?: GuardSingleToolOptions,
): GuardedTool<TOOL> {
  let read: Record<string, unknown> = {};
  const issues = optionIssues(toolOptions, {
    prefix: '',
    root: 'guardTool',
    shape: guardToolOptionShape,
    refine: (options, found) => {
      read = options;
      parallelToolIssues(options, found);
    },
  });
  // The options as `optionIssues` read them: a getter runs once.
  const { name, ...options } = (issues.length === 0 ? read : {}) as GuardSingleToolOptions;
  const wrappable = readTool(tool, name ? `tool ${shownToolName(name)}` : 'tool', name, issues);
  if (issues.length > 0 || wrappable === undefined) throw new GuardrailConfigError(issues);
  return wrapTool(wrappable, name, options) as GuardedTool<TOOL>;
}

/**
 * Wraps every tool of a tool set (or those named in `only`) with the same
 * guardrails. See `guardTool` for what the wrapper does. Tools left out by
 * `only` are returned unchanged.
 *
 * @throws GuardrailConfigError naming each tool that cannot be guarded (no
 * `execute`, or provider-executed) unless `only` leaves it out, each name in
 * `only` that is not in the set, and each invalid option.
 *
 * @example
 * const tools = guardTools({ search, runSql }, {
 *   input: [noDropTable],
 *   output: [noInstructionsInResults],
 *   onTrip: 'return',
 * });
 * await generateText({ model, tools, prompt, stopWhen: [guardrailTripped(), isStepCount(10)] });
 */
export function guardTools<
  TOOLS extends ToolSet,
  const ONLY extends keyof TOOLS & string = keyof TOOLS & string,
>(tools: TOOLS, toolsOptions?: GuardToolsOptions<ONLY>): GuardedToolSet<TOOLS, ONLY> {
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new GuardrailConfigError({
      path: 'tools',
      value: tools,
      expected: 'a tool set (an object of tools by name)',
    });
  }
  // The set is read once, each tool by its own getter: one that throws (or
  // a Proxy trap) is an issue naming its error by class, not the caller's
  // error rethrown with its message (round 39).
  const setIssues: GuardrailConfigIssue[] = [];
  const set = readCallerObject(tools, 'tools', setIssues, { pathOf: toolPath }) ?? {};
  const names = Object.keys(set);
  // The options as `optionIssues` read them: a getter runs once (`only` was read again, raw).
  let read: Record<string, unknown> = {};
  const issues = optionIssues(toolsOptions, {
    prefix: '',
    root: 'guardTools',
    shape: guardToolsOptionShape,
    refine: (options, found) => {
      read = options;
      parallelToolIssues(options, found);
      if (options.serverGroup !== undefined && options.serverId === undefined) {
        found.push({
          path: 'serverGroup',
          value: options.serverGroup,
          expected: 'no serverGroup without a serverId (a group is of one server)',
        });
      }
      const { only } = options;
      if (!Array.isArray(only) || setIssues.length > 0) return;
      only.forEach((name, index) => {
        if (typeof name === 'string' && !Object.hasOwn(set, name)) {
          found.push({
            path: `only[${index}]`,
            value: name,
            expected: `the name of a tool in the set (${namesOfSet(names)})`,
          });
        }
      });
    },
  });
  issues.push(...setIssues);
  const { only, ...options } = (issues.length === 0 ? read : {}) as GuardToolsOptions<ONLY>;
  // Tools `only` leaves out are not judged, even when another option is wrong.
  const guarded = new Set<string>(Array.isArray(read.only) ? read.only : names);
  // Each guarded tool read once (`readTool`): the wrapper checks and uses that copy.
  const group = new Map<string, WrappableTool>();
  for (const name of names) {
    if (!guarded.has(name)) continue;
    const wrappable = readTool(set[name], toolPath(name), name, issues);
    if (wrappable !== undefined) group.set(name, wrappable);
  }
  if (issues.length > 0) throw new GuardrailConfigError(issues);

  const result: Record<string, unknown> = {};
  for (const name of names) {
    const wrappable = group.get(name);
    result[name] = wrappable ? wrapTool(wrappable, name, options, group) : set[name];
  }
  return result as GuardedToolSet<TOOLS, ONLY>;
}

/** Most names of a tool set an error message lists. */
const MAX_LISTED_NAMES = 20;

/**
 * The names of a tool set as an error message lists them: each as a reason
 * shows it (`shownToolName`: quoted, escaped, cut to 64 characters), at
 * most 20. An MCP server chooses its names (round 25: a 200,000-character
 * name went whole into the `GuardrailConfigError`).
 */
function namesOfSet(names: readonly string[]): string {
  const listed = names.slice(0, MAX_LISTED_NAMES).map(shownToolName).join(', ');
  return names.length > MAX_LISTED_NAMES
    ? `${listed}, and ${names.length - MAX_LISTED_NAMES} more`
    : listed;
}

/** A tool's path in an error: `tools.search`, or `tools["…"]` for a name that is not an id (as reasons show it). */
function toolPath(name: string): string {
  return /^[\w$-]{1,64}$/.test(name) ? `tools.${name}` : `tools[${shownToolName(name)}]`;
}

/**
 * The fields of a tool the wrapper reads, inherited ones too (a class's
 * `execute`): read once, with its own fields, by `readTool`.
 */
const toolFields = [
  'type',
  'isProviderExecuted',
  'execute',
  'inputSchema',
  'outputSchema',
  'toModelOutput',
  'onInputAvailable',
  'needsApproval',
  'providerOptions',
  'description',
  'inputExamples',
];

/**
 * A tool read once, when it is wrapped: a copy of its own fields and of
 * the fields the wrapper reads (`toolFields`), which the wrapper checks and
 * then uses for every call, and from which the wrapped tool is made; or
 * `undefined`, with the issues (pushed to `issues`) of a tool that cannot
 * be guarded or read. A getter (or a Proxy trap) runs once: one that
 * throws is an issue naming its error by class (round 39), and one that
 * answers otherwise later changes nothing (round 43: `execute` was read
 * for the check and again for the run, `inputSchema` again on each call,
 * so a getter could hand the check one function or schema and the run
 * another).
 */
function readTool(
  tool: unknown,
  path: string,
  name: string | undefined,
  issues: GuardrailConfigIssue[],
): WrappableTool | undefined {
  const leaveOut = name ? ` (leave ${shownToolName(name)} out with \`only\`)` : '';
  if (tool == null || typeof tool !== 'object') {
    issues.push({ path, value: tool, expected: 'a tool' });
    return undefined;
  }
  const unread: GuardrailConfigIssue[] = [];
  const read = readCallerObject(tool, path, unread, { fields: toolFields });
  if (read === undefined || unread.length > 0) {
    issues.push(...unread);
    return undefined;
  }
  // Judged as read, not read again (round 42: a `type` getter ran twice).
  const { type, isProviderExecuted, execute } = read;
  if (type === 'provider' && isProviderExecuted === true) {
    issues.push({
      path: `${path}.isProviderExecuted`,
      value: true,
      expected: `a tool executed by this process: a provider-executed tool runs on the provider's side and cannot be guarded${leaveOut}`,
    });
    return undefined;
  }
  if (typeof execute !== 'function') {
    issues.push({
      path: `${path}.execute`,
      value: execute,
      expected: `a function: a tool without \`execute\` runs on the client and cannot be guarded${leaveOut}`,
    });
    return undefined;
  }
  callerTools.set(read, tool);
  return read as WrappableTool;
}

/** Each tool `readTool` read, by its copy: `execute` is called on the caller's object, as before (a class's method uses `this`). */
const callerTools = new WeakMap<object, object>();

/**
 * The names of the tools wrapped together (one array per `guardTools`
 * call, shared by its tools): what `pinToolDefinitions` records as the
 * server's tools at its first sight, active in a call or not.
 */
const groupNames = new WeakMap<ReadonlyMap<string, unknown>, readonly string[]>();

/** Most definitions of one listing pinned as listed. */
const MAX_LISTED_DEFINITIONS = 4_096;

/**
 * The names of a group wrapped with a `serverId`, its definitions
 * registered for `pinToolDefinitions` (which pins them as listed) as the AI
 * SDK's `prepareTools` builds them: the input schema as JSON Schema. A tool
 * whose description is a function (resolved per call) or whose schema
 * cannot be read is left out: it is pinned when a call first offers it.
 */
function listingOf(group: ReadonlyMap<string, WrappableTool>): readonly string[] {
  const names = namesOf(group);
  registerServerListing(names, async () => {
    const definitions: ListedDefinition[] = [];
    for (const [name, tool] of [...group].slice(0, MAX_LISTED_DEFINITIONS)) {
      const { description, inputExamples } = tool as {
        description?: unknown;
        inputExamples?: unknown;
      };
      if (description !== undefined && typeof description !== 'string') continue;
      let inputSchema: unknown;
      try {
        inputSchema = await asSchema(tool.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema;
      } catch {
        continue;
      }
      definitions.push({
        name,
        ...(description !== undefined && { description }),
        inputSchema,
        ...(inputExamples != null && { inputExamples }),
      });
    }
    return definitions;
  });
  return names;
}

function namesOf(group: ReadonlyMap<string, unknown>): readonly string[] {
  let names = groupNames.get(group);
  if (!names) {
    names = Object.freeze([...group.keys()]);
    groupNames.set(group, names);
  }
  return names;
}

/**
 * The tool's provider options with `guardrails.serverId` (and
 * `guardrails.serverTools`, the names of the tools wrapped with it) set: the
 * AI SDK passes a tool's `providerOptions` on to the model call, where the
 * middleware reads it (providers read only their own key).
 */
function withServerId(
  providerOptions: unknown,
  serverId: string,
  serverTools: readonly string[],
  serverGroup: string | undefined,
): Record<string, unknown> {
  const own =
    providerOptions !== null && typeof providerOptions === 'object'
      ? (providerOptions as Record<string, unknown>)
      : {};
  const guardrailsOptions =
    own.guardrails !== null && typeof own.guardrails === 'object'
      ? (own.guardrails as Record<string, unknown>)
      : {};
  // A group named on the tool itself (not by this call) is not kept: the group is the app's to name here.
  const { serverGroup: _, ...rest } = guardrailsOptions;
  return {
    ...own,
    guardrails: {
      ...rest,
      serverId,
      serverTools,
      ...(serverGroup !== undefined && { serverGroup }),
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value != null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/**
 * The AI SDK decides from the value `execute` returns (not awaited) whether a
 * tool streams, so the wrapper must commit to "generator" or "promise" before
 * its input guardrails (async) have run: it mirrors the original's kind.
 */
function isAsyncGeneratorFunction(fn: unknown): boolean {
  return Object.prototype.toString.call(fn) === '[object AsyncGeneratorFunction]';
}

/**
 * Tool execution gets `ModelMessage`s; guardrails expect the provider prompt
 * shape. String contents become one text part; other parts are passed as the
 * SDK has them.
 */
function toPromptMessages(messages: readonly ModelMessage[] | undefined): LanguageModelV4Prompt {
  return (messages ?? []).map(message =>
    message.role !== 'system' && typeof message.content === 'string'
      ? { ...message, content: [{ type: 'text', text: message.content }] }
      : message,
  ) as LanguageModelV4Prompt;
}

/** The SDK's default model output for a tool without `toModelOutput`. */
function defaultModelOutput(output: unknown): ToolResultOutput {
  if (typeof output === 'string') return { type: 'text', value: output };
  if (output === undefined) return { type: 'json', value: null };
  const serialised = JSON.stringify(output);
  return {
    type: 'json',
    value: serialised === undefined ? null : (JSON.parse(serialised) as JSONValue),
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `JSON.stringify` replacer of a result: a byte array (`Uint8Array`, a Node
 * `Buffer`, `Uint8ClampedArray`, `Int8Array`) is its UTF-8 text, judged
 * and sent as a string. As JSON it was `{"0":106,...}` (a Buffer
 * `{"type":"Buffer","data":[...]}`): no detector read the address in it,
 * and the model could decode it. Bytes that are not UTF-8 throw: the result
 * fails closed. Reads the holder's own value (`toJSON` has run on `value`).
 */
function bytesAsText(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  // A typed array of 16 bits or more (not BigInt: JSON has no BigInt) is
  // written as an array of its numbers, not `{"0":106,…}`: its character
  // codes are then read as text as a number array's are (round 20: a
  // Uint16Array of `jane.doe@corp.io` passed pii).
  if (
    original instanceof Uint16Array ||
    original instanceof Int16Array ||
    original instanceof Uint32Array ||
    original instanceof Int32Array ||
    original instanceof Float32Array ||
    original instanceof Float64Array
  ) {
    return Array.from(original);
  }
  if (
    !(original instanceof Uint8Array) &&
    !(original instanceof Uint8ClampedArray) &&
    !(original instanceof Int8Array)
  ) {
    return value;
  }
  try {
    return utf8.decode(new Uint8Array(original.buffer, original.byteOffset, original.byteLength));
  } catch {
    throw ownTypeError('a byte array that is not UTF-8 text');
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Errors this module throws itself, whose messages name no value: shown as they are. */
const ownErrors = new WeakSet<object>();

/** A `TypeError` of this module (its message is shown in a record's reason). */
function ownTypeError(message: string): TypeError {
  const error = new TypeError(message);
  ownErrors.add(error);
  return error;
}

/**
 * What a record's reason says of what serialising arguments or a result
 * threw: a message of this module's own, else the class of what was thrown,
 * never its message (a getter's, `toJSON`'s or a Proxy trap's: it quoted the
 * card it was reading, round 38). Never throws: reading a message through a
 * getter that threw made the wrapper throw that getter's error, which the
 * model was then sent as the tool's.
 */
function serialisationError(error: unknown): string {
  if (error !== null && typeof error === 'object' && ownErrors.has(error)) {
    return (error as Error).message;
  }
  return `it threw ${thrownKind(error)}`;
}

/**
 * What the tool's own code threw while it was iterated (a streaming tool),
 * told apart from what the checks between its values throw.
 */
class ThrownByTool {
  constructor(readonly error: unknown) {}
}

/** Iterates what `start` returns, marking what it throws (`start` included) as the tool's. */
async function* markThrownByTool(
  start: () => AsyncIterable<unknown>,
): AsyncGenerator<unknown, void, undefined> {
  try {
    yield* start();
  } catch (error) {
    throw new ThrownByTool(error);
  }
}

/**
 * Whether the AI SDK, reading a thrown value's text again (`getErrorMessage`
 * when it makes the model's `error-text`), gets `text` once more: an `Error`
 * with the standard `toString` over a `name` and `message` that are strings
 * (not getters, nor objects that make their own text), with no Proxy in the
 * way (on it or its prototypes: a trap answers each read as it likes); a
 * primitive. Another object is not: its JSON may come from `toJSON`, getters
 * or traps that answer the SDK's read otherwise than the guardrails' and a
 * check's (round 18: a third read put unjudged text before the model).
 * Called after the guardrails, so an error whose data was rewritten while
 * they judged it is not rethrown either.
 */
function readsAgainAlike(error: unknown, text: string): boolean {
  try {
    if (error instanceof Error) {
      const plain = (value: unknown) => value === undefined || typeof value === 'string';
      return (
        dataProperty(error, 'toString') === Error.prototype.toString &&
        plain(dataProperty(error, 'name')) &&
        plain(dataProperty(error, 'message')) &&
        withoutProxy(error) &&
        // Data can be written: the tool (or a library reusing one error
        // object) rewrote a message while a slow guardrail judged it, and the
        // SDK read the new text (round 19). Read now, after the guardrails.
        getErrorMessage(error) === text &&
        carriesOnlyItsText(error, text)
      );
    }
    if (error !== null && (typeof error === 'object' || typeof error === 'function')) return false;
    return getErrorMessage(error) === text;
  } catch {
    // A trap that throws (`instanceof` reads the prototype).
    return false;
  }
}

/** A line V8 writes for one frame of a stack (`    at fn (file:1:2)`). */
const STACK_FRAME = /^ {4}at \S[^\n]*$/;

/**
 * Whether an error the guardrails allowed carries no text but the one they
 * judged, so the app may get it as it is (`steps[].content`, `onStepFinish`,
 * `fullStream`'s `tool-error`): no `cause`, no field of its own (an
 * `AggregateError`'s `errors`, an API error's response body), only `message`,
 * `name`, `stack` and symbol-keyed flags (the AI SDK's error markers); and a
 * `stack` that is the judged text followed by frames. Round 21: a stack read
 * (so formatted) before the tool cut its message (`card 4111… declined`,
 * then `lookup failed`), a `cause` or a field holding the card reached the
 * app beside a message that passed.
 */
function carriesOnlyItsText(error: Error, text: string): boolean {
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    if (!('value' in descriptor)) return false;
    const { value } = descriptor;
    if (typeof key === 'symbol') {
      if (typeof value === 'string' || (value !== null && typeof value === 'object')) return false;
      continue;
    }
    if (key === 'message' || key === 'name') continue;
    if (key === 'cause' && value === undefined) continue;
    if (key !== 'stack') return false;
    if (value === undefined || value === text) continue;
    if (typeof value !== 'string' || !value.startsWith(`${text}\n`)) return false;
    for (const line of value.slice(text.length + 1).split('\n')) {
      if (!STACK_FRAME.test(line)) return false;
    }
  }
  return true;
}

/**
 * Whether no object on `value`'s prototype chain is a Proxy: the structured
 * clone of a Proxy throws (the only check of it a runtime without Node's
 * `util.types` has). An object that cannot be cloned otherwise (a `cause`
 * holding a function) counts as one: the caller then throws an error of its
 * own with the judged text. No `structuredClone`: none is trusted.
 */
function withoutProxy(value: object): boolean {
  if (typeof structuredClone !== 'function') return false;
  try {
    for (let at: object | null = value; at !== null; at = Object.getPrototypeOf(at)) {
      structuredClone(at);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * A new error whose text for the model (`toString`, as `getErrorMessage`
 * reads it) is `text`, carrying nothing else of `original`: no cause, no
 * properties, a stack of its own. The original's name is kept when `text`
 * still starts with it, so `message` is the rest (what ai@6 shows the model).
 */
function errorWithText(text: string, original: unknown): Error {
  let found: unknown;
  try {
    found = original instanceof Error ? dataProperty(original, 'name') : undefined;
  } catch {
    found = undefined; // a trap that throws
  }
  const name = typeof found === 'string' ? found : undefined;
  const named = name !== undefined && name !== '' && text.startsWith(`${name}: `);
  const replacement = new Error(named ? text.slice(name.length + 2) : text);
  if (!named || name !== 'Error') {
    Object.defineProperty(replacement, 'name', {
      value: named ? name : '',
      writable: true,
      configurable: true,
    });
  }
  return replacement;
}

type CallScope = Omit<GuardrailContext, 'kind' | 'value' | 'abortSignal'> & {
  records: GuardrailRecord[];
  abortSignal: AbortSignal | undefined;
};

/** The argument check of one call, run ahead of its execution (before approval, before siblings run). */
interface InputCheck {
  /** The arguments checked (the object the AI SDK passes on to `execute`). */
  input: unknown;
  scope: CallScope;
  result: Promise<CheckResult>;
}

/** The calls of one step, by the messages array the AI SDK gives every call of the step. */
interface StepChecks {
  calls: Map<string, InputCheck>;
  /** The first call of the step whose arguments tripped. */
  trip?: GuardrailRecord;
  /** Every argument check started in the step, by tool call id (kept after `execute` took it). */
  started: Map<string, Promise<CheckResult>>;
  /** Calls waiting for the check of a sibling to start (stopOnTrip in streams). */
  waiting: Map<string, Array<() => void>>;
}

/**
 * stopOnTrip in streams: how long a call waits for the rest of its step
 * (the other calls to arrive, then their argument checks to start) before
 * it fails closed.
 */
export const STOP_ON_TRIP_WAIT_MS = 10_000;

/** Name of the record of arguments too long to judge (the tool does not run). */
export const TOOL_INPUT_UNREADABLE = 'tool-input-unreadable';

/** Name of the `error` record of a `blockedMessage` function that returned no string (or threw). */
export const BLOCKED_MESSAGE = 'blocked-message';

/** Name of the record of a call the history approves that the server never asked approval for. */
export const TOOL_APPROVAL = 'tool-approval';

const checksByStep = new WeakMap<object, StepChecks>();

function stepChecksOf(messages: unknown): StepChecks | undefined {
  if (messages === null || typeof messages !== 'object') return undefined;
  let step = checksByStep.get(messages);
  if (!step) {
    step = { calls: new Map(), started: new Map(), waiting: new Map() };
    checksByStep.set(messages, step);
  }
  return step;
}

/**
 * The index of the model call that made a tool call: the assistant messages
 * after the last user message of the step's messages (the response with the
 * call is not among them yet).
 */
function stepIndexOf(messages: readonly ModelMessage[] | undefined): number | undefined {
  if (!messages) return undefined;
  let assistants = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const role = messages[i]!.role;
    if (role === 'user') return assistants;
    if (role === 'assistant') assistants++;
  }
  return undefined;
}

type CheckResult =
  | {
      value: unknown;
      trip?: undefined;
      /**
       * Arguments a guardrail that restores placeholders changed (a
       * pseudonymising `pii`): the values it put in, the model was never
       * shown. `toModelOutput` then gets the model's own arguments.
       */
      restored?: true;
    }
  | { value?: undefined; trip: GuardrailRecord };

/** Whether `input` (JSON text) parses and matches the tool's input schema, as the AI SDK requires before it runs any hook. */
async function validArguments(tool: WrappableTool, input: string): Promise<boolean> {
  let value: unknown;
  try {
    value = input.trim() === '' ? {} : JSON.parse(input);
  } catch {
    return false;
  }
  if (tool.inputSchema == null) return true;
  try {
    const validate = asSchema(tool.inputSchema as Parameters<typeof asSchema>[0]).validate;
    return validate ? (await validate(value)).success : true;
  } catch {
    return true; // unsure: wait for it (bounded)
  }
}

function wrapTool(
  tool: WrappableTool,
  toolName: string | undefined,
  {
    input: inputGuardrails = [],
    output: outputGuardrails = [],
    onTrip = 'return',
    blockedMessage,
    onEvent,
    context: metadataFor,
    stopOnTrip = false,
    serverId,
    serverGroup,
    unreadableFiles = 'pass',
    historyApprovals = 'verify',
  }: GuardToolOptions,
  /** The tools wrapped with the same options (`guardTools`), by name: siblings whose checks a stopOnTrip call awaits. */
  group: ReadonlyMap<string, WrappableTool> = new Map(
    toolName === undefined ? [] : [[toolName, tool]],
  ),
): unknown {
  const originalExecute = tool.execute as AnyExecute;
  const executeThis = callerTools.get(tool) ?? tool;
  const ownToModelOutput = tool.toModelOutput;
  const ownOnInputAvailable = tool.onInputAvailable;
  const ownNeedsApproval = tool.needsApproval;
  // Check arguments ahead of execution when something must happen before a call runs.
  // With stopOnTrip every call's check starts there, so its siblings can await it.
  const checkAhead = stopOnTrip || (inputGuardrails.length > 0 && ownNeedsApproval != null);
  // Per-call output guardrails (tokenBudget, rateLimit) judge a call's output
  // once: the result (with what the model is sent of it), not again each
  // text of its model output, nor each value a streaming tool yields (round
  // 27: a session was charged twice for a tool with its own toModelOutput).
  const perCallOutputGuardrails = outputGuardrails.filter(guardrail => guardrail.perCall);
  const eachOutputGuardrails = outputGuardrails.filter(guardrail => !guardrail.perCall);

  function rejection(
    guardrail: string,
    kind: 'tool_input' | 'tool_output',
    reason: string,
    scope: CallScope,
    status: 'blocked' | 'error' = 'blocked',
    said?: Pick<GuardrailRecord, 'message' | 'severity'>,
  ): GuardrailRecord {
    const record: GuardrailRecord = { guardrail, kind, status, reason, durationMs: 0, ...said };
    if (toolName !== undefined) record.toolName = cutToolName(toolName);
    if (scope.toolCallId !== undefined) {
      record.toolCallId = shownToolCallIdOf(scope.state, scope.toolCallId);
    }
    if (serverId !== undefined) record.serverId = cutServerId(serverId);
    scope.records.push(record);
    emitEvent(onEvent, record);
    return record;
  }

  /** The record of a result (or model output) past the limits of a tool result: withheld unjudged. */
  function unjudged(why: string, scope: CallScope, what = 'result'): GuardrailRecord {
    return rejection(
      TOOL_OUTPUT_UNREADABLE,
      'tool_output',
      `the ${what} of ${toolName !== undefined ? `tool ${shownToolName(toolName)}` : 'the tool'} was not judged: ${why}`,
      scope,
      'error',
    );
  }

  /**
   * The record of arguments or a result longer than the limit: not judged.
   * Before round 18 arguments had no limit (10 MB of them were judged
   * whole, and a history a client sends back can approve a call with any).
   */
  function tooLongToJudge(kind: 'tool_input' | 'tool_output', scope: CallScope): GuardrailRecord {
    const why = `the text is longer than ${DEFAULT_MAX_TOOL_OUTPUT_LENGTH} characters`;
    if (kind === 'tool_output') return unjudged(why, scope);
    return rejection(
      TOOL_INPUT_UNREADABLE,
      'tool_input',
      `the arguments of ${toolName !== undefined ? `tool ${shownToolName(toolName)}` : 'the tool'} were not judged: ${why}`,
      scope,
      'error',
    );
  }

  /**
   * Runs one kind's guardrails one at a time through `runChain`, so that each
   * guardrail's `ctx.value` is the parse of the `content` it receives, and a
   * modification that is not JSON is blamed on the guardrail that made it.
   */
  async function check(
    kind: 'tool_input' | 'tool_output',
    guardrails: readonly Guardrail[],
    value: unknown,
    scope: CallScope,
    validateModification = true,
    callInput?: { input: unknown },
  ): Promise<CheckResult> {
    if (guardrails.length === 0) return { value };
    // A string result is the text the model reads (the SDK's default model
    // output is that text): judged as it is. Its JSON literal escapes quotes
    // and line breaks, which hid values from the detectors (a quoted password).
    const asText = kind === 'tool_output' && typeof value === 'string';
    // Arguments and what the model reads of a result have the length limit
    // of a tool result in the prompt (`toolOutputs`): past it, not judged
    // (the tool does not run; the result is withheld). The walk stops at
    // the limit, before canonical JSON is built (a cycle or deep nesting
    // stops it too: canonical JSON then fails closed on it, as before).
    let tooLong = false;
    try {
      tooLong = asText
        ? value.length > DEFAULT_MAX_TOOL_OUTPUT_LENGTH
        : walkJson(value, DEFAULT_MAX_TOOL_OUTPUT_LENGTH).tooLong;
    } catch {
      // A getter or proxy that throws: canonical JSON below fails closed on it.
    }
    if (tooLong) return { trip: tooLongToJudge(kind, scope) };
    let content: string;
    // What the guardrails judged: the result itself, or its JSON copy.
    let judged: unknown = value;
    // What they read of it: the copy with arrays of character codes as text.
    let current: unknown = value;
    let charCodeArrays: CharCodeArray[] = [];
    try {
      if (kind === 'tool_output' && !asText && value !== null && typeof value === 'object') {
        // Read once: the model reads this copy, not the result read again (a
        // getter or `toJSON` answering otherwise the second time gave the
        // model text no guardrail saw), and so does the step's output (the
        // UI stream serialised the result anew: round 18).
        const snapshot: unknown = JSON.parse(JSON.stringify(value, bytesAsText) ?? 'null');
        resultSnapshots.set(value, snapshot);
        judged = snapshot;
        // Arrays of character codes are judged as their text (round 20).
        ({ reading: current, arrays: charCodeArrays } = withCharCodeTexts(snapshot));
        content = canonicalJson(current);
      } else {
        content = asText ? value : canonicalJson(value);
        current = judged;
      }
    } catch (error) {
      // Content no guardrail can read must not pass unchecked: fail closed.
      return {
        trip: rejection(
          guardrails[0]!.name,
          kind,
          `could not serialise the ${kind === 'tool_input' ? 'arguments' : 'result'} as JSON (${serialisationError(error)})`,
          scope,
          'error',
        ),
      };
    }
    // Longer written out than walked (escapes, `toJSON`).
    if (content.length > DEFAULT_MAX_TOOL_OUTPUT_LENGTH)
      return { trip: tooLongToJudge(kind, scope) };
    let lastModifier: string | undefined;
    // A restoring guardrail (pseudonymising `pii`) changed the arguments.
    let restored: true | undefined;
    const { records, abortSignal, ...context } = scope;
    for (const guardrail of guardrails) {
      // A result the tool's own `toModelOutput` turns into what the model is
      // sent: tokenBudget counts that (an image part, not its base64 text),
      // read only when asked. Internal; other guardrails judge the result.
      // Given to tokenBudget alone (round 27: every guardrail's ctx had it).
      const output = lastModifier === undefined ? judged : current;
      const modelOutput =
        callInput !== undefined &&
        ownToModelOutput &&
        kind === 'tool_output' &&
        readsModelOutput(guardrail)
          ? { modelOutput: () => modelView(callInput.input, output, scope) }
          : undefined;
      const result = await runChain(
        [guardrail],
        content,
        { ...context, kind, value: current, ...modelOutput },
        { abortSignal, onEvent },
      );
      records.push(...result.records);
      if (result.trip) return { trip: result.trip };
      if (result.content === content) continue;
      let modified = result.content;
      try {
        // A redacted bare number (`"phone":[PHONE_NUMBER]`) becomes a JSON string.
        if (asText) current = modified;
        else ({ text: modified, value: current } = parseModifiedJson(content, modified));
      } catch (error) {
        return {
          trip: rejection(
            guardrail.name,
            kind,
            `modified the ${kind === 'tool_input' ? 'arguments' : 'result'} into text that is not valid JSON (${jsonErrorDetail(error)})`,
            scope,
          ),
        };
      }
      content = modified;
      lastModifier = guardrail.name;
      if (typeof (guardrail as OutputSideGuardrail).undoneInOutputOnlyByItself === 'string') {
        restored = true;
      }
    }
    if (lastModifier === undefined) return { value: judged };
    // The arrays whose text no guardrail changed go on as their numbers.
    if (charCodeArrays.length > 0) current = restoreCharCodeArrays(current, charCodeArrays);
    const ran = (value: unknown): CheckResult => (restored ? { value, restored } : { value });
    if (!validateModification) return ran(current);

    const schema = kind === 'tool_input' ? tool.inputSchema : tool.outputSchema;
    if (schema == null) return ran(current);
    const validate = asSchema(schema as Parameters<typeof asSchema>[0]).validate;
    if (!validate) return ran(current);
    const validation = await validate(current);
    if (validation.success) return ran(validation.value);
    return {
      trip: rejection(
        lastModifier,
        kind,
        `modified the ${kind === 'tool_input' ? 'arguments' : 'result'} so that they no longer match the ${
          kind === 'tool_input' ? 'input' : 'output'
        } schema of the tool${toolName ? ` ${shownToolName(toolName)}` : ''}: ${errorText(validation.error)}`,
        scope,
      ),
    };
  }

  /** The JSON copy of each result the output guardrails judged, read once (see `check`). */
  const resultSnapshots = new WeakMap<object, unknown>();
  /** The blocked outputs this wrapper returned: their message is its own text. */
  const blockedOutputs = new WeakSet<object>();
  /** Model outputs judged when the call ran, by the call's input object (as `toModelOutput` gets it back). */
  const judgedModelOutputs = new WeakMap<
    object,
    { output: unknown; modelOutput: ToolResultOutput }
  >();

  /** Runs the output guardrails over one text the model reads (a text output or a text part). */
  async function checkModelText(
    text: string,
    scope: CallScope,
    guardrails: readonly Guardrail[] = outputGuardrails,
  ): Promise<{ text: string; trip?: undefined } | { trip: GuardrailRecord }> {
    const { records, abortSignal, ...context } = scope;
    let current = text;
    for (const guardrail of guardrails) {
      const result = await runChain(
        [guardrail],
        current,
        { ...context, kind: 'tool_output', value: current },
        { abortSignal, onEvent },
      );
      records.push(...result.records);
      if (result.trip) return { trip: result.trip };
      current = result.content;
    }
    return { text: current };
  }

  /**
   * The arguments each call ran with, by the input object the AI SDK hands
   * `execute` and, later, `toModelOutput`, when the input guardrails changed
   * them (a redaction). Round 28: the tool's own `toModelOutput` was given
   * the model's arguments, so `looked up ${input.q}` put a value the tool
   * never saw (`ghp_…` redacted to `[GITHUB_TOKEN]`) back into the result
   * the model reads, past output guardrails of other kinds.
   */
  const ranInputs = new WeakMap<object, unknown>();

  /**
   * Keeps what a call ran with when the input guardrails changed its
   * arguments, unless a guardrail restored placeholders in them (round 29):
   * a pseudonymising `pii` puts back values the model was only shown
   * placeholders for, and `sent to ${input.to}` handed the model the
   * address it was never given. Such a call's `toModelOutput` gets the
   * model's own arguments (all of which it wrote itself).
   */
  function rememberRanInput(input: unknown, checked: CheckResult): void {
    if (checked.trip || checked.restored) return;
    if (checked.value !== input && input !== null && typeof input === 'object') {
      ranInputs.set(input, checked.value);
    }
  }

  /** The arguments a call ran with, as `toModelOutput` is given them: the judged ones. */
  function ranInputOf(input: unknown): unknown {
    return input !== null && typeof input === 'object' && ranInputs.has(input)
      ? ranInputs.get(input)
      : input;
  }

  /** What the model is sent of `output` (throws what the tool's `toModelOutput` throws). */
  async function modelView(input: unknown, output: unknown, scope: CallScope): Promise<unknown> {
    // What the model reads of a blocked output, or of anything shaped as
    // one (a history a client sent back): its message alone.
    return hasGuardrailBlockedShape(output)
      ? { type: 'text', value: output.message }
      : ownToModelOutput
        ? await ownToModelOutput({
            toolCallId: scope.toolCallId ?? '',
            input: ranInputOf(input),
            output,
          })
        : defaultModelOutput(output);
  }

  /**
   * What the tool's own `toModelOutput` makes of `output`, judged by the
   * output guardrails: the model reads this, not the result. Its texts are
   * found by `checkModelOutputTexts` (shared with the middleware's
   * `toolOutputs`): text as it is, JSON (`json`, `error-json`) as canonical
   * JSON; a modification is put back in its place. Media and other non-text
   * parts of `content` pass as they are. A `toModelOutput` that
   * throws or returns something else fails closed. `judgedContent`: the
   * canonical JSON the result was judged as, when it was; a JSON model output
   * with the same text is not judged again.
   */
  async function checkModelOutput(
    input: unknown,
    output: unknown,
    scope: CallScope,
    judgedContent?: string,
  ): Promise<{ value: ToolResultOutput; trip?: undefined } | { trip: GuardrailRecord }> {
    // The per-call ones (tokenBudget, rateLimit) judged the call's output once, as a whole.
    const guardrails = eachOutputGuardrails;
    const failClosed = (reason: string) => ({
      trip: rejection(outputGuardrails[0]!.name, 'tool_output', reason, scope, 'error'),
    });
    let view: unknown;
    try {
      view = await modelView(input, output, scope);
    } catch (error) {
      // The error's message may quote the result: only its class is reported.
      return failClosed(`the tool's toModelOutput failed (${errorClass(error)})`);
    }
    // The texts of one model output share the limit of a tool result (as in `toolOutputs`).
    const maxLength = DEFAULT_MAX_TOOL_OUTPUT_LENGTH;
    let length = 0;
    let texts = 0;
    const overLimit = (
      added: number,
      binaryText?: string,
    ): { trip: GuardrailRecord } | undefined => {
      length += added;
      if (++texts > MAX_TOOL_OUTPUT_TEXTS) {
        return { trip: unjudged(`it holds more than ${MAX_TOOL_OUTPUT_TEXTS} texts`, scope) };
      }
      if (length > maxLength) {
        // A binary file's readable text says what it is (as the middleware's reason does).
        const what = binaryText !== undefined && added > maxLength ? binaryText : 'the text is';
        return { trip: unjudged(`${what} longer than ${maxLength} characters`, scope) };
      }
      return undefined;
    };
    const judgedFrom = scope.records.length;
    const checked = await checkModelOutputTexts(view, {
      // Fewer characters than the text will have: past the limit, refused undecoded.
      beforeDecoding: (fewest, binaryText) =>
        length + fewest > maxLength ? overLimit(fewest, binaryText) : undefined,
      text: async (text, place) => {
        const limit = overLimit(text.length);
        if (limit) return limit;
        if (
          place === 'value' &&
          judgedContent !== undefined &&
          typeof output === 'string' &&
          text === output
        ) {
          return { value: text };
        }
        const judged = await checkModelText(text, scope, guardrails);
        return judged.trip ? judged : { value: judged.text };
      },
      json: async value => {
        let text: string | undefined;
        try {
          const problem = jsonLimitProblem(
            walkJson(value, maxLength),
            maxLength - length,
            maxLength,
          );
          if (problem) return { trip: unjudged(problem, scope) };
          text = canonicalJson(value);
        } catch {
          // A cycle, a BigInt, a getter that throws: `check` below fails closed on it.
        }
        if (text !== undefined) {
          const limit = overLimit(text.length);
          if (limit) return limit;
          if (text === judgedContent) return { value };
        }
        return check('tool_output', guardrails, value, scope, false);
      },
      ...(unreadableFiles === 'block' && {
        unreadableFile: (mediaType: unknown) => ({
          trip: rejection(
            UNREADABLE_FILE,
            'tool_output',
            `${unreadableFileReason(mediaType)}, was withheld (unreadableFiles: 'block')`,
            scope,
          ),
        }),
      }),
    });
    if (checked.withheld !== undefined) {
      // A file of a readable output withheld: where, what, and what was found there (round 24).
      return failClosed(
        `the tool's model output was withheld: ${checked.withheld}${foundByModifiers(scope.records.slice(judgedFrom))}`,
      );
    }
    if (checked.unreadable !== undefined) {
      return failClosed(
        `the tool's toModelOutput returned no tool result output the guardrails can read (${checked.unreadable})`,
      );
    }
    if (checked.trip) return { trip: checked.trip };
    return { value: checked.value as ToolResultOutput };
  }

  /**
   * At execution, after the result passed: judges what the tool's own
   * `toModelOutput` makes of it and keeps that for `toModelOutput` to return,
   * so the model reads exactly what was judged. A trip withholds the result.
   */
  async function judgeModelOutput(
    input: unknown,
    output: unknown,
    scope: CallScope,
  ): Promise<GuardrailRecord | undefined> {
    if (outputGuardrails.length === 0) return undefined;
    if (!ownToModelOutput) {
      // The SDK's default model output is the judged result itself.
      if (input !== null && typeof input === 'object') {
        const judged =
          output !== null && typeof output === 'object' ? resultSnapshots.get(output) : undefined;
        judgedModelOutputs.set(input, {
          output,
          modelOutput: defaultModelOutput(judged === undefined ? output : judged),
        });
      }
      return undefined;
    }
    let judgedContent: string | undefined;
    try {
      judgedContent = canonicalJson(output);
    } catch {
      judgedContent = undefined;
    }
    const checked = await checkModelOutput(input, output, scope, judgedContent);
    if (checked.trip) return checked.trip;
    if (input !== null && typeof input === 'object') {
      judgedModelOutputs.set(input, { output, modelOutput: checked.value });
    }
    return undefined;
  }

  /**
   * An output the model reads (a streaming tool's last value; an output
   * `toModelOutput` judges that this wrapper did not return) judged by the
   * per-call output guardrails, once: the other guardrails judge each value
   * as it passes, or each text of its model output. A modification gives
   * the value the model reads instead.
   */
  async function judgeOnce(
    input: unknown,
    last: unknown,
    scope: CallScope,
  ): Promise<{ value: unknown; trip?: undefined } | { trip: GuardrailRecord }> {
    if (perCallOutputGuardrails.length === 0) return { value: last };
    const from = scope.records.length;
    const checked = await check('tool_output', perCallOutputGuardrails, last, scope, true, {
      input,
    });
    if (checked.trip) return checked;
    const modified = scope.records.slice(from).some(record => record.status === 'modified');
    return { value: modified ? checked.value : last };
  }

  function blocked(record: GuardrailRecord, scope: CallScope): GuardrailBlockedOutput {
    if (onTrip === 'throw') {
      const error = new GuardrailTripwireError({ record, records: [...scope.records] });
      if (scope.toolCallId !== undefined && approvedInHistory(scope.toolCallId, scope.messages)) {
        // Run before the first step: the SDK writes the error's text into the
        // tool message, and only that text finds the records again.
        rememberErrorTextRecords(scope.toolCallId, error.toString(), {
          records: [...scope.records],
          tripped: true,
        });
      }
      throw error;
    }
    let message: unknown;
    let failed: string | undefined;
    if (typeof blockedMessage === 'function') {
      try {
        message = blockedMessage(record);
      } catch (error) {
        failed = `threw (${errorClass(error)})`;
      }
    } else message = blockedMessage ?? record.message ?? defaultBlockedMessage(record);
    if (typeof message !== 'string') {
      // An async function's Promise (or no string) was the model's text: a
      // tool error reading "[object Promise]" or the config error instead of
      // a message. The trip stands; the model reads the default message and
      // an `error` record says why. A rejection later is nobody's to handle.
      settleUnawaited(message);
      rejection(
        BLOCKED_MESSAGE,
        record.kind as 'tool_input' | 'tool_output',
        `blockedMessage ${failed ?? `returned no string ${kindOf(message, 'blockedMessage')}`}: the model read the default message`,
        scope,
        'error',
      );
      message = record.message ?? defaultBlockedMessage(record);
    }
    const output = blockedOutput(record, message as string);
    blockedOutputs.add(output);
    return output;
  }

  /**
   * The calls this wrapper ran, by tool call id: each one's input and the
   * messages array of its step (weakly: a step's messages go with the
   * step), so that
   * `toModelOutput` judging a call's output again shows its id as the
   * call's own records did (round 25: it numbered its own, always
   * `#hidden-id-1`). By id and input (round 26: by id alone, two requests
   * at once whose calls shared an id shared the entry, and one request's
   * step numbered the other's call). Bounded, cleared when full.
   */
  const callsById = new Map<string, Array<{ input: unknown; step: WeakRef<object> }>>();

  /**
   * An input as `callsById` keeps it: an object weakly, a long string by
   * its length and ends (a client's 10 MB input is not held), else itself.
   */
  function inputMark(input: unknown): unknown {
    if (input !== null && typeof input === 'object') return new WeakRef(input);
    if (typeof input !== 'string' || input.length <= 256) return input;
    return `${input.length}:${input.slice(0, 64)}\u0000${input.slice(-64)}`;
  }

  function sameInput(mark: unknown, input: unknown): boolean {
    if (mark instanceof WeakRef) return mark.deref() === input;
    return Object.is(mark, inputMark(input));
  }

  function rememberCall(toolCallId: unknown, input: unknown, messages: unknown): void {
    if (typeof toolCallId !== 'string' || toolCallId.length > 256) return;
    if (!Array.isArray(messages)) return;
    let calls = callsById.get(toolCallId);
    if (!calls) {
      if (callsById.size >= 1_024) callsById.clear();
      calls = [];
      callsById.set(toolCallId, calls);
    }
    if (calls.length >= 8) calls.shift();
    calls.push({ input: inputMark(input), step: new WeakRef(messages) });
  }

  /**
   * How the records of the call this wrapper ran with `toolCallId` and
   * `input` showed its id; undefined when it ran no such call. When calls
   * of several requests at once had that id and input and showed it apart,
   * `#hidden-id-?`: which request's call this is cannot be told, and a
   * number of its own (`#hidden-id-1`) was another call's stand-in in the
   * records of that request (round 27).
   */
  function shownIdOfCall(toolCallId: unknown, input: unknown): string | undefined {
    if (typeof toolCallId !== 'string') return undefined;
    let shown: string | undefined;
    for (const call of callsById.get(toolCallId) ?? []) {
      const messages = sameInput(call.input, input) ? call.step.deref() : undefined;
      if (messages === undefined) continue;
      // The step's numbering (its prompt's ids first, then its calls as their records needed one).
      const state = {};
      stepToolCallIds(state, messages);
      const id = shownToolCallIdOf(state, toolCallId);
      if (shown !== undefined && shown !== id) return `${HIDDEN_TOOL_CALL_ID_PREFIX}?`;
      shown = id;
    }
    return shown;
  }

  async function openScope(
    options: ToolExecutionOptions<unknown>,
    input: unknown,
  ): Promise<CallScope> {
    const metadata = metadataFor
      ? await metadataFor({
          toolName,
          toolCallId: options.toolCallId,
          messages: options.messages,
          // ai@6 names the tool context `experimental_context`.
          context:
            options.context ?? (options as { experimental_context?: unknown }).experimental_context,
        })
      : {};
    const step = stepIndexOf(options.messages);
    const state = new Map<string, unknown>();
    // The step's calls number the ids they may not show together, after the step's prompt's.
    stepToolCallIds(state, options.messages);
    rememberCall(options.toolCallId, input, options.messages);
    return {
      messages: toPromptMessages(options.messages),
      toolName,
      toolCallId: options.toolCallId,
      metadata: metadataObject(metadata, 'context') ?? {},
      state,
      records: [],
      abortSignal: options.abortSignal,
      ...(step !== undefined && { step }),
      ...(serverId !== undefined && { serverId }),
    };
  }

  type CallOptions = Pick<ToolExecutionOptions<unknown>, 'toolCallId' | 'messages'> &
    Partial<ToolExecutionOptions<unknown>>;

  /**
   * Starts the argument check of a call, remembered with its step until
   * `execute` takes it (`take`), so the hooks before execution and
   * `execute` share one check. A call made outside the AI SDK's flow (the
   * same options twice) gets a fresh check.
   */
  function inputCheckOf(input: unknown, options: CallOptions, take = false): InputCheck {
    const step = stepChecksOf(options.messages);
    const known = step?.calls.get(options.toolCallId);
    if (known && known.input === input) {
      if (take) step?.calls.delete(options.toolCallId);
      return known;
    }
    const started = openScope(options as ToolExecutionOptions<unknown>, input).then(
      async scope => ({
        scope,
        result: await check('tool_input', inputGuardrails, input, scope),
      }),
    );
    const entry: InputCheck = {
      input,
      // Filled in below; `scope` is read only after `result` settled.
      scope: undefined as unknown as CallScope,
      result: started.then(({ scope, result }) => {
        entry.scope = scope;
        if (result.trip && step && !step.trip) step.trip = result.trip;
        return result;
      }),
    };
    if (!take) step?.calls.set(options.toolCallId, entry);
    if (step && !step.started.has(options.toolCallId)) {
      step.started.set(options.toolCallId, entry.result);
      for (const wake of step.waiting.get(options.toolCallId) ?? []) wake();
      step.waiting.delete(options.toolCallId);
    }
    return entry;
  }

  /**
   * stopOnTrip in streams: waits until the call's step is whole (the
   * middleware saw the step's calls, when it is on the model: see
   * `step-calls.ts`), until the check of every sibling of this wrapper's
   * tools started, and until every started check settled; then returns the
   * step's first trip. Bounded by `STOP_ON_TRIP_WAIT_MS` (then a record with
   * status `error`: the call does not run) and the call's abort signal (then
   * the abort reason is thrown).
   */
  async function siblingTripOf(
    options: ToolExecutionOptions<unknown>,
  ): Promise<GuardrailRecord | { timedOut: true } | undefined> {
    const step = stepChecksOf(options.messages);
    if (!step) return undefined;
    const streamed = streamedStepOf(options.toolCallId);
    const signal = options.abortSignal;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const bound = new Promise<'timeout'>((resolve, reject) => {
      timer = setTimeout(() => resolve('timeout'), STOP_ON_TRIP_WAIT_MS);
      if (signal) {
        onAbort = () => reject(signal.reason);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    const waitFor = <T>(promise: Promise<T>) => Promise.race([promise, bound]);
    try {
      if (streamed) {
        if ((await waitFor(streamed.complete)) === 'timeout') return { timedOut: true };
        const siblings = streamed.calls.filter(
          call =>
            call.toolCallId !== options.toolCallId &&
            group.has(call.toolName) &&
            !step.started.has(call.toolCallId),
        );
        for (const sibling of siblings) {
          if (step.started.has(sibling.toolCallId)) continue;
          // The AI SDK runs no hook for a call whose arguments fail the tool's schema: none to wait for.
          if (!(await validArguments(group.get(sibling.toolName)!, sibling.input))) continue;
          const registered = new Promise<void>(resolve => {
            const list = step.waiting.get(sibling.toolCallId) ?? [];
            list.push(resolve);
            step.waiting.set(sibling.toolCallId, list);
          });
          if ((await waitFor(registered)) === 'timeout') return { timedOut: true };
        }
      }
      const checks = Promise.all(step.started.values());
      if ((await waitFor(checks)) === 'timeout') return { timedOut: true };
      return step.trip;
    } finally {
      clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  /** The blocked output of a call not run because a sibling call of its step tripped. */
  function stoppedBySibling(trip: GuardrailRecord, scope: CallScope): GuardrailBlockedOutput {
    const record = rejection(
      trip.guardrail,
      'tool_input',
      `not run: the arguments of another call of this step${trip.toolCallId ? ` (${trip.toolCallId})` : ''} were blocked (stopOnTrip)`,
      scope,
    );
    return blocked(record, scope);
  }

  /**
   * `historyApprovals: 'verify'`: refuses a call the AI SDK
   * runs only because the history approves it (`approvedInHistory`) when the
   * tool asks for no approval for these arguments, the ones that run: no
   * `needsApproval`, `false`, or a function that answers false for them
   * (asked again, as the SDK asked when the model made the call). The server
   * never issued that approval request: the client wrote it. A
   * `needsApproval` that throws fails closed. Returns the record of the
   * refusal; `undefined`: the call may run.
   */
  async function unrequestedApproval(
    value: unknown,
    options: ToolExecutionOptions<unknown>,
    scope: CallScope,
  ): Promise<GuardrailRecord | undefined> {
    if (historyApprovals === 'trust' || !approvedInHistory(options.toolCallId, options.messages)) {
      return undefined;
    }
    const tool = toolName !== undefined ? `tool ${shownToolName(toolName)}` : 'the tool';
    let asks: boolean;
    try {
      asks =
        typeof ownNeedsApproval === 'function'
          ? Boolean(await ownNeedsApproval(value, options as never))
          : ownNeedsApproval === true;
    } catch (error) {
      return rejection(
        TOOL_APPROVAL,
        'tool_input',
        `the history approves a call of ${tool}, and its needsApproval, asked whether the call needs approval, failed (${errorClass(error)}): not run`,
        scope,
        'error',
      );
    }
    if (asks) return undefined;
    const why =
      ownNeedsApproval == null
        ? 'asks for no approval (no needsApproval)'
        : 'asks for no approval for these arguments (needsApproval is false for them)';
    return rejection(
      TOOL_APPROVAL,
      'tool_input',
      `the history approves a call of ${tool}, which ${why}: the server never requested that approval`,
      scope,
      'blocked',
      {
        message: 'This tool call was not run: it was approved without an approval request.',
        severity: 'critical',
      },
    );
  }

  /**
   * The argument check of a call at execution: the one run ahead when there
   * is one, else run now. With `stopOnTrip`, a sibling's trip stops the call.
   */
  async function checkedInput(
    input: unknown,
    options: ToolExecutionOptions<unknown>,
  ): Promise<{ scope: CallScope; result: CheckResult; stopped?: GuardrailBlockedOutput }> {
    if (inputGuardrails.length === 0 && !stopOnTrip) {
      const scope = await openScope(options, input);
      return { scope, result: { value: input } };
    }
    const entry = inputCheckOf(input, options, true);
    const result = await entry.result;
    const scope = entry.scope;
    if (!stopOnTrip || result.trip) return { scope, result };
    const siblingTrip = await siblingTripOf(options);
    if (siblingTrip && 'timedOut' in siblingTrip) {
      const record = rejection(
        inputGuardrails[0]?.name ?? 'stop-on-trip',
        'tool_input',
        `not run: the other calls of this step were not all known and checked within ${STOP_ON_TRIP_WAIT_MS} ms (stopOnTrip fails closed)`,
        scope,
        'error',
      );
      return { scope, result, stopped: blocked(record, scope) };
    }
    if (siblingTrip) return { scope, result, stopped: stoppedBySibling(siblingTrip, scope) };
    return { scope, result };
  }

  /**
   * What the tool's `execute` threw (or its iteration): the AI SDK gives the
   * model its text (`getErrorMessage`, an `error-text` tool result), which
   * the output guardrails judge as they judge a result. Allowed: the
   * original is rethrown when it carries nothing but that text
   * ({@link carriesOnlyItsText}), else an error with the text alone. Modified: an error with the new text alone is
   * thrown. Tripped: the blocked output (or `GuardrailTripwireError`), as
   * for a result. Never returns otherwise.
   */
  async function judgedToolError(
    input: unknown,
    error: unknown,
    scope: CallScope,
  ): Promise<GuardrailBlockedOutput> {
    if (outputGuardrails.length === 0) throw error;
    let text: string | undefined;
    let trip: GuardrailRecord | undefined;
    try {
      text = getErrorMessage(error);
    } catch (readError) {
      // The SDK fails on it too; the text it could have read is not reported.
      trip = rejection(
        outputGuardrails[0]!.name,
        'tool_output',
        `could not read the text of the error the tool threw (${errorClass(readError)})`,
        scope,
        'error',
      );
    }
    // No text (a thrown function or symbol): the model reads none.
    if (trip === undefined && typeof text !== 'string') throw error;
    if (trip === undefined && text!.length > DEFAULT_MAX_TOOL_OUTPUT_LENGTH) {
      trip = unjudged(
        `the text is longer than ${DEFAULT_MAX_TOOL_OUTPUT_LENGTH} characters`,
        scope,
        'error',
      );
    }
    const judged = trip ? { trip } : await checkModelText(text!, scope);
    if (judged.trip) {
      remember(input, scope, true);
      return blocked(judged.trip, scope);
    }
    // Rethrown only when the SDK, reading it again, reads what was judged.
    if (judged.text === text && readsAgainAlike(error, text)) throw error;
    throw errorWithText(judged.text, error);
  }

  /** Keeps the call's records where `getGuardrailOutcome(result)` finds them. */
  function remember(input: unknown, scope: CallScope, tripped: boolean): void {
    rememberToolCallRecords(input, { records: scope.records, tripped });
  }

  /** Checks each yielded value before it is passed on; a trip ends the source iteration. */
  async function* checkEach(
    source: AsyncIterable<unknown>,
    scope: CallScope,
    input: unknown,
  ): AsyncGenerator<unknown, void, undefined> {
    for await (const value of source) {
      const result = await check('tool_output', eachOutputGuardrails, value, scope, true, {
        input,
      });
      if (result.trip) {
        yield blocked(result.trip, scope);
        return;
      }
      yield result.value;
    }
  }

  const execute = isAsyncGeneratorFunction(originalExecute)
    ? async function* (input: unknown, options: ToolExecutionOptions<unknown>) {
        const { scope, result: checked, stopped } = await checkedInput(input, options);
        remember(input, scope, checked.trip !== undefined || stopped !== undefined);
        if (stopped) {
          yield stopped;
          return;
        }
        if (checked.trip) {
          yield blocked(checked.trip, scope);
          return;
        }
        const refused = await unrequestedApproval(checked.value, options, scope);
        if (refused) {
          remember(input, scope, true);
          yield blocked(refused, scope);
          return;
        }
        rememberRanInput(input, checked);
        const source = markThrownByTool(
          () => originalExecute.call(executeThis, checked.value, options) as AsyncIterable<unknown>,
        );
        let last: unknown;
        let ended = false;
        let values = 0;
        try {
          for await (const value of checkEach(source, scope, input)) {
            if (isGuardrailBlocked(value)) {
              remember(input, scope, true);
              ended = true;
            }
            last = value;
            values++;
            yield value;
          }
        } catch (error) {
          if (!(error instanceof ThrownByTool)) throw error;
          yield await judgedToolError(input, error.error, scope);
          return;
        }
        if (!ended && values > 0) {
          const once = await judgeOnce(input, last, scope);
          if (once.trip) {
            remember(input, scope, true);
            yield blocked(once.trip, scope);
            return;
          }
          if (once.value !== last) {
            last = once.value;
            yield last;
          }
        }
        // The last value is the output the model reads (through toModelOutput).
        const trip = ended ? undefined : await judgeModelOutput(input, last, scope);
        if (trip) {
          remember(input, scope, true);
          yield blocked(trip, scope);
        }
      }
    : async (input: unknown, options: ToolExecutionOptions<unknown>) => {
        const { scope, result: checked, stopped } = await checkedInput(input, options);
        remember(input, scope, checked.trip !== undefined || stopped !== undefined);
        if (stopped) return stopped;
        if (checked.trip) return blocked(checked.trip, scope);
        const refused = await unrequestedApproval(checked.value, options, scope);
        if (refused) {
          remember(input, scope, true);
          return blocked(refused, scope);
        }
        rememberRanInput(input, checked);
        let result: unknown;
        try {
          result = await originalExecute.call(executeThis, checked.value, options);
        } catch (error) {
          return await judgedToolError(input, error, scope);
        }
        if (isAsyncIterable(result)) {
          // A plain function returning an iterable: its updates cannot be
          // streamed through a promise, but each one is still checked and the
          // last one is the output, as the SDK would make it.
          let last: unknown;
          let values = 0;
          try {
            for await (const value of checkEach(
              markThrownByTool(() => result),
              scope,
              input,
            )) {
              last = value;
              values++;
            }
          } catch (error) {
            if (!(error instanceof ThrownByTool)) throw error;
            return await judgedToolError(input, error.error, scope);
          }
          if (values > 0 && !isGuardrailBlocked(last)) {
            const once = await judgeOnce(input, last, scope);
            if (once.trip) {
              remember(input, scope, true);
              return blocked(once.trip, scope);
            }
            last = once.value;
          }
          const trip = isGuardrailBlocked(last)
            ? undefined
            : await judgeModelOutput(input, last, scope);
          if (isGuardrailBlocked(last) || trip) remember(input, scope, true);
          return trip ? blocked(trip, scope) : last;
        }
        const output = await check('tool_output', outputGuardrails, result, scope, true, { input });
        const trip = output.trip ?? (await judgeModelOutput(input, output.value, scope));
        if (trip) remember(input, scope, true);
        return trip ? blocked(trip, scope) : output.value;
      };

  const wrapped: Record<string, unknown> = {
    ...tool,
    ...(serverId !== undefined && {
      providerOptions: withServerId(tool.providerOptions, serverId, listingOf(group), serverGroup),
    }),
    execute,
    ...(checkAhead && {
      // Called for every tool call of a step before any of them runs.
      onInputAvailable: async (options: CallOptions & { input: unknown }) => {
        await ownOnInputAvailable?.(options);
        await inputCheckOf(options.input, options).result;
      },
    }),
    ...(ownNeedsApproval != null && {
      // Asked before approval: a call the guardrails block is never offered for approval
      // (it runs straight to its blocked output instead).
      needsApproval: async (input: unknown, options: CallOptions) => {
        const checked = await inputCheckOf(input, options).result;
        if (checked.trip) return false;
        if (stopOnTrip && stepChecksOf(options.messages)?.trip) return false;
        return typeof ownNeedsApproval === 'function'
          ? await ownNeedsApproval(checked.value, options as never)
          : ownNeedsApproval;
      },
    }),
    toModelOutput: async (options: { toolCallId: string; input: unknown; output: unknown }) => {
      const madeHere = isGuardrailBlocked(options.output) && blockedOutputs.has(options.output);
      if (outputGuardrails.length === 0 || madeHere) {
        if (hasGuardrailBlockedShape(options.output)) {
          return { type: 'text', value: options.output.message } satisfies ToolResultOutput;
        }
        return ownToModelOutput
          ? await ownToModelOutput({ ...options, input: ranInputOf(options.input) })
          : defaultModelOutput(options.output);
      }
      const input = options.input;
      const judged =
        input !== null && typeof input === 'object' ? judgedModelOutputs.get(input) : undefined;
      if (judged && Object.is(judged.output, options.output)) return judged.modelOutput;
      // An output this wrapper did not return (a UI history a client sent
      // back, converted to model messages; an output built by the app; a
      // blocked output that went through JSON): judged now, without the
      // call's messages or metadata.
      const scope: CallScope = {
        messages: [],
        toolName,
        toolCallId: options.toolCallId,
        metadata: {},
        state: new Map(),
        records: [],
        abortSignal: undefined,
        ...(serverId !== undefined && { serverId }),
      };
      // A call this wrapper ran: its id is shown as its execution's records showed it.
      const shown = shownIdOfCall(options.toolCallId, input);
      if (shown !== undefined) showToolCallIdAs(scope.state, options.toolCallId, shown);
      // The per-call ones judge the output once (counting what the model is sent), the rest each text.
      const once = await judgeOnce(input, options.output, scope);
      const checked = once.trip ? once : await checkModelOutput(input, once.value, scope);
      if (!checked.trip) return checked.value;
      return {
        type: 'text',
        value: blocked(checked.trip, scope).message,
      } satisfies ToolResultOutput;
    },
  };

  // An approved call the AI SDK runs before the first step (a history the
  // client sent back) is in no step: its records are found from the model
  // output made here, which its tool message carries (`getGuardrailOutcome`).
  const modelOutputFor = wrapped.toModelOutput as (
    options: Parameters<NonNullable<WrappableTool['toModelOutput']>>[0],
  ) => Promise<ToolResultOutput>;
  wrapped.toModelOutput = async (
    options: Parameters<NonNullable<WrappableTool['toModelOutput']>>[0],
  ) => {
    const modelOutput = await modelOutputFor(options);
    const known = toolCallRecordsOf(options.input);
    if (known) rememberModelOutputRecords(modelOutput, known);
    return modelOutput;
  };

  if (tool.outputSchema != null) {
    // UI message validation checks outputs against `outputSchema`; a blocked
    // output must pass it too.
    const original = asSchema(tool.outputSchema as Parameters<typeof asSchema>[0]);
    wrapped.outputSchema = jsonSchema(
      async () => ({ anyOf: [await original.jsonSchema, blockedOutputJsonSchema] }),
      {
        // The shape, not the mark: UI messages a client sends back went through JSON.
        validate: async value =>
          hasGuardrailBlockedShape(value)
            ? { success: true, value }
            : original.validate
              ? await original.validate(value)
              : { success: true, value },
      },
    );
  }
  return wrapped;
}
