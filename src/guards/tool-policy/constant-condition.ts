import { isJsSpace } from '../shared/js-space';

/*
 * A WHERE condition evaluated as far as it is constant. A value is either an
 * exact literal (a number, a string) or a set of what it may be across
 * databases and rows: always true, always false, always NULL, or varying
 * with the row (a column, a parameter). `WHERE 1+1=2`, `WHERE (1=1) AND
 * (2=2)`, `WHERE 1='1'` and `WHERE id = 3 OR (1=1 AND 2=2)` hold for every
 * row; `WHERE id = 1` and `WHERE a = '1'` vary. What some database reads
 * otherwise (a string as a boolean, a decimal sum, a cast, a function of
 * constants, a collation) may be any constant: the condition may hold.
 */

const TRUE = 1;
const FALSE = 2;
const NULL = 4;
const VARIES = 8;
/** A constant this scan does not compute: true, false or NULL, by database. */
const CONSTANT = TRUE | FALSE | NULL;

type Value = { num: number } | { str: string } | { mask: number };

/** One outcome of AND, OR, XOR (Kleene's three-valued logic, and a row-dependent value). */
function single(op: 'and' | 'or' | 'xor', a: number, b: number): number {
  if (op === 'and') {
    if (a === FALSE || b === FALSE) return FALSE;
  } else if (op === 'or' && (a === TRUE || b === TRUE)) return TRUE;
  if (a === VARIES || b === VARIES) return VARIES;
  if (a === NULL || b === NULL) return NULL;
  if (op === 'and') return TRUE;
  if (op === 'or') return FALSE;
  return a === b ? FALSE : TRUE;
}

/** `table[a * 16 + b]`: every outcome of `op` over the outcomes in masks `a` and `b`. */
function outcomeTable(op: 'and' | 'or' | 'xor'): Uint8Array {
  const table = new Uint8Array(256);
  for (let a = 0; a < 16; a++) {
    for (let b = 0; b < 16; b++) {
      let out = 0;
      for (let x = 1; x <= VARIES; x <<= 1) {
        if (!(a & x)) continue;
        for (let y = 1; y <= VARIES; y <<= 1) if (b & y) out |= single(op, x, y);
      }
      table[a * 16 + b] = out;
    }
  }
  return table;
}
const AND = outcomeTable('and');
const OR = outcomeTable('or');
const XOR = outcomeTable('xor');
/** NOT of every outcome in a mask: TRUE and FALSE swap. */
const negate = (mask: number) =>
  (mask & ~(TRUE | FALSE)) | (mask & TRUE ? FALSE : 0) | (mask & FALSE ? TRUE : 0);

/** The value of each mask, made once (no allocation per operand). */
const MASKS: readonly { mask: number }[] = Array.from({ length: 16 }, (_, mask) => ({ mask }));

/** `text` without trailing spaces (a loop: `/ +$/` is quadratic on a run of spaces before a letter). */
export function withoutTrailingSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x20) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** A numeral as every database reads it: plain digits, a point, an exponent. */
const numeral = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** A literal number this scan computes with exactly (a double holds it, at most 15 digits). */
function exactNumber(text: string): number | undefined {
  if (!numeral.test(text)) return undefined;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39 && (digits > 0 || code !== 0x30)) digits++;
    else if ((code | 0x20) === 0x65 /* e */) break;
  }
  return digits > 15 ? undefined : Number(text);
}

/** The leading number of a string, as MySQL reads one in a number's place (`'1abc'` is 1, `'abc'` 0). */
const leadingNumber = /\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)?/iy;

function stringNumber(text: string): number | undefined {
  leadingNumber.lastIndex = 0;
  const digits = leadingNumber.exec(text)?.[1];
  return digits === undefined ? 0 : exactNumber(digits);
}

/** PostgreSQL's true: `t`, `tr`, ..., `true`, `y`, `ye`, `yes`, `on`, `1` (any case, blanks around). */
const postgresTrue = /^\s*(?:t(?:r(?:ue?)?)?|y(?:es?)?|on|1)\s*$/i;

/** What a value is in a WHERE: true, false, NULL, or varying. */
function truth(value: Value): number {
  if ('mask' in value) return value.mask;
  if ('num' in value) return value.num !== 0 ? TRUE : FALSE;
  // MySQL and SQLite read the string's leading number; PostgreSQL its boolean
  // literals (anything else is an error: nothing runs).
  const number = stringNumber(value.str);
  const mysql = number === undefined ? TRUE | FALSE : number !== 0 ? TRUE : FALSE;
  return mysql | (postgresTrue.test(value.str) ? TRUE : 0);
}

