/*
 * An expression can read the content and still not depend on it:
 * `content == content` is always true. Deciding that in general is a SAT
 * problem; these rules are syntactic and sound: they only fold what is
 * constant for every input, and leave everything else to run.
 *
 * - A comparison of two identical subtrees (same operators, same literals,
 *   positions ignored) is constant when the operand can never fail and is
 *   never a double: a double may be NaN, which is not equal to itself, and a
 *   missing key, a failed conversion or an integer overflow is an error (the
 *   guardrail fails closed), not the comparison's value.
 * - `a || !a` is true and `a && !a` false for such a boolean `a`, and so
 *   for two complementary comparisons of the same operands (`x == y` and
 *   `x != y`, `x < y` and `x >= y`, `x > y` and `x <= y`), anywhere in one
 *   chain of `||` (or of `&&`): `a || b || !a`.
 * - `x != "a" || x != "b"` is true and `x == "a" && x == "b"` false: a
 *   value that never fails differs from one of two different literals.
 * - A size compared with an integer literal that every size (0 or more)
 *   meets, or none does (`size(content) >= 0`, `size(content) < 0`).
 * - `contains`, `startsWith`, `endsWith` and `matches` of the empty string
 *   are true, and so is `matches` of a pattern that matches every string
 *   (`universalPattern`: `.*`, `(?:)`, `a*`, `^[\s\S]*$`, `(?s)^.*$`; not
 *   `^.*$`, whose `.` stops at a line break). `x + ""` is `x` (the only `+`
 *   with a string is concatenation).
 * - `!`, `||`, `&&` and `?:` fold with CEL's semantics (`x || true` is true
 *   even when `x` fails).
 * Each fold is linear in the subtree it compares, and the depth of an
 * expression is bounded (32), so the whole check is linear in its size.
 */

/** A node of `@marcbachmann/cel-js`'s syntax tree. */
export interface AstNode {
  op: string;
  args: unknown;
  start: number;
  end: number;
}

/** An expression's result that does not depend on anything it reads, and why. */
export interface ConstantResult {
  /** Whether every call is allowed (unchanged) or every call blocked. */
  allows: boolean;
  /** What makes it constant, quoting the expression: for the configuration error. */
  why: string;
}

function isNode(value: unknown): value is AstNode {
  return value !== null && typeof value === 'object' && typeof (value as AstNode).op === 'string';
}

/** The type of a subtree that always evaluates without error, and is not a double; else undefined. */
type TotalType = 'string' | 'int' | 'bool';

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
/** Comparisons that hold between a value and itself. */
const REFLEXIVE = new Set(['==', '<=', '>=']);
const STRING_TESTS = new Set(['contains', 'startsWith', 'endsWith']);
/** Methods that map a string to a string and never fail. */
const STRING_MAPS = new Set(['lowerAscii', 'upperAscii', 'trim']);
/** The comparison that is true exactly when this one is false (on values that never fail). */
const COMPLEMENT: Record<string, string> = {
  '==': '!=',
  '!=': '==',
  '<': '>=',
  '>=': '<',
  '>': '<=',
  '<=': '>',
};

