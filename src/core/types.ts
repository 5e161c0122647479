import type {
  JSONValue,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';

/**
 * Where a guardrail runs:
 * - `input`: the text of user messages, before the model is called;
 * - `output`: the text of each model response;
 * - `tool_input`: a tool call's arguments, before the tool runs;
 * - `tool_output`: a tool's result, before the model sees it;
 * - `tool_definition`: a tool's definition (name, description, input-schema
 *   text), before the model is given the tool.
 */
export type GuardrailKind = 'input' | 'output' | 'tool_input' | 'tool_output' | 'tool_definition';

/** How serious a block is. Free for guardrails to set; reported in records. */
export type GuardrailSeverity = 'info' | 'warning' | 'critical';

/** Let the content through unchanged. */
export type AllowVerdict = { action: 'allow'; info?: JSONValue };

/** Trip the wire: stop the chain and end the call (or the tool call). */
export type BlockVerdict = {
  action: 'block';
  /** User-facing text; the default blocked message when the middleware sets none. */
  message?: string;
  /** Why it tripped, for logs and records (not shown to the end user by default). */
  reason?: string;
  severity?: GuardrailSeverity;
  info?: JSONValue;
  /**
   * `false`: the middleware's `retry` must not ask the model again after
   * this block (the feedback or the blocked answer would show the model
   * something it must not see again). `'without-answer'`: retry with the
   * feedback only, never sending the blocked answer back (it holds the
   * values the block is about). Default: the guardrail's `retryable`.
   */
  retryable?: GuardrailRetryable;
};

/** Replace the content (for example with a redacted copy) and go on. */
export type ModifyVerdict = { action: 'modify'; content: string; info?: JSONValue };

/** What a guardrail decides about one piece of content. */
export type Verdict = AllowVerdict | BlockVerdict | ModifyVerdict;

/**
 * Per-call values that guardrails may key on (a session id, a user id, ...).
 * Taken from the call's `providerOptions.guardrails` or from the middleware's
 * `context(params)` option.
 */
export type GuardrailMetadata = Record<string, JSONValue | undefined>;

/** Who wrote an input text: a message's role in the prompt. */
export type GuardrailInputRole = 'system' | 'user' | 'assistant' | 'tool';

/**
 * Which part of a message an input text is: its `text` parts (a system
 * message's content), its `reasoning` parts, one `file` (or `reasoning-file`)
 * part the model reads as text (inline text, or a text media type's bytes
 * decoded as UTF-8), one `file` part's `filename` (`file-name`: providers
 * send it to the model; an assistant's with `inputScope: 'all'`), one
 * `tool-call` part's input (as canonical JSON), one
 * `tool-approval-response` part's reason, or the `provider-options` of a
 * message or of one part (as canonical JSON; a user message's always,
 * others' with `inputScope: 'all'`).
 */
export type GuardrailInputPart =
  | 'text'
  | 'reasoning'
  | 'file'
  | 'file-name'
  | 'tool-call'
  | 'tool-approval-response'
  | 'provider-options';

/** What a guardrail knows about the call besides the content it judges. */
export interface GuardrailContext {
  /** Where the guardrail runs. */
  kind: GuardrailKind;
  /**
   * `input` only: the role of the message the text came from. `'assistant'`
   * and `'tool'` texts are judged only with `inputScope: 'all'` (the client
   * sends them as history). Undefined for per-call guardrails.
   */
  role?: GuardrailInputRole;
  /**
   * Which part of that message the text is (`input`; undefined for per-call
   * guardrails), or `'file'` for a file the model generated (`output`).
   */
  part?: GuardrailInputPart;
  /**
   * `output` of a file the model generated (`ctx.part` `'file'`): whether it
   * is a `file` part or (with `checkReasoning`) a `reasoning-file` part, its
   * media type as the model gave it, and its index among the response's
   * parts of that type (`result.files` order for `file` parts).
   */
  file?: { type: 'file' | 'reasoning-file'; mediaType: string; index: number };
  /** The prompt of the model call (for tool kinds: the messages the tool call came from). */
  messages: LanguageModelV4Prompt;
  /** Tool name, for `tool_input`, `tool_output` and `tool_definition` (and an `input` text of part `tool-call`). */
  toolName?: string;
  /** Tool call id, for `tool_input` and `tool_output` (and an `input` text of part `tool-call`). */
  toolCallId?: string;
  /** The MCP server (or other source) of the tool, when `guardTools` was given a `serverId`. */
  serverId?: string;
  /**
   * The parsed value behind `content` when there is one: the tool arguments
   * (`tool_input`, and an `input` text of part `tool-call`: the arguments a
   * tool call in the history claims), the tool result (`tool_output`) or the tool definition
   * as the model would get it (`tool_definition`: `{ name, description,
   * inputSchema, inputExamples }`).
   */
  value?: unknown;
  /**
   * `output` only: the token usage the model reported for the response, when
   * known (generate results; in streams, once the finish part arrived).
   */
  usage?: LanguageModelV4Usage;
  /**
   * The call's `maxOutputTokens`, when it set one: the most the answer can
   * cost, which budgets reserve before the model runs.
   */
  maxOutputTokens?: number;
  /**
   * `input` only: the tools of the model call as the provider is given them
   * (their names, descriptions and schemas are billed as input tokens).
   */
  tools?: LanguageModelV4CallOptions['tools'];
  /** Aborts when the call is cancelled or the guardrail exceeds its `timeoutMs`. */
  abortSignal: AbortSignal;
  /** Per-call values such as `sessionId` / `userId`. */
  metadata: GuardrailMetadata;
  /**
   * The 0-based index of the model call within a `generateText` / `streamText`
   * run (step 0 is the first call, step 1 the call after the first tool
   * results, ...), when known; for tool kinds, the step whose response made
   * the tool call. Undefined when the caller gives no way to tell.
   */
  step?: number;
  /**
   * `output` with the middleware's `retry`: which answer of the call is
   * judged (1 is the first, 2 the first retry...). A new attempt is a new
   * model call: a guardrail that counts calls or tokens counts it too.
   */
  attempt?: number;
  /**
   * State shared by the guardrails of one model call (input and output see the
   * same map), for guardrails that must remember something between the two.
   */
  state: Map<string, unknown>;
}

/**
 * A check over text. Build one with `defineGuardrail` or implement the
 * interface directly.
 */
export interface Guardrail {
  /** Unique, stable name; reported in records and events. */
  name: string;
  /** Judges `content`. May be async. A throw or rejection fails closed. */
  check(content: string, ctx: GuardrailContext): Verdict | PromiseLike<Verdict>;
  /** True when the guardrail may judge a text from a bounded window (see streaming modes). */
  streamSafe?: boolean;
  /** The longest text the guardrail must see whole, for stream windows. */
  maxMatchLength?: number;
  /**
   * Stream-safe guardrails, optional: lets `window` mode release text early.
   * Given the unreleased text of a streamed answer, returns the earliest
   * index at which more text could still create or change a match (the
   * start of a trailing run of characters that could belong to one), or
   * `text.length` when nothing at its end can. Text before it is released as
   * soon as it is judged. Be conservative (a class of characters, not one
   * pattern): an index too late lets text out before its match is complete.
   * Without it, the window holds back `maxMatchLength` characters.
   */
  potentialMatchStart?: (text: string) => number;
  /**
   * Stream-safe guardrails, optional: a cheap pre-filter for `window` mode,
   * which checks the text again and again as it streams. Return false only
   * when `check` would surely allow `text` unchanged and report nothing (no
   * character a match needs is in it); `window` mode then skips the check
   * and records a pass. Be conservative: true (or a throw) runs the check.
   */
  mayMatch?: (text: string) => boolean;
  /**
   * Optional, with `mayMatch`: how far its decision reads, in characters
   * (a run of whitespace counting as one). Declaring it promises that for
   * any texts `a` and `b`, `mayMatch(a + b)` is true only if `mayMatch(a)`
   * or `mayMatch(tail + b)` is, where `tail` is the end of `a` holding its
   * last `mayMatchReach` characters. `window` mode then asks `mayMatch` only
   * about the text received since its last check and that tail, not the
   * whole checked text again. Absent: `mayMatch` is asked about the whole text.
   */
  mayMatchReach?: number;
  /**
   * Fail after this many milliseconds (status `error`, then `onError`
   * applies). Default: the middleware's or tool wrapper's `defaultTimeoutMs`
   * (30 seconds), so a check that never settles fails closed.
   */
  timeoutMs?: number;
  /** What an error or timeout does: `'block'` (fail closed, default) or `'allow'`. */
  onError?: 'block' | 'allow';
  /**
   * Input guardrails only: run concurrently with the model call instead of
   * before it. Such a guardrail can only allow or block (a modification comes
   * too late to change the prompt and is treated as an allow). In any other
   * list (`output`, `toolDefinitions`, `toolOutputs`, `guardTools`' `input`
   * and `output`) it is a `GuardrailConfigError`.
   */
  parallel?: boolean;
  /**
   * Input guardrails only: what the verdict on a text depends on, which
   * decides whether the middleware may remember it (see `GuardrailCachePolicy`).
   * Default `'content'`.
   */
  cache?: GuardrailCachePolicy;
  /**
   * Identifies this guardrail's configuration in the verdict cache, next to
   * its `name`: remembered verdicts are reused only by a guardrail with the
   * same name and fingerprint. Built-ins derive it from their options; a
   * custom guardrail without one is identified by its name alone, so give it
   * a new name or fingerprint when its behaviour changes.
   */
  fingerprint?: string;
  /**
   * Input guardrails only: judge the call, not a text. Runs exactly once per
   * model call whatever the prompt holds (images only, no text, many parts),
   * is never cached, and sees as `content` the user text of the prompt joined
   * with newlines (possibly empty); `ctx.messages` holds the whole prompt.
   * Rate limits and budgets are per-call.
   */
  perCall?: boolean;
  /**
   * Output guardrails only, for the middleware's `retry`: `false` when the
   * model must not be asked again after this guardrail blocked (the
   * built-in `secrets`: a credential must not be shown to the model again);
   * `'without-answer'` when it may, but with the feedback only, never the
   * blocked answer (`pii`, `urlFilter`, `invisibleText`: the answer holds
   * the values the block is about). Default true.
   */
  retryable?: GuardrailRetryable;
}

/**
 * What an input guardrail's verdict on a text depends on:
 * - `'content'`: the text alone. The verdict is remembered by content hash
 *   (per guardrail name and fingerprint), so a history already judged is not
 *   judged again, by this middleware or any other sharing its store.
 * - `{ metadata: [...] }`: the text and these `ctx.metadata` keys. The verdict
 *   is remembered per text and per value of those keys.
 * - `'none'`: something else too (time, counters, the rest of the prompt).
 *   Never remembered: every user text of every call is judged again.
 */
export type GuardrailCachePolicy = 'content' | { metadata: readonly string[] } | 'none';

/**
 * Whether the middleware's `retry` may ask the model again after a block:
 * `true`, `false`, or `'without-answer'` (with the feedback only).
 */
export type GuardrailRetryable = boolean | 'without-answer';

/** What happened at one step of a chain. JSON-serialisable. */
export interface GuardrailRecord {
  guardrail: string;
  kind: GuardrailKind;
  status: 'passed' | 'blocked' | 'modified' | 'error';
  message?: string;
  reason?: string;
  severity?: string;
  info?: JSONValue;
  toolName?: string;
  toolCallId?: string;
  /**
   * `input` records of a text that is not a user message's text: the role
   * of its message (`'system'`, `'assistant'`, `'tool'`) and which part it
   * is (`ctx.role`, `ctx.part`). Absent on a user text's record; a user
   * message's file has `part: 'file'` and no role, as has an `output`
   * record of a file the model generated.
   */
  role?: Exclude<GuardrailInputRole, 'user'>;
  part?: GuardrailInputPart;
  /**
   * The MCP server (or other source) a tool came from, when `guardTools`
   * was given a `serverId`: on its tool records and its `tool_definition`
   * records.
   */
  serverId?: string;
  durationMs: number;
  /**
   * True when the record repeats a remembered verdict instead of a new
   * judgment: only a remembered block makes a record (it trips the call);
   * remembered passes and modifications make none.
   */
  cached?: boolean;
  /**
   * With the middleware's `retry`: which attempt of the model call the
   * output record judged (1 is the first answer, 2 the first retry, ...).
   */
  attempt?: number;
  /** Present when the blocking verdict restricted retries (`false` or `'without-answer'`). */
  retryable?: false | 'without-answer';
}

/** The guardrail outcome of a call, a step or a whole run. */
export interface GuardrailOutcome {
  status: 'passed' | 'modified' | 'blocked';
  records: GuardrailRecord[];
  /**
   * Input and tool-definition verdicts taken from the verdict cache instead
   * of judging again (texts and definitions already judged on an earlier
   * call); they make no records.
   */
  cachedVerdicts?: number;
}

/** One event per guardrail decision, for logging and metrics. */
export interface GuardrailEvent {
  type: 'guardrail.passed' | 'guardrail.blocked' | 'guardrail.modified' | 'guardrail.error';
  record: GuardrailRecord;
}

/** Receives guardrail events. A listener that throws never breaks the call. */
export type GuardrailEventListener = (event: GuardrailEvent) => void;
