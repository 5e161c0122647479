import { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import type { GuardrailConfigIssue } from '../../core/errors';
import { type AstNode, constantResult } from './constant-result';

/*
 * CEL (Common Expression Language) on `@marcbachmann/cel-js`: small (about
 * 82 KB minified, no dependencies, no Node built-ins), type-checked at
 * construction. Its `matches` uses the JavaScript RegExp engine, which
 * backtracks (`"^(a+)+$"` on 28 characters took 21 s when measured), so every
 * `matches` call is compiled to `re2Matches`, backed by `re2js` (RE2's
 * linear-time automaton, as CEL's own specification requires).
 */

/** The macros that loop over a list or map (CEL comprehensions). */
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
/** Variables whose value is not the content: a verdict that reads them depends on the call. */
const CALL_VARIABLES = new Set(['metadata', 'tool', 'step', 'kind']);
const CLOCK_FUNCTIONS = new Set(['now', 'today']);
const RE2_FUNCTION = 're2Matches';
/** `string.lastIndexOf(...)` is compiled to this, linear in its receiver and argument. */
const LAST_INDEX_FUNCTION = 'boundedLastIndexOf';
/** `duration(string)` is compiled to this, which parses a bounded string only. */
const DURATION_FUNCTION = 'boundedDuration';
/** Longest string `duration()` parses: `"-12345h59m59.999999999s"` is 23 characters. */
const MAX_DURATION_LENGTH = 64;
/** A Go duration (`300ms`, `-1.5h`, `2h45m`), the shape cel-js parses. */
const DURATION_SHAPE = /^[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|µs|ms|s|m|h))+$/;

/** Variables as long as the input: a loop over one must not read one whole on each turn. */
const INPUT_VARIABLES = new Set(['content', 'tool', 'metadata']);
/** Operators whose cost does not grow with an operand as long as the input (bounded by the other, or O(1)). */
const CHEAP_OPERANDS = new Set(['==', '!=', '<', '<=', '>', '>=', '&&', '||', '!_', '-_']);
/**
 * Functions whose cost does not grow with their argument: `has`. Round 27:
 * `size`, `int`, `uint` and `double` were here too, but each reads a string
 * argument whole (`size` counts its code points, `double` lower-cases and
 * parses it): `tool.args.items.all(x, size(content) > 0)` took 2.8 s on
 * 2,000 items and 100,000 characters, quadratic.
 */
const CHEAP_FUNCTIONS = new Set(['has']);
/** Functions whose result is a number, bounded whatever their argument (its cost is not). */
const NUMBER_FUNCTIONS = new Set(['size', 'has', 'int', 'uint', 'double']);

/** True when `node` reads a variable as long as the input. */
function readsInput(node: AstNode): boolean {
  if (node.op === 'id') return INPUT_VARIABLES.has(node.args as string);
  return children(node).some(readsInput);
}

/** Comparisons: each costs at most the shorter operand (or O(1) on numbers). */
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
/** Methods whose cost is at most the shorter of receiver and argument (a length check first). */
const PREFIX_METHODS = new Set(['startsWith', 'endsWith']);

/** The selector of `.` / `[]` / a call's name, and its operand nodes. */
function operands(node: AstNode): { name: string; nodes: AstNode[] } {
  const args = Array.isArray(node.args) ? (node.args as unknown[]) : [];
  return { name: typeof args[0] === 'string' ? args[0] : '', nodes: children(node) };
}

/**
 * True when `node`'s value is bounded by the loop's item or by the
 * expression itself: a literal, the item (a loop variable) or a field or
 * element of it, a sum of such, or a number (`size`, `int`, ...). Over all
 * turns, such values together are as long as the range (or the expression).
 */
function boundedByItem(node: AstNode, loopVars: ReadonlySet<string>): boolean {
  const { name, nodes } = operands(node);
  switch (node.op) {
    case 'value':
      return true;
    case 'id':
      return loopVars.has(node.args as string);
    case '.':
      return nodes[0] !== undefined && boundedByItem(nodes[0], loopVars);
    case '[]':
    case '+':
      return nodes.length > 0 && nodes.every(child => boundedByItem(child, loopVars));
    case 'call':
    case 'rcall':
      return NUMBER_FUNCTIONS.has(name);
    default:
      return false;
  }
}

/**
 * True when `node` only refers to a value (a variable, a field of one, an
 * element at a bounded index) or is bounded by the item: evaluating it
 * builds nothing as long as the input.
 */
