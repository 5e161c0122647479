import type { StandardSchemaV1 } from '@standard-schema/spec';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { GuardrailConfigError, type GuardrailConfigIssue } from '../../core/errors';
import type { Guardrail, GuardrailContext } from '../../core/types';
import {
  pathViolation,
  type RuleViolation,
  shellViolation,
  sqlViolation,
  type ToolArgumentRulePack,
} from './argument-rules';

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
  /** Allowed roots for absolute path values (the `path` rule). Default: no root check. */
  roots?: readonly string[];
  /** User-facing message of a block (the model sees it as the tool's output). */
  message?: string;
  /** Guardrail name in records. Default `'tool-policy'`. */
  name?: string;
}

const MAX_DEPTH = 32;
const MAX_VALUES = 10_000;

/** Every string leaf of `value` with its path (`to`, `files[2].path`); bounded in depth and count. */
function stringLeaves(value: unknown): Array<[string, string]> {
  const leaves: Array<[string, string]> = [];
  const visit = (node: unknown, path: string, depth: number) => {
    if (leaves.length >= MAX_VALUES || depth > MAX_DEPTH) return;
    if (typeof node === 'string') leaves.push([path, node]);
    else if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, `${path}[${index}]`, depth + 1);
      });
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        visit(item, path === '' ? key : `${path}.${key}`, depth + 1);
      }
    }
  };
  visit(value, '', 0);
  return leaves;
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
      typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`,
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
export function toolPolicy({
  allow: allowedTools,
  deny = [],
  args = {},
  rules = ['sql', 'shell', 'path'],
  roots = [],
  message = 'This tool call is not allowed by the tool policy.',
  name = 'tool-policy',
}: ToolPolicyOptions = {}): Guardrail {
  const issues: GuardrailConfigIssue[] = [];
  const deniedTools = new Set<string>();
  const denyPatterns: RegExp[] = [];
  deny.forEach((entry, index) => {
    if (typeof entry === 'string' && entry !== '') deniedTools.add(entry);
    else if (entry instanceof RegExp) denyPatterns.push(entry);
    else {
      issues.push({
        path: `${name}.deny[${index}]`,
        value: entry,
        expected: 'a tool name or a RegExp over argument values',
      });
    }
  });
  for (const [tool, rule] of Object.entries(args)) {
    if (!isStandardSchema(rule) && typeof rule !== 'function') {
      issues.push({
        path: `${name}.args.${tool}`,
        value: rule,
        expected: 'a Standard Schema (e.g. zod) or a predicate function',
      });
    }
  }
  rules.forEach((rule, index) => {
    if (rule !== 'sql' && rule !== 'shell' && rule !== 'path') {
      issues.push({
        path: `${name}.rules[${index}]`,
        value: rule,
        expected: "'sql', 'shell' or 'path'",
      });
    }
  });
  roots.forEach((root, index) => {
    if (typeof root !== 'string' || !/^(?:\/|[a-zA-Z]:[\\/])/.test(root)) {
      issues.push({ path: `${name}.roots[${index}]`, value: root, expected: 'an absolute path' });
    }
  });
  if (issues.length > 0) throw new GuardrailConfigError(issues);
  const allowSet = allowedTools ? new Set(allowedTools) : undefined;

  const blocked = (tool: string, path: string, rule: string, why: string) =>
    block({
      message,
      reason: `tool "${tool}" ${path === '' ? 'arguments' : `argument "${path}"`} ${why}`,
      severity: 'critical',
      info: { tool, path, rule },
    });

  function valueViolation(value: string): RuleViolation | undefined {
    for (const pattern of denyPatterns) {
      pattern.lastIndex = 0;
      if (pattern.test(value)) return { rule: 'deny', detail: `matched deny pattern ${pattern}` };
    }
    for (const pack of rules) {
      const found =
        pack === 'sql'
          ? sqlViolation(value)
          : pack === 'shell'
            ? shellViolation(value)
            : pathViolation(value, roots);
      if (found) return { rule: found.rule, detail: `broke rule ${found.rule} (${found.detail})` };
    }
    return undefined;
  }

  return defineGuardrail({
    name,
    async check(content, ctx) {
      const tool = ctx.toolName ?? '(unknown tool)';
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
          const verdict = await rule(value, ctx);
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
      for (const [path, leaf] of stringLeaves(value)) {
        const violation = valueViolation(leaf);
        if (violation) return blocked(tool, path, violation.rule, violation.detail);
      }
      return allow();
    },
  });
}
