import type { StandardSchemaV1 } from '@standard-schema/spec';
import { predicateVerdict } from '../../core/callback-result';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { childPath, validateFactoryOptions } from '../../core/options';
import { redactSecretsInText } from '../../core/redact-secrets';
import type { Guardrail, GuardrailContext } from '../../core/types';
import {
  pathViolation,
  type RuleViolation,
  shellViolation,
  sqlViolation,
  type ToolArgumentRulePack,
} from './argument-rules';
import type { SqlDialectName } from './constant-condition';
import { toolPolicyOptionShape } from './tool-policy-options';

/**
 * A check of a tool's whole arguments object: return `true` (or nothing) to
 * pass, `false` or a string (the reason) to block.
 */
export type ToolArgsPredicate = (
  args: unknown,
  ctx: GuardrailContext,
) => boolean | string | undefined | PromiseLike<boolean | string | undefined>;

/** Options of `toolPolicy`. */
export interface ToolPolicyOptions {
  /** Tool names that may run; any other tool is blocked. Default: every tool. */
  allow?: readonly string[];
  /**
   * A string denies a tool by name; a RegExp denies any string argument value
   * it matches (e.g. `/drop\s+table/i`), in every tool.
   */
  deny?: readonly (string | RegExp)[];
  /**
   * Per tool name (`'*'` for every tool): a zod / Standard Schema the
   * arguments must satisfy, or a predicate.
   */
  args?: Readonly<Record<string, StandardSchemaV1 | ToolArgsPredicate>>;
  /**
   * Built-in deny rules applied to every string argument value: `'sql'`
   * (DROP, TRUNCATE, DELETE / UPDATE without WHERE), `'shell'` (`rm -rf /`,
   * `curl | sh`, ...), `'path'` (`../` traversal; absolute paths outside
   * `roots`). Default all three; `[]` turns them off.
   */
  rules?: readonly ToolArgumentRulePack[];
  /**
   * The database the `sql` rule reads statements as: `'postgres'`,
   * `'mysql'`, `'sqlite'`, `'mssql'`, or `'any'` (default: every family's
   * reading, and a rule broken in one of them blocks, so `"a" <> "b"` is
   * MySQL's always-true comparison of strings). A named one reads quotes,
   * comments, `||` and `"…"` as that database does (in its modes:
   * MySQL's `ANSI_QUOTES`, SQLite's and SQL Server's `"…"` strings).
   */
  dialect?: SqlDialectName;
  /** Allowed roots for absolute path values (the `path` rule). Default: no root check. */
  roots?: readonly string[];
  /** User-facing message of a block (the model sees it as the tool's output). */
  message?: string;
  /**
   * Most nesting levels of the arguments that are walked. A call nested
   * deeper is blocked (rule `limit.maxDepth`), since the deeper values would
   * go unchecked. Default 32.
   */
  maxDepth?: number;
  /**
   * Most string values checked per call. A call with more is blocked (rule
   * `limit.maxValues`), since the rest would go unchecked. Default 10,000.
   */
  maxValues?: number;
  /** Guardrail name in records. Default `'tool-policy'`. */
  name?: string;
}

/** Default of `maxDepth`: nesting levels of tool arguments walked before the call is blocked. */
export const DEFAULT_TOOL_ARGS_MAX_DEPTH = 32;
/** Default of `maxValues`: string values checked before the call is blocked. */
export const DEFAULT_TOOL_ARGS_MAX_VALUES = 10_000;

/** A node still to visit; its path is built only when a block needs it. */
interface PendingValue {
  value: unknown;
  parent: PendingValue | undefined;
  key: string | number;
  depth: number;
}

const plainName = /^[A-Za-z_$][\w$-]{0,63}$/;

/**
 * An argument key as a record may show it: a plain name (`path`, `query`)
 * as written, anything else as `*`. Keys are written by the model (or by
 * whoever steered it): a record's key may be an e-mail address or a token,
 * and a key may be a megabyte long; records travel to logs and clients.
 */
function shownKey(key: string): string {
  return plainName.test(key) && redactSecretsInText(key) === key ? key : '*';
}