function totalType(node: unknown): TotalType | undefined {
  if (!isNode(node)) return undefined;
  const { op, args } = node;
  switch (op) {
    case 'id':
      // The variables the guardrail always binds (metadata and tool are maps: a key may be missing).
      return args === 'content' || args === 'kind' ? 'string' : args === 'step' ? 'int' : undefined;
    case 'value':
      if (typeof args === 'string') return 'string';
      if (typeof args === 'bigint') return 'int';
      return typeof args === 'boolean' ? 'bool' : undefined;
    case '!_':
      return totalType(args) === 'bool' ? 'bool' : undefined;
    case '&&':
    case '||': {
      const [left, right] = args as unknown[];
      return totalType(left) === 'bool' && totalType(right) === 'bool' ? 'bool' : undefined;
    }
    case 'call': {
      // size(text): a count, never an error.
      const [name, callArgs] = args as [unknown, unknown[]];
      return name === 'size' && callArgs?.length === 1 && totalType(callArgs[0]) === 'string'
        ? 'int'
        : undefined;
    }
    case '+': {
      // String concatenation never fails (an int sum may overflow).
      const [left, right] = args as unknown[];
      return totalType(left) === 'string' && totalType(right) === 'string' ? 'string' : undefined;
    }
    case 'rcall': {
      const [name, receiver, callArgs] = args as [unknown, unknown, unknown[]];
      if (totalType(receiver) !== 'string') return undefined;
      if (name === 'size' && callArgs?.length === 0) return 'int';
      if (typeof name === 'string' && STRING_MAPS.has(name) && callArgs?.length === 0) {
        return 'string';
      }
      return typeof name === 'string' &&
        STRING_TESTS.has(name) &&
        callArgs?.length === 1 &&
        totalType(callArgs[0]) === 'string'
        ? 'bool'
        : undefined;
    }
    default:
      if (COMPARISONS.has(op)) {
        const [left, right] = args as unknown[];
        const type = totalType(left);
        return type !== undefined && type === totalType(right) ? 'bool' : undefined;
      }
      return undefined;
  }
}