const ONE = { num: 1 };
const ZERO = { num: 0 };

/** A value compared or computed with: a known boolean as MySQL's 1 or 0. */
function operand(value: Value): Value {
  if (!('mask' in value)) return value;
  return value.mask === TRUE ? ONE : value.mask === FALSE ? ZERO : value;
}

function compare(left: Value, op: string, right: Value): number {
  const a = operand(left);
  const b = operand(right);
  if (('mask' in a && a.mask & VARIES) || ('mask' in b && b.mask & VARIES)) return VARIES;
  const nullSafe = op === '<=>' || op === 'is not distinct from' || op === 'is distinct from';
  const aNull = 'mask' in a && a.mask === NULL;
  const bNull = 'mask' in b && b.mask === NULL;
  if (aNull || bNull) {
    if (!nullSafe) return NULL;
    // NULL against a constant that may itself be NULL: either outcome.
    if ((aNull && 'mask' in b && !bNull) || (bNull && 'mask' in a && !aNull)) return TRUE | FALSE;
    return aNull && bNull
      ? op === 'is distinct from'
        ? FALSE
        : TRUE
      : op === 'is distinct from'
        ? TRUE
        : FALSE;
  }
  if ('mask' in a || 'mask' in b) return CONSTANT;
  const equalOp = op === '=' || op === '==' || op === '<=>' || op === 'is not distinct from';
  const unequalOp = op === '<>' || op === '!=' || op === 'is distinct from';
  if ('str' in a && 'str' in b) {
    if (a.str === b.str) return equalOp ? TRUE : unequalOp ? FALSE : TRUE | FALSE;
    // Equal as MySQL's default collation reads them (case, trailing blanks), not as PostgreSQL does.
    if (withoutTrailingSpaces(a.str.toLowerCase()) === withoutTrailingSpaces(b.str.toLowerCase())) {
      return TRUE | FALSE;
    }
    return equalOp ? FALSE : unequalOp ? TRUE : TRUE | FALSE;
  }
  // As MySQL reads a string against a number (PostgreSQL reads a numeral alike, rejects the rest).
  const x = 'num' in a ? a.num : stringNumber(a.str);
  const y = 'num' in b ? b.num : stringNumber(b.str);
  if (x === undefined || y === undefined) return TRUE | FALSE;
  const holds = equalOp
    ? x === y
    : unequalOp
      ? x !== y
      : op === '<'
        ? x < y
        : op === '>'
          ? x > y
          : op === '<='
            ? x <= y
            : x >= y;
  return holds ? TRUE : FALSE;
}

function arithmetic(left: Value, op: string, right: Value): Value {
  const a = operand(left);
  const b = operand(right);
  if (('mask' in a && a.mask & VARIES) || ('mask' in b && b.mask & VARIES)) return MASKS[VARIES]!;
  if (('mask' in a && a.mask === NULL) || ('mask' in b && b.mask === NULL)) return MASKS[NULL]!;
  if (!('num' in a && 'num' in b)) return MASKS[CONSTANT]!;
  const x = a.num;
  const y = b.num;
  // Integers only: decimals are exact in SQL (0.1 + 0.2 = 0.3), not in a double.
  if (!(Number.isSafeInteger(x) && Number.isSafeInteger(y))) return MASKS[CONSTANT]!;
  let result: number | undefined;
  if (op === '+') result = x + y;
  else if (op === '-') result = x - y;
  else if (op === '*') result = x * y;
  // Whole quotients and remainders only: integer division differs by database.
  else if ((op === '/' || op === 'div') && y !== 0 && x % y === 0) result = x / y;
  else if ((op === '%' || op === 'mod') && y !== 0 && x >= 0 && y > 0) result = x % y;
  return result !== undefined && Number.isSafeInteger(result) ? { num: result } : MASKS[CONSTANT]!;
}

/** Binding strength of each binary operator (MySQL's order; higher binds tighter). */
const binaryPrecedence: Record<string, number> = {
  or: 1,
  '||': 1,
  xor: 2,
  and: 3,
  '&&': 3,
  '=': 5,
  '==': 5,
  '<=>': 5,
  '<>': 5,
  '!=': 5,
  '<': 5,
  '>': 5,
  '<=': 5,
  '>=': 5,
  'is distinct from': 5,
  'is not distinct from': 5,
  '|': 6,
  '&': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
  div: 10,
  mod: 10,
  '^': 11,
};
const NOT_PRECEDENCE = 4;
const UNARY_PRECEDENCE = 12;