function pathOf(entry: PendingValue): string {
  const keys: Array<string | number> = [];
  for (let at: PendingValue | undefined = entry; at?.parent !== undefined; at = at.parent) {
    keys.push(at.key);
  }
  return keys
    .reverse()
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : index === 0 ? shownKey(key) : `.${shownKey(key)}`,
    )
    .join('');
}

type WalkStop =
  | { kind: 'leaf'; path: string; violation: RuleViolation }
  | { kind: 'limit'; path: string; limit: 'maxDepth' | 'maxValues' };

/**
 * Visits every string value of `root` in document order (iteratively, so
 * deep nesting cannot overflow the stack) and stops at the first value
 * `check` rejects, or at the first value past a limit: a limit fails closed,
 * because what lies past it has not been checked.
 */
function walkStrings(
  root: unknown,
  maxDepth: number,
  maxValues: number,
  check: (value: string) => RuleViolation | undefined,
): WalkStop | undefined {
  const pending: PendingValue[] = [{ value: root, parent: undefined, key: '', depth: 0 }];
  let strings = 0;
  while (pending.length > 0) {
    const entry = pending.pop()!;
    const { value, depth } = entry;
    if (depth > maxDepth) return { kind: 'limit', path: pathOf(entry), limit: 'maxDepth' };
    if (typeof value === 'string') {
      if (++strings > maxValues) return { kind: 'limit', path: pathOf(entry), limit: 'maxValues' };
      const violation = check(value);
      if (violation) return { kind: 'leaf', path: pathOf(entry), violation };
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        pending.push({ value: value[index], parent: entry, key: index, depth: depth + 1 });
      }
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index]!;
        pending.push({ value: item, parent: entry, key, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    '~standard' in value &&
    typeof (value as StandardSchemaV1)['~standard']?.validate === 'function'
  );
}

function issuePath(issue: StandardSchemaV1.Issue): string {
  return (issue.path ?? [])
    .map(segment => (typeof segment === 'object' ? segment.key : segment))
    .map((key, index) =>
      typeof key === 'number'
        ? `[${key}]`
        : index === 0
          ? shownKey(String(key))
          : `.${shownKey(String(key))}`,
    )
    .join('');
}

function parseArguments(content: string, ctx: GuardrailContext): unknown {
  if (ctx.value !== undefined) return ctx.value;
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/**
 * A policy for tool calls, used as a `tool_input` guardrail: which tools may
 * run, what their arguments must look like (zod / Standard Schema, or
 * predicates), and deny rules over every string argument value (destructive
 * SQL and shell, path traversal and paths outside allowed roots, your own
 * patterns). A block reason names the tool, the argument path and the rule,
 * e.g. `tool "runSql" argument "query" broke rule sql.drop (DROP TABLE)`; the
 * record's `info` holds `{ tool, path, rule }`.
 *
 * Stream-safe is irrelevant here (tool arguments arrive whole); it is not
 * marked stream-safe because a schema needs the complete value.
 *
 * @example
 * guardTools({ runSql, readFile }, {
 *   input: [toolPolicy({ deny: ['dropDatabase', /drop\s+table/i], roots: ['/srv/data'] })],
 * });
 */
export function toolPolicy(options?: ToolPolicyOptions): Guardrail {
  const {
    allow: allowedTools,
    deny = [],
    args = {},
    rules = ['sql', 'shell', 'path'],
    dialect = 'any',
    roots = [],
    message = 'This tool call is not allowed by the tool policy.',
    maxDepth = DEFAULT_TOOL_ARGS_MAX_DEPTH,
    maxValues = DEFAULT_TOOL_ARGS_MAX_VALUES,
    name = 'tool-policy',
  } = validateFactoryOptions(
    options,
    'tool-policy',
    toolPolicyOptionShape,
    (given, issues, prefix) => {
      // No rule pack, no deny entry, no allow list, no argument schema: only
      // the depth and count limits would run, and every call would pass.
      const nonEmpty = (list: unknown) => Array.isArray(list) && list.length > 0;
      const hasArgs =
        given.args !== null && typeof given.args === 'object' && Object.keys(given.args).length > 0;
      if (
        Array.isArray(given.rules) &&
        given.rules.length === 0 &&
        !nonEmpty(given.deny) &&
        given.allow === undefined &&
        !hasArgs
      ) {
        issues.push({
          path: prefix,
          value: given,
          expected:
            'at least one rule: rules (sql, shell, path), deny, allow or args (with none, toolPolicy checks nothing)',
        });
      }
    },
  );
  const deniedTools = new Set<string>();
  // Each pattern with its index in `deny`: a reason names it by that index.
  const denyPatterns: Array<{ pattern: RegExp; index: number }> = [];
  deny.forEach((entry, index) => {
    if (typeof entry === 'string') deniedTools.add(entry);
    else denyPatterns.push({ pattern: entry, index });
  });
  const allowSet = allowedTools ? new Set(allowedTools) : undefined;
  // Rules that apply by the tool's name: a call without one (guardTool
  // without `name`) cannot be judged by them, so it fails closed.
  const namesTools =
    allowSet !== undefined || deniedTools.size > 0 || Object.keys(args).some(key => key !== '*');

  const blocked = (tool: string, path: string, rule: string, why: string) =>
    block({
      message,
      reason: `tool "${tool}" ${path === '' ? 'arguments' : `argument "${path}"`} ${why}`,
      severity: 'critical',
      info: { tool, path, rule },
    });

  function valueViolation(value: string): RuleViolation | undefined {
    for (const { pattern, index } of denyPatterns) {
      pattern.lastIndex = 0;
      // Named by index, not its source: a deny pattern often spells what must not pass.
      if (pattern.test(value)) return { rule: 'deny', detail: `matched deny[${index}]` };
    }
    for (const pack of rules) {
      const found =
        pack === 'sql'
          ? sqlViolation(value, dialect)
          : pack === 'shell'
            ? shellViolation(value)
            : pathViolation(value, roots);
      if (found) return { rule: found.rule, detail: `broke rule ${found.rule} (${found.detail})` };
    }
    return undefined;
  }

  return defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    async check(content, ctx) {
      const tool = ctx.toolName ?? '(unknown tool)';
      if (ctx.toolName === undefined && namesTools) {
        return block({
          message,
          reason: `tool "${tool}": the policy names tools (allow, deny, args), but this call has no tool name (give guardTool a name)`,
          severity: 'critical',
          info: { tool, path: '', rule: 'toolName' },
        });
      }
      if (ctx.toolName !== undefined) {
        if (deniedTools.has(ctx.toolName)) {
          return block({
            message,
            reason: `tool "${tool}" is denied`,
            severity: 'critical',
            info: { tool, path: '', rule: 'deny' },
          });
        }
        if (allowSet && !allowSet.has(ctx.toolName)) {
          return block({
            message,
            reason: `tool "${tool}" is not in the allow list`,
            severity: 'critical',
            info: { tool, path: '', rule: 'allow' },
          });
        }
      }
      const value = parseArguments(content, ctx);
      for (const key of ctx.toolName !== undefined ? ['*', ctx.toolName] : ['*']) {
        const rule = args[key];
        if (rule === undefined) continue;
        if (isStandardSchema(rule)) {
          const result = await rule['~standard'].validate(value);
          if (result.issues && result.issues.length > 0) {
            const [issue] = result.issues;
            return blocked(
              tool,
              issuePath(issue!),
              `args.${key}`,
              `failed schema: ${issue!.message}`,
            );
          }
        } else {
          const verdict = predicateVerdict(await rule(value, ctx), childPath(`${name}.args`, key));
          if (verdict === false || typeof verdict === 'string') {
            return blocked(
              tool,
              '',
              `args.${key}`,
              `failed rule args.${key}${typeof verdict === 'string' ? `: ${verdict}` : ''}`,
            );
          }
        }
      }
      const stop = walkStrings(value, maxDepth, maxValues, valueViolation);
      if (stop?.kind === 'leaf') {
        return blocked(tool, stop.path, stop.violation.rule, stop.violation.detail);
      }
      if (stop?.kind === 'limit') {
        return block({
          message,
          reason:
            stop.limit === 'maxDepth'
              ? `tool "${tool}" arguments nest deeper than ${maxDepth} levels (maxDepth): the rest cannot be checked`
              : `tool "${tool}" arguments hold more than ${maxValues} string values (maxValues): the rest cannot be checked`,
          severity: 'critical',
          info: { tool, path: stop.path, rule: `limit.${stop.limit}` },
        });
      }
      return allow();
    },
  });
}