/** The subtree as a string (operators and literals only, positions left out): equal keys, identical subtrees. */
function shapeKey(value: unknown): string {
  if (isNode(value)) {
    const concatenated = value.op === '+' ? withoutEmptyString(value) : undefined;
    if (concatenated) return shapeKey(concatenated);
    return `(${value.op} ${shapeKey(value.args)})`;
  }
  if (Array.isArray(value)) return `[${value.map(shapeKey).join(' ')}]`;
  if (typeof value === 'bigint') return `${value}n`;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** `x` of `x + ""` or `"" + x` (a string: type-checked CEL adds "" to nothing else). */
function withoutEmptyString(node: AstNode): unknown {
  const [left, right] = node.args as unknown[];
  const empty = (side: unknown) => isNode(side) && side.op === 'value' && side.args === '';
  return empty(right) ? left : empty(left) ? right : undefined;
}

/** A size (`size(x)`, `x.size()`) of a value that never fails: an int of 0 or more. */
function isSize(node: unknown): boolean {
  if (!isNode(node) || totalType(node) !== 'int') return false;
  return node.op === 'call' || node.op === 'rcall';
}

/** The value of an integer literal (`3`, `-1`), else undefined. */
function intLiteral(node: unknown): bigint | undefined {
  if (!isNode(node)) return undefined;
  if (node.op === 'value') return typeof node.args === 'bigint' ? node.args : undefined;
  if (node.op === '-_') {
    const inner = intLiteral(node.args);
    return inner === undefined ? undefined : -inner;
  }
  return undefined;
}

/** `size OP k` for every size (0 or more): true, false, or undefined when it depends on the size. */
function sizeComparison(op: string, k: bigint): boolean | undefined {
  switch (op) {
    case '>=':
      return k <= 0n ? true : undefined;
    case '>':
      return k < 0n ? true : undefined;
    case '<':
      return k <= 0n ? false : undefined;
    case '<=':
      return k < 0n ? false : undefined;
    case '==':
      return k < 0n ? false : undefined;
    case '!=':
      return k < 0n ? true : undefined;
    default:
      return undefined;
  }
}

/** The same comparison with its operands swapped (`k < size` is `size > k`). */
const SWAPPED: Record<string, string> = {
  '<': '>',
  '>': '<',
  '<=': '>=',
  '>=': '<=',
  '==': '==',
  '!=': '!=',
};

function sameTree(left: unknown, right: unknown): boolean {
  return isNode(left) && isNode(right) && shapeKey(left) === shapeKey(right);
}

/** A boolean subtree's constant value, with what makes it so (undefined for a plain literal). */
interface Folded {
  value: boolean;
  detail?: string;
  node: AstNode;
}

/**
 * The source of a subtree, quoted for a message. A node ends before the
 * closing parentheses of groups inside it (`!(a)` ends after `a`): those
 * that balance its text are added back.
 */
function quoteSource(node: AstNode, source: string): string {
  let start = node.start;
  let end = node.end;
  let open = 0;
  let lowest = 0;
  for (let index = start; index < end; index++) {
    const char = source[index];
    if (char === '(') open++;
    else if (char === ')') lowest = Math.min(lowest, --open);
  }
  // A node that starts inside a group (`(a) == (a)` starts at `a`) closes it:
  // the opening parentheses before it are added back.
  while (lowest < 0) {
    let previous = start - 1;
    while (source[previous] === ' ') previous--;
    if (source[previous] !== '(') break;
    start = previous;
    open++;
    lowest++;
  }
  while (open > 0) {
    let next = end;
    while (source[next] === ' ') next++;
    if (source[next] !== ')') break;
    end = next + 1;
    open--;
  }
  return `\`${source.slice(start, end)}\``;
}

/** `insideChain`: `node` is an operand of a chain of its own operator, judged whole at the chain's root. */
function fold(node: AstNode, source: string, insideChain = false): Folded | undefined {
  const quote = (at: AstNode) => quoteSource(at, source);
  const { op, args } = node;
  if (op === 'value') return typeof args === 'boolean' ? { value: args, node } : undefined;
  if (op === '!_') {
    const inner = isNode(args) ? fold(args, source) : undefined;
    return inner && { ...inner, value: !inner.value };
  }
  if (COMPARISONS.has(op)) {
    const [left, right] = args as unknown[];
    const k = intLiteral(right) ?? intLiteral(left);
    if (k !== undefined) {
      const value = isSize(left)
        ? sizeComparison(op, k)
        : isSize(right)
          ? sizeComparison(SWAPPED[op]!, k)
          : undefined;
      if (value !== undefined) {
        return {
          value,
          detail: `${quote(node)} holds for ${value ? 'every' : 'no'} size (0 or more)`,
          node,
        };
      }
    }
    if (totalType(left) === undefined || !sameTree(left, right)) return undefined;
    return {
      value: REFLEXIVE.has(op),
      detail: `${quote(node)} compares a value with itself`,
      node,
    };
  }
  if (op === '||' || op === '&&') {
    const [left, right] = args as AstNode[];
    const absorbing = op === '||';
    const a = fold(left!, source, left!.op === op);
    if (a?.value === absorbing) return a;
    const b = fold(right!, source, right!.op === op);
    if (b?.value === absorbing) return b;
    if (a && b) return { value: !absorbing, detail: a.detail ?? b.detail, node: a.node };
    const negated = (maybe: AstNode, of: AstNode) =>
      (maybe.op === '!_' && sameTree(maybe.args, of)) || complementary(maybe, of);
    if (totalType(left) === 'bool' && (negated(left!, right!) || negated(right!, left!))) {
      return {
        value: absorbing,
        detail: `${quote(node)} joins a condition with its negation`,
        node,
      };
    }
    const pair = insideChain ? undefined : exclusivePair(chainOperands(node), op);
    if (pair) {
      const [first, second, why] = pair;
      return {
        value: absorbing,
        detail: `${quote(first)} and ${quote(second)} ${why}`,
        node,
      };
    }
    return undefined;
  }
  if (op === 'rcall') {
    // `x.contains("")` (and startsWith, endsWith, matches): the empty string is in every string.
    const [name, receiver, callArgs] = args as [unknown, unknown, unknown[]];
    const [needle] = callArgs ?? [];
    if (
      typeof name === 'string' &&
      (STRING_TESTS.has(name) || name === 'matches') &&
      callArgs?.length === 1 &&
      totalType(receiver) === 'string' &&
      isNode(needle) &&
      needle.op === 'value' &&
      needle.args === ''
    ) {
      return { value: true, detail: `${quote(node)} tests for the empty string`, node };
    }
    if (
      name === 'matches' &&
      callArgs?.length === 1 &&
      totalType(receiver) === 'string' &&
      isNode(needle) &&
      needle.op === 'value' &&
      typeof needle.args === 'string' &&
      universalPattern(needle.args)
    ) {
      return { value: true, detail: `${quote(node)} matches every string`, node };
    }
    return undefined;
  }
  if (op === '?:') {
    const [condition, then, otherwise] = args as AstNode[];
    const chosen = fold(condition!, source);
    if (!chosen) return undefined;
    const branch = fold(chosen.value ? then! : otherwise!, source);
    return branch && { ...branch, detail: branch.detail ?? chosen.detail };
  }
  return undefined;
}

/** The operands of a chain of one operator (`a || b || c`), in source order, without recursion. */
function chainOperands(node: AstNode): AstNode[] {
  const operands: AstNode[] = [];
  const pending: unknown[] = [node];
  while (pending.length > 0) {
    const next = pending.pop();
    if (!isNode(next)) continue;
    if (next.op === node.op) {
      const [left, right] = next.args as unknown[];
      pending.push(right, left);
    } else {
      operands.push(next);
    }
  }
  return operands;
}

/** A literal's type and value as a key (`string:"a"`, `int:1n`), else undefined. */
function literalKey(node: unknown): string | undefined {
  if (!isNode(node) || node.op !== 'value') return undefined;
  const type = totalType(node);
  return type && `${type}:${shapeKey(node.args)}`;
}

/**
 * Two operands of a chain of `||` that cannot both be false (`a` and `!a`,
 * complementary comparisons, `x != "a"` and `x != "b"`), or of `&&` that
 * cannot both be true (`a` and `!a`, complementary comparisons, `x == "a"`
 * and `x == "b"`), each on values that never fail; with what makes it so.
 */
function exclusivePair(
  operands: readonly AstNode[],
  op: string,
): [AstNode, AstNode, string] | undefined {
  const absorbing = op === '||';
  const neither = absorbing ? 'cannot both be false' : 'cannot both be true';
  // By shape: the operands seen, and for `x OP literal` the literal each operand was compared with.
  const seen = new Map<string, AstNode>();
  const compared = new Map<string, { literal: string; node: AstNode }>();
  const differing = absorbing ? '!=' : '==';
  for (const operand of operands) {
    if (totalType(operand) !== 'bool') continue;
    let opposite: string | undefined;
    if (operand.op === '!_') opposite = shapeKey(operand.args);
    else if (COMPLEMENT[operand.op]) {
      opposite = `(${COMPLEMENT[operand.op]} ${shapeKey(operand.args)})`;
    }
    const match = opposite === undefined ? undefined : seen.get(opposite);
    if (match) return [match, operand, neither];
    const key = shapeKey(operand);
    if (!seen.has(key)) seen.set(key, operand);
    // `!a` before `a`: `a` finds it by the key of its negation.
    if (operand.op !== '!_') {
      const negation = seen.get(`(!_ ${key})`);
      if (negation) return [negation, operand, neither];
    }
    if (operand.op === differing) {
      const [left, right] = operand.args as unknown[];
      const literal = literalKey(right) ?? literalKey(left);
      const subject = literalKey(right) !== undefined ? left : right;
      if (literal === undefined || literalKey(subject) !== undefined) continue;
      const subjectKey = shapeKey(subject);
      const before = compared.get(subjectKey);
      if (before && before.literal !== literal) {
        return [
          before.node,
          operand,
          `${neither} (a value equals at most one of two different literals)`,
        ];
      }
      if (!before) compared.set(subjectKey, { literal, node: operand });
    }
  }
  return undefined;
}

/**
 * Whether RE2 finds `pattern` in every string (CEL's `matches` is a
 * partial match), for the patterns where that is plain to see: empty groups
 * (`(?:)`), one atom repeated zero or more times with at most one anchor
 * (`.*`, `a*`, `^.*`, `x?$`: an empty match at the start or the end), or
 * both anchors around a repetition of an atom that takes every character
 * (`^[\s\S]*$`, `(?s)^.*$`). `^.*$` is not one: `.` stops at a line break.
 * Anything else, however wide, is left to run.
 */
export function universalPattern(pattern: string): boolean {
  let rest = pattern;
  let dotAll = false;
  const flags = /^\(\?([imsU]+)\)/.exec(rest);
  if (flags) {
    dotAll = flags[1]!.includes('s');
    rest = rest.slice(flags[0].length);
  }
  if (/^(?:\(\?:\)|\(\))*$/.test(rest) || rest === '^' || rest === '$') return true;
  const repeated =
    /^(\^?)(\.|\[\\([sdw])\\([SDW])\]|\\[^pPQE]|[^\\^$.|?*+()[\]{}])(\*|\?|\{0(?:,\d*)?\})\??(\$?)$/.exec(
      rest,
    );
  if (!repeated) return false;
  const [, start, atom, lower, upper, quantifier, end] = repeated;
  // Unanchored or anchored at one end: the empty match at that end.
  if (!start || !end) return true;
  const everyCharacter =
    atom === '.' ? dotAll : lower !== undefined && upper === lower!.toUpperCase();
  return everyCharacter && (quantifier === '*' || quantifier === '{0,}');
}

/** Whether `a` and `b` are complementary comparisons (`x == y`, `x != y`) of operands that never fail. */
function complementary(a: AstNode, b: AstNode): boolean {
  if (!COMPARISONS.has(a.op) || COMPLEMENT[a.op] !== b.op) return false;
  const [aLeft, aRight] = a.args as unknown[];
  const [bLeft, bRight] = b.args as unknown[];
  return (
    totalType(a) === 'bool' &&
    totalType(b) === 'bool' &&
    sameTree(aLeft, bLeft) &&
    sameTree(aRight, bRight)
  );
}

/**
 * Whether an expression that reads something has a result that depends on
 * nothing it reads (see the rules above): a bool that folds to a constant, a
 * map whose `allowed` does (and, to allow, with no `modified` and no other
 * entry that could fail), or `content` itself (the content unchanged).
 */
export function constantResult(ast: AstNode, source: string): ConstantResult | undefined {
  const described = (folded: Folded, subject: string): ConstantResult => ({
    allows: folded.value,
    why: `${subject} is always ${folded.value} (${
      folded.detail ?? `${quoteSource(folded.node, source)} is a constant`
    })`,
  });
  if (ast.op === 'id' && ast.args === 'content') {
    return { allows: true, why: '`content` returns the content unchanged' };
  }
  if (ast.op === 'map' && Array.isArray(ast.args)) {
    const entries = ast.args as Array<[AstNode, AstNode]>;
    const keyOf = (entry: [AstNode, AstNode]) =>
      entry[0]?.op === 'value' && typeof entry[0].args === 'string' ? entry[0].args : undefined;
    const allowed = entries.find(entry => keyOf(entry) === 'allowed');
    const folded = allowed && fold(allowed[1], source);
    if (!folded) return undefined;
    if (!folded.value) return described(folded, 'its "allowed"');
    const othersTotal = entries.every(
      entry =>
        entry === allowed ||
        (keyOf(entry) !== undefined &&
          keyOf(entry) !== 'modified' &&
          totalType(entry[1]) !== undefined),
    );
    return othersTotal ? described(folded, 'its "allowed"') : undefined;
  }
  const folded = fold(ast, source);
  return folded && described(folded, 'this one');
}
