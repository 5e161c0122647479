import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail, GuardrailContext, GuardrailSeverity, Verdict } from '../../core/types';
import {
  compileExpression,
  DEFAULT_MAX_NODES,
  type ExpressionVariables,
} from './compile-expression';
import { expressionOptionShape } from './expression-options';

/** Options of `expression`. */
export interface ExpressionOptions {
  /**
   * A CEL expression. It sees `content` (string), `kind` (`'input'`,
   * `'output'`, `'tool_input'`, `'tool_output'`, `'tool_definition'`),
   * `metadata` (map), `tool` (map: `name`, `serverId` when the tools were
   * guarded with one, and `args` for `tool_input` / `result` for
   * `tool_output`; for `tool_definition` the name, and `content` is the
   * definition text; empty for other kinds), `step` (int, the model call's index in the run,
   * -1 when unknown), and `now()` (timestamp) / `today()` (`"YYYY-MM-DD"`,
   * UTC) besides CEL's string, regex (RE2) and list functions.
   *
   * It returns `true` (allow), `false` (block with `reason`), a string (the
   * content, modified) or a map `{ allowed, reason, severity, modified }`.
   * Any other result, and any evaluation error, fails closed.
   */
  expr: string;
  /** Reason of a block when the expression returns `false` (or a map without `reason`). */
  reason?: string;
  /** User-facing message of a block. */
  message?: string;
  /** Severity of a block without its own. Default `'warning'`. */
  severity?: GuardrailSeverity;
  /** Guardrail name in records. Default `'expression'`. */
  name?: string;
  /**
   * Declares that the expression may judge a text from a bounded window
   * (no length or whole-text rule), so it can run in `window` streams.
   * Default false: the expression sees whole texts only.
   */
  streamSafe?: boolean;
  /** With `streamSafe`: the longest text the expression must see whole. Default 256. */
  maxMatchLength?: number;
  /** Longer content (characters) is blocked without evaluating. Default 1,000,000. */
  maxInputLength?: number;
  /** Largest expression, in syntax-tree nodes. Default 500. */
  maxNodes?: number;
  /** Fail after this many milliseconds. Default: the middleware's `defaultTimeoutMs`. */
  timeoutMs?: number;
  /** `'block'` (default: fail closed) or `'allow'` on an evaluation error. */
  onError?: 'block' | 'allow';
}

const DEFAULT_MAX_INPUT_LENGTH = 1_000_000;
const SEVERITIES = new Set(['info', 'warning', 'critical']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A plain JSON copy (CEL sees maps, lists and scalars; `undefined` entries are left out). */
function jsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) ?? null;
  } catch {
    return null;
  }
}

function variablesOf(content: string, ctx: GuardrailContext): ExpressionVariables {
  const tool: Record<string, unknown> = {};
  if (ctx.kind === 'tool_input' || ctx.kind === 'tool_output') {
    if (ctx.toolName !== undefined) tool.name = ctx.toolName;
    tool[ctx.kind === 'tool_input' ? 'args' : 'result'] = jsonValue(ctx.value);
  }
  if (ctx.kind === 'tool_definition' && ctx.toolName !== undefined) tool.name = ctx.toolName;
  if (ctx.kind !== 'input' && ctx.kind !== 'output' && ctx.serverId !== undefined) {
    tool.serverId = ctx.serverId;
  }
  const metadata = jsonValue(ctx.metadata);
  return {
    content,
    kind: ctx.kind,
    metadata: isPlainObject(metadata) ? metadata : {},
    tool,
    step: BigInt(ctx.step ?? -1),
  };
}

function celTypeOf(value: unknown): string {
  if (typeof value === 'bigint') return 'an int';
  if (typeof value === 'number') return 'a double';
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (value instanceof Date) return 'a timestamp';
  return `a value of type ${typeof value}`;
}

/**
 * Why an evaluation failed, without values from the input: quoted values
 * are left out, and a missing key is named only when the expression itself
 * spells it (`metadata[content]` would otherwise put the content in the record).
 */
function evaluationProblem(error: unknown, expr: string): string {
  const line = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  return line
    .replace(/"[^"]*"|'[^']*'/g, '…')
    .replace(/^(No such key: )(.*)$/, (whole, prefix: string, key: string) =>
      key.startsWith('index out of bounds') || expr.includes(key)
        ? whole
        : `${prefix}(a key from the input)`,
    )
    .slice(0, 160);
}