function plainReference(node: AstNode, loopVars: ReadonlySet<string>): boolean {
  if (boundedByItem(node, loopVars) && !readsInputWhole(node, loopVars)) return true;
  const { nodes } = operands(node);
  if (node.op === 'id') return true;
  if (node.op === '.') return nodes[0] !== undefined && plainReference(nodes[0], loopVars);
  if (node.op === '[]') {
    return (
      nodes[0] !== undefined &&
      plainReference(nodes[0], loopVars) &&
      // An index bounded in value may still cost the input (`x[size(content)]`).
      nodes
        .slice(1)
        .every(index => boundedByItem(index, loopVars) && !readsInputWhole(index, loopVars))
    );
  }
  return false;
}

/**
 * True when `node` (part of a comprehension's body) reads an input variable,
 * or a field of one (`tool.args.query`), other than as an operand whose cost
 * does not grow with it: `content.contains(w)` scans the content on each
 * turn, so a loop over the content's words costs quadratic time. Linear:
 * `w.startsWith(tool.args.p)` / `content.endsWith(w + "!")` (at most the
 * item's length a turn: one side is bounded by the item, the other only
 * referred to) and a comparison with the item or a literal. Quadratic: a
 * comparison of two input values (`tool.args.a == tool.args.b` costs their
 * length on every turn).
 */
function readsInputWhole(node: AstNode, loopVars: ReadonlySet<string>, cheap = false): boolean {
  if (node.op === 'id') return !cheap && INPUT_VARIABLES.has(node.args as string);
  const [first, ...rest] = children(node);
  if (node.op === '.' || node.op === '[]') {
    // The selected object keeps its place's cost; an index is a key, read whole.
    return (
      (first !== undefined && readsInputWhole(first, loopVars, cheap)) ||
      rest.some(child => readsInputWhole(child, loopVars))
    );
  }
  const name = Array.isArray(node.args) && typeof node.args[0] === 'string' ? node.args[0] : '';
  if (node.op === 'rcall' && PREFIX_METHODS.has(name) && first && rest.length === 1) {
    const [argument] = rest as [AstNode];
    // The side bounded by the item must not cost the input either (`w[size(content)]`).
    const cheapSide = (bounded: AstNode, other: AstNode) =>
      boundedByItem(bounded, loopVars) &&
      !readsInputWhole(bounded, loopVars) &&
      plainReference(other, loopVars);
    if (cheapSide(first, argument) || cheapSide(argument, first)) {
      return false;
    }
  }
  if (
    COMPARISONS.has(node.op) &&
    first &&
    rest.length === 1 &&
    !boundedByItem(first, loopVars) &&
    !boundedByItem(rest[0]!, loopVars) &&
    readsInput(first) &&
    readsInput(rest[0]!)
  ) {
    return true;
  }
  const operandsCheap =
    CHEAP_OPERANDS.has(node.op) ||
    ((node.op === 'call' || node.op === 'rcall') && CHEAP_FUNCTIONS.has(name));
  if (node.op === '?:') {
    return (
      (first !== undefined && readsInputWhole(first, loopVars, true)) ||
      rest.some(child => readsInputWhole(child, loopVars, cheap))
    );
  }
  return children(node).some(child => readsInputWhole(child, loopVars, operandsCheap));
}

/** Default structural limit: AST nodes of one expression. */
export const DEFAULT_MAX_NODES = 500;
const MAX_DEPTH = 32;
const MAX_RUNTIME_PATTERNS = 64;
/** Longest pattern `matches` compiles at run time (one from the input). */
const MAX_RUNTIME_PATTERN_LENGTH = 4_096;

function isNode(value: unknown): value is AstNode {
  return value !== null && typeof value === 'object' && typeof (value as AstNode).op === 'string';
}

/** The child nodes of a node, in source order. */
function children(node: AstNode): AstNode[] {
  const found: AstNode[] = [];
  const visit = (value: unknown) => {
    if (isNode(value)) found.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
  };
  visit(node.args);
  return found;
}

/** What a compiled expression needs to run, and what it reads. */
export interface CompiledExpression {
  /** Evaluates with the given variables; throws on an evaluation error. */
  evaluate(variables: ExpressionVariables): unknown;
  /** True when the verdict depends on the content alone (no metadata, tool, step, kind or clock). */
  contentOnly: boolean;
  /** True when it reads nothing at all (no variable, no clock): its result is a constant. */
  constant: boolean;
}

/** The variables an expression sees. */
export interface ExpressionVariables {
  content: string;
  kind: string;
  metadata: Record<string, unknown>;
  tool: Record<string, unknown>;
  step: bigint;
}

function re2(pattern: string): RE2JS {
  return RE2JS.compile(pattern);
}