/** Words that end a WHERE condition (the clause after it). */
const clauseWords = new Set([
  'returning',
  'order',
  'limit',
  'group',
  'having',
  'union',
  'intersect',
  'except',
  'offset',
  'fetch',
  'window',
  'for',
  'option',
]);
/** Words that start another statement or a subquery: not followed (each WHERE is read once). */
const statementWords = new Set(['delete', 'update', 'select', 'insert', 'with', 'values']);

const operatorPattern = /<=>|<>|<=|>=|!=|==|\|\||&&|<<|>>|::|[=<>+\-*/%|&^~!]/y;

interface Operator {
  op: string;
  /** Its precedence, 0 for a `(`. */
  precedence: number;
  /** A prefix operator (NOT, unary minus, `~`). */
  prefix?: boolean;
  /** `(` of a group (`group`) or of a function call (`call`, whose arguments were all constant unless `varies`). */
  open?: 'group' | 'call';
  varies?: boolean;
}

const isWordCode = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f ||
  code === 0x24 ||
  (code >= 0x80 && !isJsSpace(code));

/** Each binary operator, made once. */
const binaryOperators = new Map<string, Operator>(
  Object.entries(binaryPrecedence).map(([op, precedence]) => [op, { op, precedence }]),
);
const NOT: Operator = { op: 'not', precedence: NOT_PRECEDENCE, prefix: true };
const BANG: Operator = { op: 'not', precedence: UNARY_PRECEDENCE, prefix: true };
const prefixOperators = new Map<string, Operator>(
  ['-', '+', '~'].map(op => [op, { op, precedence: UNARY_PRECEDENCE, prefix: true }]),
);
const GROUP: Operator = { op: '(', precedence: 0, open: 'group' };

/** A prefix minus, plus or `~`. */
function signed(op: string, value: Value): Value {
  if ('num' in value && op !== '~') return op === '-' ? { num: -value.num } : value;
  if ('mask' in value && value.mask & VARIES) return MASKS[VARIES]!;
  if ('mask' in value && value.mask === NULL) return value;
  return MASKS[CONSTANT]!;
}

/** `value IS [NOT] NULL | TRUE | FALSE | UNKNOWN`. */
function isTest(value: Value, what: string, negated: boolean): Value {
  const subject =
    'mask' in value ? value.mask : what === 'true' || what === 'false' ? truth(value) : FALSE;
  const test = what === 'true' ? TRUE : what === 'false' ? FALSE : NULL;
  let mask = subject & VARIES;
  if (subject & test) mask |= TRUE;
  if (subject & ~test & (TRUE | FALSE | NULL)) mask |= FALSE;
  return MASKS[negated ? negate(mask) : mask]!;
}

function apply(values: Value[], operator: Operator): boolean {
  const right = values.pop();
  if (!right) return false;
  if (operator.prefix) {
    values.push(operator.op === 'not' ? MASKS[negate(truth(right))]! : signed(operator.op, right));
    return true;
  }
  const left = values.pop();
  if (!left) return false;
  const { op } = operator;
  if (op === 'or' || op === '||') values.push(MASKS[OR[truth(left) * 16 + truth(right)]!]!);
  else if (op === 'and' || op === '&&') values.push(MASKS[AND[truth(left) * 16 + truth(right)]!]!);
  else if (op === 'xor') values.push(MASKS[XOR[truth(left) * 16 + truth(right)]!]!);
  else if (operator.precedence === 5) values.push(MASKS[compare(left, op, right)]!);
  else values.push(arithmetic(left, op, right));
  return true;
}

/** Applies the operators above the nearest `(` that bind at least as tight as `precedence`. */
function reduce(values: Value[], operators: Operator[], precedence: number): boolean {
  for (;;) {
    const top = operators[operators.length - 1];
    if (!top || top.open || top.precedence < precedence) return true;
    operators.pop();
    if (!apply(values, top)) return false;
  }
}

const isDigitCode = (code: number) => code >= 0x30 && code <= 0x39;
const isPattern = /\s*(not\s+)?(null|true|false|unknown|distinct\s+from)\b/iy;
const radixNumeral = /^0x[0-9a-f]+$|^0b[01]+$/i;

