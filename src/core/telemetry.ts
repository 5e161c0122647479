import { cutToolName } from './shown-tool-calls';
import type { GuardrailKind, GuardrailRecord } from './types';

/*
 * A tiny adapter over the OpenTelemetry API's global registration instead of
 * an import of `@opentelemetry/api`: the package stays an optional peer and
 * the core stays edge-safe. `@opentelemetry/api` 1.x keeps the registered
 * tracer provider and context manager under `Symbol.for('opentelemetry.js.api.1')`
 * precisely so that separate copies of the API share them; reading it here is
 * the same lookup `trace.getTracer()` does. No tracer registered: no spans,
 * one property read per check.
 */

const OTEL_API_KEY = Symbol.for('opentelemetry.js.api.1');
const SPAN_CONTEXT_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
const SPAN_STATUS_ERROR = 2;
const SPAN_KIND_INTERNAL = 0;

/** Name of the span around each guardrail check. */
export const GUARDRAIL_SPAN_NAME = 'ai_guardrails.check';

type Attributes = Record<string, string | number | boolean>;

interface SpanLike {
  setAttributes(attributes: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

interface OtelContext {
  setValue(key: symbol, value: unknown): OtelContext;
}

interface TracerLike {
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes }): SpanLike;
}

interface OtelGlobal {
  version?: string;
  trace?: { getTracer(name: string, version?: string): TracerLike };
  context?: {
    active(): OtelContext;
    with<A extends unknown[], R>(
      context: OtelContext,
      fn: (...args: A) => R,
      thisArg?: unknown,
      ...args: A
    ): R;
  };
}

/** An open guardrail span and the context manager to activate it in. */
export interface GuardrailSpan {
  span: SpanLike;
  otel: OtelGlobal;
}

let cachedProvider: OtelGlobal['trace'];
let cachedTracer: TracerLike | undefined;

function otelGlobal(): OtelGlobal | undefined {
  const registered = (globalThis as Record<symbol, OtelGlobal | undefined>)[OTEL_API_KEY];
  if (!registered?.trace || !registered.version?.startsWith('1.')) return undefined;
  return registered;
}

function tracerOf(otel: OtelGlobal): TracerLike | undefined {
  if (otel.trace !== cachedProvider) {
    cachedProvider = otel.trace;
    cachedTracer = otel.trace?.getTracer('ai-guardrails');
  }
  return cachedTracer;
}

/**
 * Opens an `ai_guardrails.check` span for one guardrail check, as a child of
 * the active span (the AI SDK's call span when its telemetry is enabled).
 * Attributes name the guardrail, kind and tool; never the content. Returns
 * `undefined` (and costs nothing more) when no tracer provider is registered.
 */
export function startGuardrailSpan(
  guardrail: string,
  context: { kind: GuardrailKind; toolName?: string },
): GuardrailSpan | undefined {
  const otel = otelGlobal();
  if (!otel) return undefined;
  try {
    const tracer = tracerOf(otel);
    if (!tracer) return undefined;
    const attributes: Attributes = {
      'ai_guardrails.guardrail.name': guardrail,
      'ai_guardrails.guardrail.kind': context.kind,
    };
    if (context.toolName !== undefined) {
      // An MCP server chooses its names: a 200,000-character one went whole into spans.
      attributes['ai_guardrails.tool.name'] = cutToolName(context.toolName);
    }
    const span = tracer.startSpan(GUARDRAIL_SPAN_NAME, { kind: SPAN_KIND_INTERNAL, attributes });
    return { span, otel };
  } catch {
    return undefined; // telemetry must never change the outcome of a check
  }
}

/**
 * Runs `fn` with the guardrail span active, so spans the check itself opens
 * (an LLM judge's own `generateText` call) nest under it.
 */
export function withGuardrailSpan<T>(handle: GuardrailSpan | undefined, fn: () => T): T {
  const contextManager = handle?.otel.context;
  if (!handle || !contextManager) return fn();
  let active: OtelContext;
  try {
    active = contextManager.active().setValue(SPAN_CONTEXT_KEY, handle.span);
  } catch {
    return fn();
  }
  return contextManager.with(active, fn);
}

/**
 * Closes the span with the record's status and duration (and an error
 * status for `error`), and the record's `role` / `part` when it has them.
 */
export function endGuardrailSpan(handle: GuardrailSpan | undefined, record: GuardrailRecord) {
  if (!handle) return;
  try {
    const attributes: Attributes = {
      'ai_guardrails.status': record.status,
      'ai_guardrails.duration_ms': record.durationMs,
    };
    if (record.severity !== undefined) attributes['ai_guardrails.severity'] = record.severity;
    if (record.attempt !== undefined) attributes['ai_guardrails.attempt'] = record.attempt;
    // What an input text was, as on its record (a non-user text; a user's file): names, never values.
    if (record.role !== undefined) attributes['ai_guardrails.input.role'] = record.role;
    if (record.part !== undefined) attributes['ai_guardrails.input.part'] = record.part;
    handle.span.setAttributes(attributes);
    if (record.status === 'error') handle.span.setStatus({ code: SPAN_STATUS_ERROR });
    handle.span.end();
  } catch {
    // Observability must not change the outcome of the call.
  }
}