/** `matches` with RE2: patterns from the expression are compiled once, others cached a little. */
function re2Matcher(literals: Map<string, RE2JS>) {
  const runtime = new Map<string, RE2JS>();
  return (text: string, pattern: string): boolean => {
    let compiled = literals.get(pattern) ?? runtime.get(pattern);
    if (!compiled) {
      // A pattern from the input (`content.matches(metadata.p)`): its error
      // quoted it between backticks, which the record's reason kept (round 27).
      if (pattern.length > MAX_RUNTIME_PATTERN_LENGTH) {
        throw new Error(
          `matches() of a pattern longer than ${MAX_RUNTIME_PATTERN_LENGTH} characters from the input`,
        );
      }
      try {
        compiled = re2(pattern);
      } catch {
        throw new Error('matches() of a pattern from the input that is not valid RE2');
      }
      if (runtime.size >= MAX_RUNTIME_PATTERNS) runtime.clear();
      runtime.set(pattern, compiled);
    }
    return compiled.test(text);
  };
}

function environment(maxNodes: number, matcher?: (text: string, pattern: string) => boolean) {
  const env = new Environment({
    // `{ "allowed": false, "reason": "..." }` mixes value types, as the seed's results do.
    homogeneousAggregateLiterals: false,
    limits: { maxAstNodes: maxNodes, maxDepth: MAX_DEPTH },
  })
    .registerVariable('content', 'string')
    .registerVariable('kind', 'string')
    .registerVariable('metadata', 'map')
    .registerVariable('tool', 'map')
    .registerVariable('step', 'int')
    .registerFunction('now(): google.protobuf.Timestamp', () => new Date())
    .registerFunction('today(): string', () => new Date().toISOString().slice(0, 10));
  const unused = () => {
    throw new Error('re2Matches is only available through matches()');
  };
  return env
    .registerFunction(`string.${RE2_FUNCTION}(string): bool`, matcher ?? unused)
    .registerFunction(`${RE2_FUNCTION}(string, string): bool`, matcher ?? unused)
    .registerFunction(
      `${DURATION_FUNCTION}(string): google.protobuf.Duration`,
      matcher ? boundedDuration : unused,
    )
    .registerFunction(
      `string.${LAST_INDEX_FUNCTION}(string): int`,
      (text: string, search: string) => BigInt(lastIndexOf(text, search, text.length)),
    )
    .registerFunction(
      `string.${LAST_INDEX_FUNCTION}(string, int): int`,
      (text: string, search: string, fromIndex: bigint) => {
        // As cel-js's own: an empty search is found at fromIndex, which must be in the string.
        if (search === '') return fromIndex;
        const from = Number(fromIndex);
        if (from < 0 || from >= text.length) {
          throw new Error('string.lastIndexOf(search, fromIndex): fromIndex out of range');
        }
        return BigInt(lastIndexOf(text, search, from));
      },
    );
}

/** The code units of `text` in reverse order. */
function reversed(text: string): string {
  return text.split('').reverse().join('');
}

/**
 * `text.lastIndexOf(search, from)` in linear time (round 27): V8 compares
 * from each start position in turn, O(text × search): a 125,000-character
 * search in 250,000 characters took 20 s, 500,000 took 115 s. A long search
 * is found with `indexOf` (linear) in the reversed text.
 */
function lastIndexOf(text: string, search: string, from: number): number {
  if (search.length <= 64) return text.lastIndexOf(search, from);
  const lastStart = Math.min(from, text.length - search.length);
  if (lastStart < 0) return -1;
  const found = reversed(text.slice(0, lastStart + search.length)).indexOf(reversed(search));
  return found < 0 ? -1 : lastStart - found;
}

/** cel-js's own `duration(s)`, called on strings `boundedDuration` checked. */
let parseDuration: ((variables: { s: string }) => unknown) | undefined;

/**
 * `duration(string)`, bounded (round 27): cel-js finds each number and unit
 * with an unanchored `(\d*\.?\d*)(ns|…)`, which on a run of digits costs
 * cubic time (2,000 digits took 9 s), and its error quoted the whole
 * string unquoted, so the content reached the record's reason. A string
 * of a duration's shape, at most 64 characters, is parsed; any other fails
 * without its value.
 */
function boundedDuration(text: string): unknown {
  if (text.length > MAX_DURATION_LENGTH || !DURATION_SHAPE.test(text)) {
    throw new Error(
      `duration() of a string that is no duration of at most ${MAX_DURATION_LENGTH} characters`,
    );
  }
  parseDuration ??= new Environment()
    .registerVariable('s', 'string')
    .parse('duration(s)') as (variables: { s: string }) => unknown;
  return parseDuration({ s: text });
}