/**
 * A guardrail written as a CEL (Common Expression Language) expression, the
 * policy language of Kubernetes and Envoy: time-of-day, metadata and
 * tool-argument rules in a config file, without code.
 *
 * Compiled once: a syntax or type error, an expression of another type than
 * bool / string / map, a comprehension nested in another's body or an invalid
 * RE2 pattern is a `GuardrailConfigError`. Evaluation is sandboxed (no I/O)
 * and bounded: at most `maxNodes` syntax nodes, each linear in the input,
 * regexes run on RE2 (linear time), content above `maxInputLength` is blocked
 * unread. A result of another type or an evaluation error fails closed.
 *
 * @example
 * expression({ expr: '!content.contains("drop table")', reason: 'destructive SQL blocked' });
 * expression({
 *   expr: 'kind != "tool_input" || tool.name != "refund" || double(tool.args.amount) <= 100.0',
 *   reason: 'refunds above 100 need a human',
 * });
 */
export function expression(options: ExpressionOptions): Guardrail {
  let compiled: ReturnType<typeof compileExpression>;
  const validated = validateFactoryOptions(
    options,
    'expression',
    expressionOptionShape,
    (given, found, prefix) => {
      if (typeof given.expr === 'string' && given.expr.trim() !== '') {
        const maxNodes =
          Number.isInteger(given.maxNodes) && (given.maxNodes as number) > 0
            ? (given.maxNodes as number)
            : DEFAULT_MAX_NODES;
        compiled = compileExpression(given.expr, `${prefix}.expr`, found, maxNodes);
      }
    },
  );
  const {
    expr,
    reason = `the expression returned false: ${expr}`,
    message,
    severity = 'warning',
    name = 'expression',
    streamSafe = false,
    maxMatchLength = 256,
    maxInputLength = DEFAULT_MAX_INPUT_LENGTH,
    timeoutMs,
    onError,
  } = validated;
  // Set by the refine step, which always runs on a valid `expr` (else validation threw).
  const program = compiled as unknown as NonNullable<typeof compiled>;

  const blocked = (why: string, level: unknown = severity): Verdict =>
    block({
      ...(message !== undefined && { message }),
      reason: why,
      severity: (SEVERITIES.has(level as string) ? level : severity) as GuardrailSeverity,
    });

  const verdictOf = (result: unknown, content: string): Verdict => {
    if (result === true) return allow();
    if (result === false) return blocked(reason);
    if (typeof result === 'string') return result === content ? allow() : modify(result);
    if (result instanceof Map) return verdictOf(Object.fromEntries(result), content);
    if (isPlainObject(result)) {
      const { allowed, reason: why, severity: level, modified } = result;
      if (typeof allowed !== 'boolean') {
        throw new Error('the expression returned a map without a boolean "allowed"');
      }
      if (why !== undefined && typeof why !== 'string') {
        throw new Error('the expression returned a map whose "reason" is not a string');
      }
      if (modified !== undefined && typeof modified !== 'string') {
        throw new Error('the expression returned a map whose "modified" is not a string');
      }
      if (!allowed) return blocked(why ?? reason, level);
      return modified === undefined || modified === content ? allow() : modify(modified);
    }
    throw new Error(
      `the expression returned ${celTypeOf(result)}, expected a bool, a string or a map`,
    );
  };

  return defineGuardrail({
    name,
    streamSafe,
    ...(streamSafe && { maxMatchLength }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(onError !== undefined && { onError }),
    // A verdict that reads metadata, the tool, the step, the kind or the clock is not the content's alone.
    cache: program.contentOnly ? 'content' : 'none',
    fingerprint: { expr, reason, message, severity, streamSafe, maxInputLength },
    check(content, ctx) {
      if (content.length > maxInputLength) {
        return blocked(
          `text is ${content.length} characters, more than maxInputLength ${maxInputLength}`,
        );
      }
      let result: unknown;
      try {
        result = program.evaluate(variablesOf(content, ctx));
      } catch (error) {
        throw new Error(`expression evaluation failed: ${evaluationProblem(error, expr)}`);
      }
      return verdictOf(result, content);
    },
  });
}