/**
 * Reads the WHERE condition of `sql` from `from` (past `WHERE`) to the end
 * of its clause (`end`, a `)` it did not open, `RETURNING`, `ORDER BY`,
 * `LIMIT`, ...) and tells whether it holds for every row in some database:
 * `true`, `false`, or `undefined` when it is not an expression this scan
 * reads (`IN`, `BETWEEN`, `CASE`, a subquery, a row, an operator of one
 * database). One pass, with explicit stacks (no recursion: 1 MB of `(`
 * is a long array, not a stack overflow). `budget.left` is how many
 * characters calls may still read: each WHERE is read once, a call past
 * the budget (conditions read over each other) answers `true`: fail closed.
 */
export function conditionAlwaysHolds(
  sql: string,
  from: number,
  end: number,
  budget: { left: number },
): boolean | undefined {
  const scan = readCondition(sql, from, end, budget.left);
  if (scan.stop - from > budget.left) {
    budget.left = -1;
    return true;
  }
  budget.left -= scan.stop - from;
  return scan.holds;
}

function readCondition(
  sql: string,
  from: number,
  end: number,
  limit: number,
): { holds: boolean | undefined; stop: number } {
  const values: Value[] = [];
  const operators: Operator[] = [];
  let opens = 0;
  let expectOperand = true;
  /** The last operand was a bare name: a `(` after it calls a function. */
  let afterName = false;
  let index = from;
  const push = (value: Value) => {
    values.push(value);
    expectOperand = false;
  };
  const fail = { holds: undefined, stop: 0 };
  for (;;) {
    while (index < end && isJsSpace(sql.charCodeAt(index))) index++;
    fail.stop = index;
    if (index - from > limit) return { holds: true, stop: index };
    const code = index < end ? sql.charCodeAt(index) : -1;
    const wasAfterName = afterName;
    afterName = false;
    if (code === -1 || (code === 0x29 /* ) */ && opens === 0)) break;
    if (code === 0x29 /* ) */) {
      index++;
      opens--;
      if (expectOperand) {
        // Only `f()`: a call without arguments, a constant.
        const open = operators.pop();
        let before = index - 1;
        while (before > from && isJsSpace(sql.charCodeAt(before - 1))) before--;
        if (open?.open !== 'call' || sql.charCodeAt(before - 1) !== 0x28) return fail;
        push(MASKS[CONSTANT]!);
        continue;
      }
      if (!reduce(values, operators, 0)) return fail;
      const open = operators.pop()!;
      if (open.open === 'call') {
        const argument = values.pop()!;
        const varies = open.varies || ('mask' in argument && (argument.mask & VARIES) !== 0);
        values.push(MASKS[varies ? VARIES : CONSTANT]!);
      }
      continue;
    }
    if (code === 0x28 /* ( */) {
      index++;
      opens++;
      if (wasAfterName) {
        // A function call: a constant when its arguments are.
        values.pop();
        operators.push({ op: '(', precedence: 0, open: 'call', varies: false });
      } else if (expectOperand) operators.push(GROUP);
      else return fail;
      expectOperand = true;
      continue;
    }
    if (code === 0x2c /* , */) {
      index++;
      if (expectOperand || !reduce(values, operators, 0)) return fail;
      const open = operators[operators.length - 1];
      if (open?.open !== 'call') return fail;
      const argument = values.pop()!;
      if ('mask' in argument && argument.mask & VARIES) open.varies = true;
      expectOperand = true;
      continue;
    }
    if (
      code === 0x27 /* ' */ ||
      code === 0x22 /* " */ ||
      code === 0x60 /* ` */ ||
      code === 0x5b /* [ */
    ) {
      if (!expectOperand) return fail;
      // A string ('' inside is a quote), or a quoted name: a column.
      const closer = code === 0x5b ? 0x5d : code;
      let close = index + 1;
      for (; close < end; close++) {
        if (sql.charCodeAt(close) !== closer) continue;
        if (closer !== 0x27 || sql.charCodeAt(close + 1) !== 0x27) break;
        close++;
      }
      if (close >= end) return fail;
      if (code === 0x27) {
        const text = sql.slice(index + 1, close);
        // A backslash may escape (MySQL): the value is some constant.
        push(text.includes('\\') ? MASKS[CONSTANT]! : { str: text.replaceAll("''", "'") });
      } else push(MASKS[VARIES]!);
      index = close + 1;
      continue;
    }
    if (code === 0x3f /* ? */ || code === 0x40 /* @ */ || code === 0x24 /* $ */) {
      // A parameter or a variable: chosen per call, not a constant of the text.
      if (!expectOperand) return fail;
      index++;
      while (index < end && (isWordCode(sql.charCodeAt(index)) || sql.charCodeAt(index) === 0x40)) {
        index++;
      }
      push(MASKS[VARIES]!);
      continue;
    }
    const numeric =
      isDigitCode(code) || (code === 0x2e /* . */ && isDigitCode(sql.charCodeAt(index + 1)));
    if (numeric || isWordCode(code)) {
      let stop = index;
      let signed = false;
      while (stop < end) {
        const unit = sql.charCodeAt(stop);
        if (!(isWordCode(unit) || unit === 0x2e)) break;
        stop++;
        // An exponent's sign: `1e-3`.
        const sign = sql.charCodeAt(stop);
        if (numeric && !signed && (unit | 0x20) === 0x65 && (sign === 0x2b || sign === 0x2d)) {
          stop++;
          signed = true;
        }
      }
      const word = sql.slice(index, stop);
      index = stop;
      if (numeric) {
        if (!expectOperand) return fail;
        const number = exactNumber(word);
        if (number !== undefined) push({ num: number });
        // A long numeral, hex or bits: some constant; MySQL names may start with digits (`1abc`).
        else push(MASKS[numeral.test(word) || radixNumeral.test(word) ? CONSTANT : VARIES]!);
        continue;
      }
      const lower = word.length <= 9 ? word.toLowerCase() : '';
      if (clauseWords.has(lower)) break;
      if (statementWords.has(lower)) return fail;
      if (
        lower === 'and' ||
        lower === 'or' ||
        lower === 'xor' ||
        lower === 'div' ||
        lower === 'mod'
      ) {
        const operator = binaryOperators.get(lower)!;
        if (expectOperand || !reduce(values, operators, operator.precedence)) return fail;
        operators.push(operator);
        expectOperand = true;
        continue;
      }
      if (lower === 'not') {
        if (!expectOperand) return fail;
        operators.push(NOT);
        continue;
      }
      if (lower === 'null' || lower === 'true' || lower === 'false' || lower === 'unknown') {
        if (!expectOperand) return fail;
        push(MASKS[lower === 'true' ? TRUE : lower === 'false' ? FALSE : NULL]!);
        continue;
      }
      if (lower === 'is') {
        if (expectOperand || !reduce(values, operators, 5)) return fail;
        isPattern.lastIndex = index;
        const match = isPattern.exec(sql);
        if (!match || isPattern.lastIndex > end) return fail;
        index = isPattern.lastIndex;
        const negated = match[1] !== undefined;
        const what = match[2]!.toLowerCase();
        if (what.startsWith('distinct')) {
          operators.push(
            binaryOperators.get(negated ? 'is not distinct from' : 'is distinct from')!,
          );
          expectOperand = true;
        } else values.push(isTest(values.pop()!, what, negated));
        continue;
      }
      // A column, or a function's name (a `(` follows).
      if (!expectOperand) return fail;
      push(MASKS[VARIES]!);
      afterName = true;
      continue;
    }
    operatorPattern.lastIndex = index;
    const match = operatorPattern.exec(sql);
    if (!match || operatorPattern.lastIndex > end) return fail;
    const op = match[0];
    index = operatorPattern.lastIndex;
    if (op === '::') {
      // A cast: some constant of the type (or still a column).
      if (expectOperand) return fail;
      while (index < end && isJsSpace(sql.charCodeAt(index))) index++;
      const start = index;
      while (index < end && isWordCode(sql.charCodeAt(index))) index++;
      if (index === start) return fail;
      const value = values.pop()!;
      values.push(MASKS['mask' in value && value.mask & VARIES ? VARIES : CONSTANT]!);
      continue;
    }
    if (expectOperand) {
      const prefix = op === '!' ? BANG : prefixOperators.get(op);
      if (!prefix) return fail;
      operators.push(prefix);
      continue;
    }
    const operator = binaryOperators.get(op);
    if (!operator || !reduce(values, operators, operator.precedence)) return fail;
    operators.push(operator);
    expectOperand = true;
  }
  if (expectOperand || opens > 0 || !reduce(values, operators, 0) || values.length !== 1) {
    return { holds: undefined, stop: index };
  }
  return { holds: (truth(values[0]!) & TRUE) !== 0, stop: index };
}