/**
 * The longest run of prefix operators (`!`, `-`, blanks between them) in
 * `expr`, outside string literals and comments. The parser reads such a
 * run by recursion and counts it in no limit: 100,000 of them overflowed
 * the stack. Linear, no recursion.
 */
export function longestUnaryRun(expr: string): number {
  let longest = 0;
  let run = 0;
  let index = 0;
  while (index < expr.length) {
    const char = expr[index]!;
    if (char === '!' && expr[index + 1] === '=') {
      run = 0;
      index += 2;
    } else if (char === '!' || char === '-') {
      run++;
      if (run > longest) longest = run;
      index++;
    } else if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      index++;
    } else if (char === '/' && expr[index + 1] === '/') {
      const end = expr.indexOf('\n', index);
      index = end < 0 ? expr.length : end + 1;
    } else if (char === '"' || char === "'") {
      run = 0;
      index = stringLiteralEnd(expr, index);
    } else {
      run = 0;
      index++;
    }
  }
  return longest;
}

/** The offset after the string literal whose opening quote is at `open` (raw when prefixed by r or R). */
function stringLiteralEnd(expr: string, open: number): number {
  const quote = expr[open]!;
  const triple = expr.startsWith(quote.repeat(3), open);
  const closing = triple ? quote.repeat(3) : quote;
  // A prefix of r and b (`r"…"`, `br"…"`, `rb"…"`) standing alone before the quote.
  const prefix = /(?:^|[^A-Za-z0-9_])([rRbB]{1,2})$/.exec(expr.slice(Math.max(0, open - 3), open));
  const raw = prefix !== null && /r/i.test(prefix[1]!);
  let index = open + closing.length;
  while (index < expr.length) {
    if (!raw && expr[index] === '\\') {
      index += 2;
    } else if (expr.startsWith(closing, index)) {
      return index + closing.length;
    } else {
      index++;
    }
  }
  return expr.length;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim();
}

/**
 * Compiles a CEL expression once: parses and type-checks it, checks its
 * structure (size, no comprehension inside another's body, RE2 patterns), and
 * returns an evaluator. Problems are pushed to `issues` under `path`.
 */
export function compileExpression(
  expr: string,
  path: string,
  issues: GuardrailConfigIssue[],
  maxNodes = DEFAULT_MAX_NODES,
): CompiledExpression | undefined {
  const report = (expected: string) => issues.push({ path, value: expr, expected });
  let ast: AstNode;
  const unaryRun = longestUnaryRun(expr);
  if (unaryRun > MAX_DEPTH) {
    report(
      `at most ${MAX_DEPTH} levels of nesting (it has ${unaryRun} prefix operators ! or - in a row)`,
    );
    return undefined;
  }
  try {
    const parsed = environment(maxNodes).parse(expr);
    const checked = parsed.check();
    if (!checked.valid) {
      report(`a well-typed CEL expression (${firstLine(checked.error)})`);
      return undefined;
    }
    const type = checked.type ?? 'dyn';
    if (!['bool', 'string', 'dyn'].includes(type) && !type.startsWith('map<')) {
      report(`a CEL expression of type bool, string or map (it has type ${type})`);
      return undefined;
    }
    ast = parsed.ast as AstNode;
  } catch (error) {
    report(`a valid CEL expression (${firstLine(error)})`);
    return undefined;
  }

  const literals = new Map<string, RE2JS>();
  /** Where a function's name is replaced: its offset, its name and the new one. */
  const renames: Array<[offset: number, name: string, to: string]> = [];
  let contentOnly = true;
  let readsSomething = false;
  let problems = 0;
  const walk = (node: AstNode, insideComprehension: boolean) => {
    const args = Array.isArray(node.args) ? (node.args as unknown[]) : [];
    const name = typeof args[0] === 'string' ? args[0] : undefined;
    if (node.op === 'id' && CALL_VARIABLES.has(node.args as string)) contentOnly = false;
    if (node.op === 'call' && name && CLOCK_FUNCTIONS.has(name)) contentOnly = false;
    // Any identifier (a variable, a comprehension's own) or a clock makes the result vary.
    if (node.op === 'id' || (node.op === 'call' && name && CLOCK_FUNCTIONS.has(name))) {
      readsSomething = true;
    }
    const isMethod = node.op === 'rcall';
    if ((isMethod || node.op === 'call') && name === 'matches') {
      const argNodes = children(node);
      const pattern = argNodes.at(-1);
      if (pattern?.op === 'value' && typeof pattern.args === 'string') {
        try {
          literals.set(pattern.args, re2(pattern.args));
        } catch (error) {
          report(`RE2 syntax in matches() (${firstLine(error)})`);
          problems++;
        }
      }
      // The name's offset: after the receiver for `x.matches(...)`, at the start for `matches(x, ...)`.
      const from = isMethod ? argNodes[0]!.end : node.start;
      const offset = expr.indexOf('matches', from);
      if (offset >= 0) renames.push([offset, 'matches', RE2_FUNCTION]);
    }
    if (isMethod && name === 'lastIndexOf') {
      const receiver = children(node)[0];
      const offset = expr.indexOf('lastIndexOf', receiver ? receiver.end : node.start);
      if (offset >= 0) renames.push([offset, 'lastIndexOf', LAST_INDEX_FUNCTION]);
    }
    if (node.op === 'call' && name === 'duration') {
      const offset = expr.indexOf('duration', node.start);
      if (offset >= 0) renames.push([offset, 'duration', DURATION_FUNCTION]);
    }
    if (isMethod && name && COMPREHENSIONS.has(name)) {
      if (insideComprehension) {
        report(
          `no comprehension (${[...COMPREHENSIONS].join(', ')}) inside another's body: nested loops cost quadratic time`,
        );
        problems++;
      }
      const [range, ...body] = children(node);
      // The loop's own variables: the parts before the body (`x` of `all(x, …)`, `map(x, p, f)`).
      const loopVars = new Set(
        body
          .slice(0, -1)
          .filter(part => part.op === 'id' && !INPUT_VARIABLES.has(part.args as string))
          .map(part => part.args as string),
      );
      if (range && readsInput(range) && body.some(part => readsInputWhole(part, loopVars))) {
        report(
          `no comprehension over the input (content, tool, metadata) whose body reads the input whole (in a call other than ${[...CHEAP_FUNCTIONS].join(', ')} (size, int, uint and double read a string whole), or ${[...PREFIX_METHODS].join(' / ')} with the item or a literal on one side; in a comparison of two input values; or as a list or key): each turn scans it, which costs quadratic time; compare it with the item, or loop over a list the expression spells`,
        );
        problems++;
      }
      if (range) walk(range, insideComprehension);
      for (const part of body) walk(part, true);
      return;
    }
    for (const child of children(node)) walk(child, insideComprehension);
  };
  walk(ast, false);
  if (problems > 0) return undefined;

  let source = expr;
  for (const [offset, name, to] of renames.sort((a, b) => b[0] - a[0])) {
    source = `${source.slice(0, offset)}${to}${source.slice(offset + name.length)}`;
  }
  const evaluator = environment(maxNodes, re2Matcher(literals)).parse(source);
  const compiled: CompiledExpression = {
    contentOnly,
    constant: !readsSomething,
    evaluate: variables => evaluator(variables as unknown as Record<string, unknown>),
  };
  if (compiled.constant && allowsEverything(compiled)) {
    report(
      'an expression that reads the content or the call (content, kind, metadata, tool, step, now(), today()): one that always allows checks nothing',
    );
    return undefined;
  }
  const constant = compiled.constant ? undefined : constantResult(ast, expr);
  if (constant) {
    report(
      `an expression whose result depends on the content or the call: ${constant.why}, so it ${
        constant.allows
          ? 'allows everything and checks nothing'
          : 'blocks everything (write false for a kill switch)'
      }`,
    );
    return undefined;
  }
  return compiled;
}

/** Whether a constant expression allows every content unchanged (`true`, `{ "allowed": true }`). */
function allowsEverything(program: CompiledExpression): boolean {
  let result: unknown;
  try {
    result = program.evaluate({ content: '', kind: 'input', metadata: {}, tool: {}, step: -1n });
  } catch {
    return false; // fails closed when it runs
  }
  if (result === true) return true;
  const fields = result instanceof Map ? Object.fromEntries(result) : result;
  return (
    fields !== null &&
    typeof fields === 'object' &&
    !Array.isArray(fields) &&
    (fields as Record<string, unknown>).allowed === true &&
    (fields as Record<string, unknown>).modified === undefined
  );
}

/** The problems of an expression (empty when it compiles), for the config schema. */
export function expressionProblems(expr: string, maxNodes = DEFAULT_MAX_NODES): string[] {
  const issues: GuardrailConfigIssue[] = [];
  compileExpression(expr, '', issues, maxNodes);
  return issues.map(issue => issue.expected);
}
