import { isJsSpace } from '../shared/js-space';

/*
 * A WHERE condition evaluated as far as it is constant. A value is either an
 * exact literal (a number, a string) or a set of what it may be across
 * databases and rows: always true, always false, always NULL, or varying
 * with the row (a column, a parameter). `WHERE 1+1=2`, `WHERE (1=1) AND
 * (2=2)`, `WHERE 1='1'` and `WHERE id = 3 OR (1=1 AND 2=2)` hold for every
 * row; `WHERE id = 1` and `WHERE a = '1'` vary. What some database reads
 * otherwise (a string as a boolean, a decimal sum, a cast, a function of
 * constants, a collation) may be any constant: the condition may hold. A
 * function of constants, built-in or the database's own (`is_admin()`,
 * `now()`, `random()`), reads no column of the row: it is the same for
 * every row (or random), so it may hold for all of them. A subquery over a
 * table is unknown, as a column is (it may be correlated with the row).
 *
 * NULL is SQL's: `NULL = NULL` and `1 IN (2, NULL)` are NULL, not true;
 * `NOT NULL` is NULL; `x IN (...)` is the OR of `x = each`, `x BETWEEN a
 * AND b` is `x >= a AND x <= b`, `CASE` takes its first branch whose
 * condition is true.
 */

const TRUE = 1;
const FALSE = 2;
const NULL = 4;
const VARIES = 8;
/** A constant this scan does not compute: true, false or NULL, by database. */
const CONSTANT = TRUE | FALSE | NULL;

/**
 * A value: an exact number or string, or a mask of outcomes. `compared`
 * marks the outcome of a comparison not in parentheses: databases chain
 * comparisons differently (`a = b BETWEEN c AND d`, `1 = 1 IS TRUE`), so a
 * comparison of it is any constant (or varies).
 */
type Value = Num | { str: string } | Outcomes | List;

/**
 * A number: `num`, exact, or (round 38) a plain decimal of more digits
 * than a double holds, `num` its nearest double and `big` its exact digits
 * (`-9223372036854775808`, `1.00000000000000000001`; see `exactDecimal`).
 */
interface Num {
  num: number;
  big?: string;
}

/**
 * A mask of outcomes. `name`: a column's, in lower case (`u.id`); `lits`:
 * the conditions on columns it is made of (see `Literals`); `twin`: how it
 * compares with the value named after the first character, wherever both
 * are defined (see `twinOf`). One shape for all (V8 reads them
 * monomorphically).
 */
interface Outcomes {
  mask: number;
  compared: boolean;
  name: string | undefined;
  lits: Literals | undefined;
  twin: string | undefined;
}

function outcomes(
  mask: number,
  compared = false,
  name: string | undefined = undefined,
  lits: Literals | undefined = undefined,
  twin: string | undefined = undefined,
): Outcomes {
  return { mask, compared, name, lits, twin };
}

/**
 * A row (`(1, 2)`, `ROW(1, 2)`), an array (`ARRAY[1, 2]`), or the operand
 * of `ANY` / `SOME` / `ALL`: its elements, or `undefined` when they are not
 * known (a parameter, `'{1,2}'`, a subquery, more than `maxListLength`).
 * `varies`: some element varies by row.
 */
interface List {
  list: Value[] | undefined;
  kind: 'row' | 'array' | 'any' | 'all';
  varies: boolean;
}

/** Elements a row or array keeps; past this it is some constant (or varies). */
const maxListLength = 4_096;

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
const MASKS: readonly Outcomes[] = Array.from({ length: 16 }, (_, mask) => outcomes(mask));
/** The same, as the outcome of a comparison not in parentheses. */
const COMPARED: readonly Outcomes[] = Array.from({ length: 16 }, (_, mask) => outcomes(mask, true));

/*
 * Conditions on one column, followed by name: `id IS NULL OR id IS NOT
 * NULL`, `id = 1 OR id <> 1`, `(id = 1) IS NOT TRUE OR id = 1` hold for
 * every row though each term varies. A literal is a condition on a base:
 * a column's NULL (`id IS NULL`), a comparison of a column with a literal
 * or another column (`id = 1`, `id < 5`: `<>` and `>=` are their NOTs),
 * or a column read as a boolean. Its table gives its outcome for each
 * outcome of the base (T, F and NULL; for a column's NULL: a value, or
 * NULL), 4 bits each; the ORs and ANDs of literals on one base combine
 * outcome by outcome. A base whose table is one outcome for every row
 * decides the value: TRUE, or, for a comparison, TRUE on every row where
 * it is not NULL (as `id = id` is read).
 */

/** Table bit: the base is a column's NULL (its outcomes are a value, in slot T, or NULL). */
const NULL_BASE = 1 << 12;
/** A comparison's own table: T, F, NULL. */
const IDENTITY = TRUE | (FALSE << 4) | (NULL << 8);

/**
 * ORs (`and` false) or ANDs of literals, by base: the table of what they
 * give for each outcome of the base, negated when `negated` (a NOT flips
 * the flag, and `and`). One literal is `key` and `table`; several, `tables`.
 */
interface Literals {
  and: boolean;
  negated: boolean;
  /** One literal's base: a column, what is tested (`=`, `<`, `>`, `null`, `b`: as a boolean), against what. */
  column: string;
  test: string;
  other: Value | undefined;
  /** Its base as one string, made when several are kept (`tables`). */
  key: string | undefined;
  table: number;
  tables: Map<string, number> | undefined;
  /**
   * Joined (by `and`) with a value that varies by row in a way not
   * followed (`a @> b`, `? = 1`, a correlated subquery): a base that
   * decides still decides OR's TRUE and AND's FALSE, nothing else.
   */
  extra: boolean;
}

/** `table` with `map` applied to each outcome. */
function eachOutcome(table: number, map: (mask: number) => number): number {
  return (
    (table & NULL_BASE) |
    map(table & 15) |
    (map((table >> 4) & 15) << 4) |
    (map((table >> 8) & 15) << 8)
  );
}

/** Two tables of one base, joined outcome by outcome by `op`'s table. */
function joinTables(op: Uint8Array, a: number, b: number): number {
  let out = a & NULL_BASE;
  for (let shift = 0; shift <= 8; shift += 4) {
    out |= op[((a >> shift) & 15) * 16 + ((b >> shift) & 15)]! << shift;
  }
  return out;
}

/**
 * What a table is for every row, or 0 when it varies: one outcome, or for
 * a comparison one outcome wherever it is not NULL (with what NULL gives).
 */
function decided(table: number): number {
  const t = table & 15;
  const f = (table >> 4) & 15;
  const n = (table >> 8) & 15;
  if (t === f && f === n) return t;
  if (table & NULL_BASE || t !== f || (t !== TRUE && t !== FALSE)) return 0;
  return t | n;
}

const literals = (
  column: string,
  test: string,
  other: Value | undefined,
  table: number,
): Literals => ({
  and: false,
  negated: false,
  column,
  test,
  other,
  key: undefined,
  table,
  tables: undefined,
  extra: false,
});

/** A value of one literal. */
const literal = (column: string, test: string, other: Value | undefined, table: number): Value =>
  outcomes(VARIES, false, undefined, literals(column, test, other, table));

/** The base of one literal as a string (a number, a string, a column). */
function keyOf(lits: Literals): string {
  if (lits.key !== undefined) return lits.key;
  const { other } = lits;
  const against =
    other === undefined
      ? ''
      : 'num' in other
        ? `n${other.big ?? other.num}`
        : 'str' in other
          ? `s${other.str}`
          : `c${(other as Outcomes).name ?? (other as Outcomes).twin}`;
  lits.key = `${lits.column}\0${lits.test}\0${against}`;
  return lits.key;
}

/** Whether two literals have one base (without making their keys). */
function sameBase(a: Literals, b: Literals): boolean {
  if (a.column !== b.column || a.test !== b.test) return false;
  const x = a.other;
  const y = b.other;
  if (x === undefined || y === undefined) return x === y;
  if ('num' in x) return 'num' in y && sameNumber(x, y);
  if ('str' in x) return 'str' in y && x.str === y.str;
  return (
    'mask' in x &&
    'mask' in y &&
    x.name === y.name &&
    (x.name !== undefined || (x.twin !== undefined && x.twin === y.twin))
  );
}

/** The literals of a value: its own, or a column read as a boolean. */
function literalsOf(value: Value): Literals | undefined {
  if (!('mask' in value)) return undefined;
  if (value.lits) return value.lits;
  if (value.name === undefined) return undefined;
  return literals(value.name, 'b', undefined, IDENTITY);
}

const effective = (lits: Literals, table: number) =>
  lits.negated ? eachOutcome(table, negate) : table;
const sizeOf = (lits: Literals) => (lits.tables === undefined ? 1 : lits.tables.size);

/**
 * `left OR right` (or AND) where both are literals (or one is OR's FALSE,
 * AND's TRUE): the literals joined, a base that decides making the value
 * (`id IS NULL OR id IS NOT NULL`: TRUE). `undefined`: not literals. The
 * smaller set joins the larger (each literal moves O(log n) times).
 */
function joinLiterals(and: boolean, left: Value, right: Value): Value | undefined {
  const neutral = and ? TRUE : FALSE;
  if ('mask' in left && left.mask === neutral) return literalsOf(right) ? right : undefined;
  if ('mask' in right && right.mask === neutral) return literalsOf(left) ? left : undefined;
  const op = and ? AND : OR;
  if (isNull(left) || isNull(right)) {
    // NULL joined with one literal, outcome by outcome: `NULL AND id = 1` is
    // never TRUE, so `(NULL AND id = 1) IS NOT TRUE` holds for every row.
    const lits = literalsOf(isNull(left) ? right : left);
    if (!lits || lits.tables) return undefined;
    const table = eachOutcome(effective(lits, lits.table), outcome => op[NULL * 16 + outcome]!);
    const outcome = decided(table);
    return outcome !== 0 ? MASKS[outcome]! : literal(lits.column, lits.test, lits.other, table);
  }
  let big = literalsOf(left);
  let small = literalsOf(right);
  // A term that varies but is not followed keeps what the others tell
  // (`id IS NULL OR a @> b OR id IS NOT NULL` holds): it is one more base
  // that never decides. So is an AND of literals beside an OR (`id IS NULL
  // OR a @> b AND c OR id IS NOT NULL`), and the reverse.
  const leftOpaque =
    opaque(left) || (big !== undefined && big.tables !== undefined && big.and !== and);
  const rightOpaque =
    opaque(right) || (small !== undefined && small.tables !== undefined && small.and !== and);
  if (leftOpaque) big = undefined;
  if (rightOpaque) small = undefined;
  if (big && !small && rightOpaque) return withExtra(big, and);
  if (small && !big && leftOpaque) return withExtra(small, and);
  if (!big || !small) return undefined;
  if (sizeOf(small) > sizeOf(big)) [big, small] = [small, big];
  if (!big.tables && !small.tables && sameBase(big, small)) {
    // One base: its tables joined.
    const joined = joinTables(op, effective(big, big.table), effective(small, small.table));
    const outcome = decided(joined);
    return outcome !== 0 ? MASKS[outcome]! : literal(big.column, big.test, big.other, joined);
  }
  // Written to: each value is read once (its operator pops it).
  big.and = and;
  big.tables ??= new Map([[keyOf(big), big.table]]);
  const { tables } = big;
  const others = sizeOf(small) > 1 || small.extra || big.extra;
  big.extra ||= small.extra;
  const join = (key: string, raw: number) => {
    const table = effective(small!, raw);
    const had = tables.get(key);
    const joined = had === undefined ? table : joinTables(op, effective(big!, had), table);
    const outcome = decided(joined);
    if (outcome !== 0) {
      // This base decides; the others vary by row.
      return others || tables.size > (had === undefined ? 0 : 1)
        ? op[outcome * 16 + VARIES]!
        : outcome;
    }
    tables.set(key, effective(big!, joined));
    return 0;
  };
  if (!small.tables) {
    const outcome = join(keyOf(small), small.table);
    return outcome !== 0 ? MASKS[outcome]! : outcomes(VARIES, false, undefined, big);
  }
  for (const [key, raw] of small.tables) {
    const outcome = join(key, raw);
    if (outcome !== 0) return MASKS[outcome]!;
  }
  return outcomes(VARIES, false, undefined, big);
}

/** A value that varies by row, and how is not followed: no literals, no column's name. */
const opaque = (value: Value) =>
  'mask' in value
    ? value.mask === VARIES && value.lits === undefined && value.name === undefined
    : 'list' in value && value.varies;

/** `lits` joined by `and` with a term not followed (written to: each value is read once). */
function withExtra(lits: Literals, and: boolean): Value | undefined {
  if (lits.tables && lits.and !== and) return undefined;
  lits.tables ??= new Map([[keyOf(lits), lits.table]]);
  lits.and = and;
  lits.extra = true;
  return outcomes(VARIES, false, undefined, lits);
}

/** NOT of a value with literals: the flag flips (no walk over them). */
function negatedLiterals(lits: Literals): Value {
  return outcomes(VARIES, false, undefined, {
    ...lits,
    and: lits.tables ? !lits.and : false,
    negated: !lits.negated,
  });
}

/**
 * The literal of `left op right`, a comparison that varies: a named column
 * against a literal or another column. `undefined` when it is none.
 */
function comparisonLiteral(left: Value, op: string, right: Value): Value | undefined {
  let column = left;
  let other = right;
  let flipped = op;
  if (!('name' in left && left.name !== undefined)) {
    if (!('name' in right && right.name !== undefined)) return undefined;
    column = right;
    other = left;
    flipped = op === '<' ? '>' : op === '>' ? '<' : op === '<=' ? '>=' : op === '>=' ? '<=' : op;
  }
  const name = (column as { name: string }).name;
  const nullSafe = op === '<=>' || op === 'is not distinct from' || op === 'is distinct from';
  if (nullSafe && isNull(other)) {
    // `id <=> NULL`, `id IS [NOT] DISTINCT FROM NULL`: `id IS [NOT] NULL`.
    return nullTest(name, op === 'is distinct from');
  }
  if (
    !(
      'num' in other ||
      'str' in other ||
      ('mask' in other && (other.name !== undefined || other.twin?.[0] === ONE_QUERY))
    )
  ) {
    return undefined;
  }
  let base: string;
  let table: number;
  if (flipped === '=' || flipped === '==' || flipped === '<>' || flipped === '!=') {
    base = '=';
    table = flipped === '<>' || flipped === '!=' ? eachOutcome(IDENTITY, negate) : IDENTITY;
  } else if (flipped === '<' || flipped === '>=') {
    base = '<';
    table = flipped === '>=' ? eachOutcome(IDENTITY, negate) : IDENTITY;
  } else if (flipped === '>' || flipped === '<=') {
    base = '>';
    table = flipped === '<=' ? eachOutcome(IDENTITY, negate) : IDENTITY;
  } else if (nullSafe) {
    base = '=';
    // NULL-safe: NULL is FALSE (`<=>`, IS NOT DISTINCT FROM) or TRUE (IS DISTINCT FROM).
    table =
      op === 'is distinct from'
        ? FALSE | (TRUE << 4) | (TRUE << 8)
        : TRUE | (FALSE << 4) | (FALSE << 8);
  } else return undefined;
  return literal(name, base, other, table);
}

/**
 * `name [NOT] LIKE 'a%'`, `name !~ 'a'` (`kind`: the operator) as a
 * literal, so that `name ~ 'a' OR name !~ 'a'` holds as `id = 1 OR id <> 1`
 * does; `undefined` when the subject has no name or the pattern is no string.
 */
function patternLiteral(
  subject: Value,
  kind: string,
  pattern: Value,
  negated: boolean,
): Value | undefined {
  if (!('name' in subject) || subject.name === undefined || subject.lits || !('str' in pattern)) {
    return undefined;
  }
  return literal(subject.name, kind, pattern, negated ? eachOutcome(IDENTITY, negate) : IDENTITY);
}

/**
 * `name [NOT] BETWEEN [SYMMETRIC] a AND b` of two numbers or strings as a
 * literal whose base is the range (round 37: `id BETWEEN 1 AND 5 OR id NOT
 * BETWEEN 1 AND 5` ran); `undefined` otherwise.
 */
function rangeLiteral(
  subject: Value,
  low: Value,
  high: Value,
  between: Operator,
): Value | undefined {
  if (!('name' in subject) || subject.name === undefined || subject.lits || subject.compared) {
    return undefined;
  }
  if (!('num' in low || 'str' in low) || !('num' in high || 'str' in high)) return undefined;
  const range = mixHash(mixHash(between.escaped ? 1 : 0, identityOf(low)), identityOf(high));
  const table = between.negated ? eachOutcome(IDENTITY, negate) : IDENTITY;
  return literal(subject.name, 'between', { num: range >>> 0 }, table);
}

/** `name IS [NOT] NULL` as a literal. */
const IS_NULL_TABLE = NULL_BASE | FALSE | (FALSE << 4) | (TRUE << 8);

function nullTest(name: string, negated: boolean): Value {
  return literal(
    name,
    'null',
    undefined,
    negated ? eachOutcome(IS_NULL_TABLE, negate) : IS_NULL_TABLE,
  );
}

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

/**
 * How one database reads what differs between them: whether `||` is OR
 * (MySQL's default `sql_mode`) or joins strings (PostgreSQL, SQLite,
 * Oracle, standard SQL, MySQL with `PIPES_AS_CONCAT`); whether `"…"` is a
 * string (MySQL without `ANSI_QUOTES`, SQL Server with `QUOTED_IDENTIFIER
 * OFF`, SQLite when no column has that name) or a quoted name; and what a
 * string is as a boolean: its leading number (`number`: MySQL, SQLite),
 * PostgreSQL's boolean literals (`postgres`; any other string is an error:
 * nothing runs), or either (`either`: the database is not known).
 */
interface Mode {
  pipesOr: boolean;
  quotedString: boolean;
  /** `&&` is MySQL's AND; elsewhere (PostgreSQL's array overlap) an operator not read: the term varies. */
  ampersandsAnd: boolean;
  truth: 'number' | 'postgres' | 'either';
}

/** The databases a `dialect` option names; `any` (the default) is each of them. */
export type SqlDialectName = 'postgres' | 'mysql' | 'sqlite' | 'mssql' | 'any';

/**
 * The readings of a WHERE, by dialect. The first is always read; each
 * other one only when the condition has what it reads otherwise (`||`, a
 * `"`), and the WHERE counts as none when any reading holds for every row.
 */
const conditionReadings: Record<SqlDialectName, readonly Mode[]> = {
  // `&&` is AND only in the readings with MySQL's `||` (the others read PostgreSQL's overlap).
  any: [
    { pipesOr: false, quotedString: false, ampersandsAnd: false, truth: 'either' },
    { pipesOr: true, quotedString: false, ampersandsAnd: true, truth: 'number' },
    { pipesOr: false, quotedString: true, ampersandsAnd: false, truth: 'either' },
    { pipesOr: true, quotedString: true, ampersandsAnd: true, truth: 'number' },
  ],
  postgres: [{ pipesOr: false, quotedString: false, ampersandsAnd: false, truth: 'postgres' }],
  // The default sql_mode, and ANSI (PIPES_AS_CONCAT with ANSI_QUOTES).
  mysql: [
    { pipesOr: true, quotedString: true, ampersandsAnd: true, truth: 'number' },
    { pipesOr: false, quotedString: false, ampersandsAnd: true, truth: 'number' },
  ],
  // A "…" that names no column is a string in SQLite; in SQL Server with QUOTED_IDENTIFIER OFF.
  // Neither has `&&` (an error: nothing runs); read as AND, as before.
  sqlite: [
    { pipesOr: false, quotedString: false, ampersandsAnd: true, truth: 'number' },
    { pipesOr: false, quotedString: true, ampersandsAnd: true, truth: 'number' },
  ],
  mssql: [
    { pipesOr: false, quotedString: false, ampersandsAnd: true, truth: 'number' },
    { pipesOr: false, quotedString: true, ampersandsAnd: true, truth: 'number' },
  ],
};

/** What a value is in a WHERE: true, false, NULL, or varying. */
function truth(value: Value, mode: Mode): number {
  if ('mask' in value) return value.mask;
  if ('num' in value) return value.num !== 0 ? TRUE : FALSE;
  if ('list' in value) return value.varies ? VARIES : CONSTANT;
  // MySQL and SQLite read the string's leading number; PostgreSQL its boolean
  // literals (anything else is an error: nothing runs).
  const literal = postgresTrue.test(value.str) ? TRUE : FALSE;
  if (mode.truth === 'postgres') return literal;
  const number = stringNumber(value.str);
  const leading = number === undefined ? TRUE | FALSE : number !== 0 ? TRUE : FALSE;
  return mode.truth === 'number' ? leading : leading | (literal & TRUE);
}

const ONE = { num: 1 };
const ZERO = { num: 0 };

/** A value compared or computed with: a known boolean as MySQL's 1 or 0. */
function operand(value: Value): Exclude<Value, List> {
  if ('list' in value) return MASKS[value.varies ? VARIES : CONSTANT]!;
  if (!('mask' in value)) return value;
  return value.mask === TRUE ? ONE : value.mask === FALSE ? ZERO : value;
}

const varies = (value: Value) =>
  'mask' in value ? (value.mask & VARIES) !== 0 : 'list' in value && value.varies;
const isNull = (value: Value) => 'mask' in value && value.mask === NULL;
/*
 * An expression of the row has a name as a column does, so that what holds
 * of a column compared with itself holds of it: `lower(name) =
 * lower(name)`, `id::int = id::int`, `COALESCE(x, 0) IS NULL OR
 * COALESCE(x, 0) IS NOT NULL`, `NOT (a @> b) OR a @> b` (a term not read,
 * by its text). Its name is a hash of what it is made of (a function's
 * name and arguments, a cast's type, an operator and its operands), so
 * that naming it is linear however deep it nests; a part without one (a
 * parameter `?`, a subquery, a list) leaves it unnamed. A function with
 * the same arguments is read as giving the same value (a random one is
 * not: blocked, fail closed); two expressions whose hashes collide are one
 * (blocked too).
 */

/** The start of an expression's name (a column's never starts so). */
const EXPRESSION = '\u0001';

/** FNV-1a of `text` on from `hash`. */
function hashText(text: string, hash = 0x811c9dc5): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** `hash` with one more part. */
const mixHash = (hash: number, part: number) =>
  Math.imul((hash ^ part) >>> 0, 0x01000193) ^ (part >>> 15);

/** The hash a value adds to an expression made of it, or -1: it has no identity (a parameter, a subquery, a list, some constant). */
function identityOf(value: Value): number {
  if ('name' in value) {
    if (value.name !== undefined) return hashText(value.name);
    return value.mask === TRUE || value.mask === FALSE || value.mask === NULL ? value.mask : -1;
  }
  if ('num' in value) return hashText(value.big ?? String(value.num), 0x1234567);
  if ('str' in value) return hashText(value.str, 0x7654321);
  return -1;
}

/** A value that varies, named by `hash` (-1: unnamed). */
const expression = (hash: number): Value =>
  hash === -1
    ? MASKS[VARIES]!
    : // Two UTF-16 units, not `toString(36)` (a radix conversion per cast or call cost 0.5 µs).
      outcomes(VARIES, false, EXPRESSION + String.fromCharCode(hash & 0xffff, hash >>> 16));

/** `op` of `operands`, named when each has an identity. */
function expressionOf(op: string, ...operands: Value[]): Value {
  let hash = hashText(op);
  for (const operand of operands) {
    const part = identityOf(operand);
    if (part === -1) return MASKS[VARIES]!;
    hash = mixHash(hash, part);
  }
  return expression(hash);
}

/** Two strings some collation reads as equal: case, trailing blanks, accents (MySQL's default ignores them). */
const nonAscii = /[^\0-\x7f]/;

function compare(left: Value, op: string, right: Value): number {
  if ('list' in left || 'list' in right) return compareLists(left, op, right);
  if ('name' in left && left.name !== undefined && 'name' in right && left.name === right.name) {
    // A column against itself: equal on every row where it is not NULL.
    if (op === '<=>' || op === 'is not distinct from') return TRUE;
    if (op === 'is distinct from') return FALSE;
    const equal = op === '=' || op === '==' || op === '<=' || op === '>=';
    return (equal ? TRUE : FALSE) | NULL;
  }
  const twin = twinComparison(left, op, right);
  if (twin !== 0) return twin;
  const a = operand(left);
  const b = operand(right);
  const nullSafe = op === '<=>' || op === 'is not distinct from' || op === 'is distinct from';
  const aNull = isNull(a);
  const bNull = isNull(b);
  // NULL compared with anything, a column too (`u.a = NULL`), is NULL.
  if ((aNull || bNull) && !nullSafe) return NULL;
  if (varies(a) || varies(b)) return VARIES;
  if (aNull || bNull) {
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
    // Equal as MySQL's default collation reads them (case, trailing blanks,
    // accents), not as PostgreSQL does.
    if (
      withoutTrailingSpaces(a.str.toLowerCase()) === withoutTrailingSpaces(b.str.toLowerCase()) ||
      nonAscii.test(a.str) ||
      nonAscii.test(b.str)
    ) {
      return TRUE | FALSE;
    }
    return equalOp ? FALSE : unequalOp ? TRUE : TRUE | FALSE;
  }
  // As MySQL reads a string against a number (PostgreSQL reads a numeral alike, rejects the rest).
  const x = 'num' in a ? a.num : stringNumber(a.str);
  const y = 'num' in b ? b.num : stringNumber(b.str);
  if (x === undefined || y === undefined) return TRUE | FALSE;
  const bigA = 'num' in a ? a.big : undefined;
  const bigB = 'num' in b ? b.big : undefined;
  if ((bigA !== undefined || bigB !== undefined) && x === y) {
    // One double for two decimals: their digits tell, where both are kept
    // (round 38: past 2^53 numbers were some constant, so `id >
    // 9223372036854775808 OR id <= 9223372036854775808` ran). Doubles that
    // differ order the decimals as they do (rounding keeps the order).
    if (bigA === undefined || bigB === undefined) return TRUE | FALSE;
    const order = compareDecimals(bigA, bigB);
    return decimalOutcome(op, equalOp, unequalOp, order);
  }
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

/** Whether `op` holds of two numbers whose order is `order` (-1, 0, 1). */
function decimalOutcome(op: string, equalOp: boolean, unequalOp: boolean, order: number): number {
  const holds = equalOp
    ? order === 0
    : unequalOp
      ? order !== 0
      : op === '<'
        ? order < 0
        : op === '>'
          ? order > 0
          : op === '<='
            ? order <= 0
            : order >= 0;
  return holds ? TRUE : FALSE;
}

/** Two numbers are one: by their exact digits where either has them. */
function sameNumber(a: Num, b: Num): boolean {
  return a.big === undefined && b.big === undefined ? a.num === b.num : a.big === b.big;
}

const plainDecimal = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** Characters of a decimal kept exactly (round 38); a longer one is some constant. */
const maxDecimalLength = 1_000;

/**
 * `text`, a plain decimal numeral (digits, a point, no exponent) of at most
 * `maxDecimalLength` characters, as its exact digits: a minus for a
 * negative, no leading zeros, no trailing zeros after the point, no point
 * after the last digit (`007.50` is `7.5`, `.5` is `0.5`); `undefined`
 * otherwise.
 */
function exactDecimal(text: string): string | undefined {
  if (text.length > maxDecimalLength || !plainDecimal.test(text)) return undefined;
  const negative = text.charCodeAt(0) === 0x2d;
  const unsigned = negative || text.charCodeAt(0) === 0x2b ? text.slice(1) : text;
  const point = unsigned.indexOf('.');
  let whole = point === -1 ? unsigned : unsigned.slice(0, point);
  let fraction = point === -1 ? '' : unsigned.slice(point + 1);
  let from = 0;
  while (from < whole.length - 1 && whole.charCodeAt(from) === 0x30) from++;
  whole = whole.slice(from) || '0';
  let to = fraction.length;
  while (to > 0 && fraction.charCodeAt(to - 1) === 0x30) to--;
  fraction = fraction.slice(0, to);
  const digits = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** The order of two exact decimals (`exactDecimal`'s): -1, 0 or 1. */
function compareDecimals(a: string, b: string): number {
  const negA = a.charCodeAt(0) === 0x2d;
  if (negA !== (b.charCodeAt(0) === 0x2d)) return negA ? -1 : 1;
  const [wholeA, fractionA = ''] = (negA ? a.slice(1) : a).split('.');
  const [wholeB, fractionB = ''] = (negA ? b.slice(1) : b).split('.');
  // No leading zeros: the longer whole part is the larger; then digit by
  // digit (a fraction without trailing zeros that another extends is smaller).
  const order =
    wholeA!.length !== wholeB!.length
      ? wholeA!.length < wholeB!.length
        ? -1
        : 1
      : wholeA !== wholeB
        ? wholeA! < wholeB!
          ? -1
          : 1
        : fractionA === fractionB
          ? 0
          : fractionA < fractionB
            ? -1
            : 1;
  return negA ? -order : order;
}

/**
 * A comparison with a row or with `ANY` / `ALL`: `x op ANY (…)` is the OR
 * of `x op each`, `ALL` the AND; two rows of one length are equal when
 * each pair is (`=`), unequal when some pair is (`<>`); any other
 * comparison of them is some constant (or varies). Linear in the lists.
 */
function compareLists(left: Value, op: string, right: Value): number {
  if ('list' in right && (right.kind === 'any' || right.kind === 'all')) {
    if (right.list === undefined || 'list' in left) {
      return varies(left) || right.varies ? VARIES : CONSTANT;
    }
    const table = right.kind === 'any' ? OR : AND;
    let mask = right.kind === 'any' ? FALSE : TRUE;
    for (const element of right.list) mask = table[mask * 16 + compare(left, op, element)]!;
    return mask;
  }
  const unknown = varies(left) || varies(right) ? VARIES : CONSTANT;
  if (
    !('list' in left && 'list' in right) ||
    left.kind !== 'row' ||
    right.kind !== 'row' ||
    left.list === undefined ||
    right.list === undefined
  ) {
    return unknown;
  }
  // Rows of different lengths: an error, nothing runs.
  if (left.list.length !== right.list.length) return FALSE;
  const all = op === '=' || op === '==' || op === '<=>' || op === 'is not distinct from';
  const some = op === '<>' || op === '!=' || op === 'is distinct from';
  if (!all && !some) return unknown;
  const table = all ? AND : OR;
  let mask = all ? TRUE : FALSE;
  for (let i = 0; i < left.list.length; i++) {
    mask = table[mask * 16 + compare(left.list[i]!, op, right.list[i]!)]!;
  }
  return mask;
}

function arithmetic(left: Value, op: string, right: Value): Value {
  const a = operand(left);
  const b = operand(right);
  // `id + 0`, `0 + id`, `id - 0`, `id * 1`, `1 * id`: the column's value,
  // so `id = id + 0` holds as `id = id` does (a string's number in MySQL;
  // an error, nothing run, in PostgreSQL).
  const zero = (value: Value) => 'num' in value && value.num === 0;
  const one = (value: Value) => 'num' in value && value.num === 1;
  if ('name' in a && a.name !== undefined && !a.lits) {
    if (((op === '+' || op === '-') && zero(b)) || (op === '*' && one(b))) return a;
  }
  if ('name' in b && b.name !== undefined && !b.lits) {
    if ((op === '+' && zero(a)) || (op === '*' && one(a))) return b;
  }
  if (varies(a) || varies(b)) return expressionOf(op, a, b);
  if (isNull(a) || isNull(b)) return MASKS[NULL]!;
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

/** `a || b` where it joins strings: exact for two strings; a number's text depends on how it was written. */
function concat(left: Value, right: Value): Value {
  if (varies(left) || varies(right)) return expressionOf('||', left, right);
  // NULL || 'x' is NULL, but 'x' in Oracle: some constant.
  if ('str' in left && 'str' in right) return { str: left.str + right.str };
  return MASKS[CONSTANT]!;
}

/**
 * Whether `text` matches the LIKE `pattern` (`%` any run, `_` one
 * character), or `undefined` when this scan does not tell: an escape
 * (`\`, MySQL's and PostgreSQL's default), SQL Server's `[...]`, a `_`
 * beside a surrogate pair, or past its step budget (linear: each `%`
 * segment is found leftmost after the one before; a segment with `_` is
 * tried at each place within `4 * (text + pattern) + 4,096` steps).
 */
function likeMatches(text: string, pattern: string): boolean | undefined {
  if (pattern.includes('\\') || pattern.includes('[')) return undefined;
  const wild = pattern.includes('_');
  if (wild && (/[\ud800-\udfff]/.test(text) || /[\ud800-\udfff]/.test(pattern))) return undefined;
  let steps = 4 * (text.length + pattern.length) + 4_096;
  /** Whether `segment` (no `%`) matches `text` at `at`. */
  const matchAt = (segment: string, at: number) => {
    steps -= segment.length;
    for (let i = 0; i < segment.length; i++) {
      const code = segment.charCodeAt(i);
      if (code !== 0x5f /* _ */ && code !== text.charCodeAt(at + i)) return false;
    }
    return true;
  };
  /** The first place at or after `from` where `segment` matches, or -1 (-2: past the budget). */
  const find = (segment: string, from: number) => {
    if (!segment.includes('_')) {
      const found = text.indexOf(segment, from);
      steps -= (found === -1 ? text.length : found + segment.length) - from;
      return found;
    }
    for (let at = from; at + segment.length <= text.length; at++) {
      if (matchAt(segment, at)) return at;
      if (steps < 0) return -2;
    }
    return -1;
  };
  let start = 0;
  let segmentEnd = pattern.indexOf('%');
  if (segmentEnd === -1) return pattern.length === text.length && matchAt(pattern, 0);
  // The first segment is anchored at the start, the last at the end.
  const first = pattern.slice(0, segmentEnd);
  if (first.length > text.length || !matchAt(first, 0)) return false;
  let position = first.length;
  const lastCut = pattern.lastIndexOf('%');
  const last = pattern.slice(lastCut + 1);
  const tailStart = text.length - last.length;
  if (tailStart < position) return false;
  for (start = segmentEnd + 1; start <= lastCut; start = segmentEnd + 1) {
    segmentEnd = pattern.indexOf('%', start);
    if (segmentEnd === start) continue;
    const segment = pattern.slice(start, segmentEnd);
    const found = find(segment, position);
    if (found === -2) return undefined;
    if (found === -1 || found + segment.length > tailStart) return false;
    position = found + segment.length;
  }
  if (steps < 0) return undefined;
  return matchAt(last, tailStart);
}

/** A number's text as both sides of a LIKE read it, where that is sure: an integer. */
function likeText(value: Value): string | undefined {
  if ('str' in value) return value.str;
  if ('num' in value && Number.isSafeInteger(value.num)) return String(value.num);
  return undefined;
}

function like(subject: Value, pattern: Value, insensitive: boolean): number {
  const a = operand(subject);
  const b = operand(pattern);
  if (varies(a) || varies(b)) return VARIES;
  if (isNull(a) || isNull(b)) return NULL;
  const text = likeText(a);
  const shape = likeText(b);
  if (text === undefined || shape === undefined) return CONSTANT;
  // Case counts in PostgreSQL, not in MySQL's default collation nor SQLite's LIKE (nor ILIKE).
  const folded = likeMatches(text.toLowerCase(), shape.toLowerCase());
  const exact = insensitive ? folded : likeMatches(text, shape);
  if (folded === undefined || exact === undefined) return CONSTANT;
  const mask = (folded || exact ? TRUE : 0) | (!folded || !exact ? FALSE : 0);
  // Accents, by collation.
  return nonAscii.test(text) || nonAscii.test(shape) ? mask | TRUE | FALSE : mask;
}

/**
 * A regular expression that matches every string (searched for, not
 * anchored at both ends): units that may match nothing (`.*`, `x?`,
 * `[a-z]{0,3}`), after a `^` or before a `$` (not both: `^.*$` may stop at
 * a line break). Linear: each unit is read one way.
 */
const emptyMatch =
  /^(\^?)(?:(?:\.|\\.|\[[^\]]*\]|[^\\^$.|?*+()[\]{}])(?:[*?]|\{0(?:,\d*)?\})\??)*(\$?)$/;

/**
 * `name LIKE '%'` (ESCAPE aside), `SIMILAR TO '%'`, `GLOB '*'`, `~ '.*'`,
 * `REGEXP ''`: a column or an expression of the row against a pattern
 * every string matches, true on every row where it is not NULL. `kind`:
 * the operator's word (`like`, `similar`, `glob`, `regexp`, `rlike`) or
 * symbol (`~`, `~*`); `escapeChar`, a LIKE's ESCAPE character.
 */
function anyText(subject: Value, pattern: Value, kind: string, escapeChar?: Value): boolean {
  if (!('name' in subject) || subject.name === undefined || !('str' in pattern)) return false;
  const text = pattern.str;
  if (kind === 'like' || kind === 'ilike' || kind === 'similar') {
    // `%%` with ESCAPE '%' is a `%` itself.
    const escaped = escapeChar !== undefined && !('str' in escapeChar && escapeChar.str !== '%');
    return /^%+$/.test(text) && (!escaped || text.length === 1);
  }
  if (kind === 'glob') return /^\*+$/.test(text);
  if (kind !== 'regexp' && kind !== 'rlike' && !kind.startsWith('~')) return false;
  const match = emptyMatch.exec(text);
  return match !== null && !(match[1] && match[2]);
}

/** Binding strength of each binary operator (MySQL's order; higher binds tighter). */
const binaryPrecedence: Record<string, number> = {
  or: 1,
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
  '~': 5,
  '~*': 5,
  '!~': 5,
  '!~*': 5,
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
const COMPARISON = 5;
const NOT_PRECEDENCE = 4;
const UNARY_PRECEDENCE = 12;

/**
 * Words that open a subquery after `(`: its value depends on the data
 * (unknown). `TABLE` before a quoted name too (round 37: a `\b` after the
 * blank missed `TABLE "t"`).
 */
const subqueryWords = /\s*(?:(?:select|with|values)\b|table\s+(?=[\w"`[]))/iy;

/**
 * The words the scan reads, by what they are: `clause` ends the condition
 * (the clause after it), `statement` starts another statement (not
 * followed: each WHERE is read once), `compare` is a comparison written as
 * a word (`[NOT] LIKE | IN | BETWEEN | REGEXP ...`), `niladic` a function
 * written without parentheses (`CURRENT_DATE`), a constant.
 */
const keywords = new Map<string, string>([
  ...'returning order limit group having union intersect except offset fetch window for option'
    .split(' ')
    .map(word => [word, 'clause'] as const),
  ...'delete update select insert with values'.split(' ').map(word => [word, 'statement'] as const),
  ...'and or xor div mod'.split(' ').map(word => [word, 'binary'] as const),
  ...'like ilike in between regexp rlike glob match similar sounds'
    .split(' ')
    .map(word => [word, 'compare'] as const),
  ...(
    'current_date current_time current_timestamp current_user current_role current_schema ' +
    'current_catalog session_user localtime localtimestamp utc_date utc_time utc_timestamp'
  )
    .split(' ')
    .map(word => [word, 'niladic'] as const),
  ...'null true false unknown'.split(' ').map(word => [word, 'literal'] as const),
  ...'when then else end'.split(' ').map(word => [word, 'when'] as const),
  ['symmetric', 'symmetric'],
  ['asymmetric', 'symmetric'],
  ['isnull', 'isnull'],
  ['notnull', 'isnull'],
  ['not', 'not'],
  ['escape', 'escape'],
  ['case', 'case'],
  ['is', 'is'],
  ...'any some all'.split(' ').map(word => [word, 'quantifier'] as const),
  ['array', 'array'],
  ['interval', 'interval'],
  ['collate', 'collate'],
  ['as', 'as'],
  ['using', 'as'],
]);

/**
 * Type names SQL Server's `CONVERT(type, value)` and `TRY_CONVERT` take
 * first (a name there is a type, not a column).
 */
const convertTypes = new Set(
  (
    'bigint binary bit char date datetime datetime2 datetimeoffset decimal float image int integer money ' +
    'nchar ntext numeric nvarchar real smalldatetime smallint smallmoney sql_variant text time tinyint ' +
    'uniqueidentifier varbinary varchar xml signed unsigned json double'
  ).split(' '),
);
/** The units after `INTERVAL expr` (MySQL, PostgreSQL): `INTERVAL 1 DAY`, `INTERVAL '1' YEAR TO MONTH`. */
const intervalUnits = new Set(
  (
    'microsecond second minute hour day week month quarter year microseconds seconds minutes hours ' +
    'days weeks months quarters years second_microsecond minute_microsecond minute_second ' +
    'hour_microsecond hour_second hour_minute day_microsecond day_second day_minute day_hour year_month'
  ).split(' '),
);
/**
 * The operator at `index` (`<=>`, `<>`, `<=`, `>=`, `!=`, `==`, `||`, `&&`,
 * `<<`, `>>`, `::`, `!~`, `!~*`, `~*` or one of `= < > + - * / % | & ^ ~ !`), or `undefined`.
 */
function operatorAt(sql: string, index: number, end: number): string | undefined {
  const code = sql.charCodeAt(index);
  const next = index + 1 < end ? sql.charCodeAt(index + 1) : -1;
  switch (code) {
    case 0x3c /* < */:
      if (next === 0x3d /* = */) {
        return index + 2 < end && sql.charCodeAt(index + 2) === 0x3e ? '<=>' : '<=';
      }
      return next === 0x3e ? '<>' : next === 0x3c ? '<<' : '<';
    case 0x3e /* > */:
      return next === 0x3d ? '>=' : next === 0x3e ? '>>' : '>';
    case 0x21 /* ! */:
      if (next === 0x3d) return '!=';
      if (next !== 0x7e /* ~ */) return '!';
      return index + 2 < end && sql.charCodeAt(index + 2) === 0x2a ? '!~*' : '!~';
    case 0x3d /* = */:
      return next === 0x3d ? '==' : '=';
    case 0x7c /* | */:
      return next === 0x7c ? '||' : '|';
    case 0x26 /* & */:
      return next === 0x26 ? '&&' : '&';
    case 0x3a /* : */:
      return next === 0x3a ? '::' : undefined;
    case 0x7e /* ~ */:
      return next === 0x2a ? '~*' : '~';
    case 0x2b:
      return '+';
    case 0x2d:
      return '-';
    case 0x2a:
      return '*';
    case 0x2f:
      return '/';
    case 0x25:
      return '%';
    case 0x5e:
      return '^';
    default:
      return undefined;
  }
}

/** An operator waiting for its right operand, or an open frame. One shape for all (V8 reads them monomorphically). */
class Operator {
  op: string;
  /** Its precedence, 0 for a `(`, an IN list or a CASE. */
  precedence: number;
  /** A prefix operator (NOT, unary minus, `~`). */
  prefix = false;
  /**
   * `(` of a group, of a function call (`call`: whose arguments were all
   * constant unless `varies`), of an IN list (`in`), of `ANY` / `SOME`
   * (`any`) or `ALL` (`all`), `[` of an `ARRAY[…]` (`array`), or a `case`;
   * '' for an operator.
   */
  open: '' | 'group' | 'call' | 'in' | 'case' | 'array' | 'any' | 'all' = '';
  varies = false;
  /** A call: the function's name, in lower case (`cast`, `convert`). */
  name = '';
  /**
   * A group with commas (a row), `ROW(`, or an array: the elements before
   * the last, `undefined` past `maxListLength` (or none yet, for a group).
   */
  items: Value[] | undefined = undefined;
  /** Elements were dropped past `maxListLength`. */
  long = false;
  /** IN: the value tested, and the OR of its comparisons so far; CASE: the simple form's value. */
  subject: Value | undefined = undefined;
  outcome = 0;
  /** NOT IN, NOT BETWEEN, NOT LIKE. */
  negated = false;
  /** BETWEEN: 1 before its AND, 2 after; CASE: 0 after CASE, 1 in WHEN, 2 in THEN, 3 in ELSE. */
  stage = 0;
  /** LIKE ... ESCAPE: the escape is an operand; BETWEEN SYMMETRIC. */
  escaped = false;
  /** ILIKE. */
  insensitive = false;
  /** CASE: the current WHEN's outcome, whether a branch was taken for sure, how the choice varies, the candidates. */
  when = 0;
  taken = false;
  choice = 0;
  result: Value | undefined = undefined;
  same = true;
  /**
   * CASE (round 38): the column it is wherever that column is not NULL
   * (`CASE WHEN id IS NULL THEN 0 ELSE id END`; '' none yet, undefined
   * none), whether a branch settled each such row, and the current WHEN's
   * test of a column's NULL (`=id`: `id IS NULL`, `!id`: `IS NOT NULL`).
   */
  nullTwin: string | undefined = '';
  nullTwinDone = false;
  whenNull: string | undefined = undefined;
  /** A call: the hash of its name and of the arguments so far (-1: one has no identity; see `expression`). */
  hash = 0;

  constructor(op: string, precedence: number, fields?: Partial<Operator>) {
    this.op = op;
    this.precedence = precedence;
    if (fields) Object.assign(this, fields);
  }
}

/** An open frame (no `Object.assign`: one of these per parenthesis of a flood). */
function frameOf(op: string, open: Operator['open'], items?: Value[], name?: string): Operator {
  const frame = new Operator(op, 0);
  frame.open = open;
  if (items) frame.items = items;
  if (name !== undefined) {
    frame.name = name;
    frame.hash = hashText(name);
  }
  return frame;
}

/** A call's hash with one more argument (or a cast's type, as a string). */
function calledWith(frame: Operator, argument: Value): number {
  if (frame.hash === -1) return -1;
  const part = identityOf(argument);
  frame.hash = part === -1 ? -1 : mixHash(frame.hash, part);
  return frame.hash;
}

/** Calls whose value is their argument where each argument is the same (`COALESCE(id, id)` is `id`). */
const sameValueCalls = new Set(['coalesce', 'ifnull', 'nvl', 'isnull', 'greatest', 'least']);

/**
 * Takes a call's next argument: the first is the call's `subject`, and
 * `same` stays while each is the same expression of the row as it (by its
 * name). After the last: the call's value where it is that of its
 * arguments (round 36: `COALESCE(id, id) = id` and `GREATEST(id, id) = id`
 * were two expressions and ran; `COALESCE(id)` is `id`, `NULLIF(id, id)`
 * NULL; `IF(c, x, x)` and `IIF` are `x`), else undefined.
 */
function sameArgument(frame: Operator, argument: Value): Value | undefined {
  // MySQL's IF and SQL Server's IIF of one value either way (`IF(id = 1, 1, 1)`): that value.
  if (++frame.stage === 2) frame.result = argument;
  else if (frame.stage === 3 && (frame.name === 'if' || frame.name === 'iif')) {
    const chosen = identityOf(frame.result!);
    if (chosen !== -1 && chosen === identityOf(argument)) return frame.result;
    // `IF(id IS NULL, 0, id)`, `IIF(id IS NOT NULL, id, 0)`: COALESCE's twin (round 38).
    const guard = nullTestOf(frame.subject!);
    const kept = guard?.[0] === '=' ? argument : guard?.[0] === '!' ? frame.result! : undefined;
    return kept !== undefined && columnOf(kept) === guard!.slice(1)
      ? outcomes(VARIES, false, undefined, undefined, guard!.replace('!', '='))
      : undefined;
  }
  const first = frame.subject;
  if (first === undefined) {
    frame.subject = argument;
    frame.same = identityOf(argument) !== -1 && varies(argument);
  } else if (frame.same && identityOf(argument) !== identityOf(first)) frame.same = false;
  const subject = frame.subject!;
  if (!frame.same || frame.hash === -1) return undefined;
  // One argument (`COALESCE(id)`; MySQL's `ISNULL(id)` is `id IS NULL`): only COALESCE.
  if (first === undefined) return frame.name === 'coalesce' ? subject : undefined;
  if (frame.name === 'nullif') return MASKS[NULL]!;
  return sameValueCalls.has(frame.name) ? subject : undefined;
}

/**
 * Calls that are their first argument wherever it is not NULL (`=`), or at
 * least (`>`) or at most (`<`) it wherever they are defined, whatever
 * their other arguments.
 */
/** A twin's relation: never negative (no value named). */
const NON_NEGATIVE = '+';
/**
 * Not a twin: a subquery the same for every row, named by its text (round
 * 38), so that a column compared with it is a literal on one base however
 * often it is written (`id = (SELECT max(id) FROM t) OR id <> (SELECT
 * max(id) FROM t)` ran). Its value stays some constant.
 */
const ONE_QUERY = '#';

const twinCalls = new Map([
  ['coalesce', '='],
  ['ifnull', '='],
  ['nvl', '='],
  ['isnull', '='],
  ['greatest', '>'],
  ['least', '<'],
  // Round 38: a cast of its one argument is that argument for a comparison
  // with it (`COALESCE(id, 0) = CAST(id AS int)` ran), read as `::` is.
  ['cast', '='],
  ['try_cast', '='],
  // Round 38: never negative wherever defined (`abs(id) >= 0` ran). Any
  // function's range is open-ended; these are the common ones.
  ['abs', NON_NEGATIVE],
  ['length', NON_NEGATIVE],
  ['len', NON_NEGATIVE],
  ['char_length', NON_NEGATIVE],
  ['character_length', NON_NEGATIVE],
  ['octet_length', NON_NEGATIVE],
  ['bit_length', NON_NEGATIVE],
  ['datalength', NON_NEGATIVE],
  ['count', NON_NEGATIVE],
]);

/** Calls of one argument whose twin is read. */
const oneArgumentTwins = new Set(['cast', 'try_cast']);

/**
 * A closed call's `twin` (round 37: `COALESCE(id, 0) = id` ran, though
 * it is `id = id` wherever id is not NULL, and NULL elsewhere): its
 * relation to its first argument (`=`, `>` for at least, `<` for at
 * most) and that argument's name, `=id`; through a call of the same
 * relation or a COALESCE (`COALESCE(COALESCE(id, 0), 1)` is `=id`,
 * `GREATEST(COALESCE(id, 0), 5)` `>id`). Undefined for one argument
 * (MySQL's `ISNULL(id)` is `id IS NULL`) or a first argument of no name.
 */
function twinOf(frame: Operator): string | undefined {
  const relation = twinCalls.get(frame.name);
  const first = frame.subject;
  if (
    relation === undefined ||
    first === undefined ||
    !('mask' in first) ||
    !(first.mask & VARIES) ||
    first.twin?.[0] === ONE_QUERY
  ) {
    return undefined;
  }
  if (relation === NON_NEGATIVE) return NON_NEGATIVE;
  const inner = first.twin;
  if (frame.stage < 2) return oneArgumentTwins.has(frame.name) ? castTwin(first) : undefined;
  if (inner !== undefined && (inner[0] === '=' || inner[0] === relation)) {
    return relation + inner.slice(1);
  }
  return first.name === undefined ? undefined : relation + first.name;
}

/** A cast's twin: its operand's, or the operand itself where it has a name (`id::int` is `=id`). */
function castTwin(operand: Outcomes): string | undefined {
  return operand.twin ?? (operand.name === undefined ? undefined : `=${operand.name}`);
}

/** What each relation of a twin to its value makes of each comparison: TRUE or FALSE where defined. */
const twinOutcomes: Record<string, Record<string, number>> = {
  '=': {
    '=': TRUE,
    '==': TRUE,
    '<=': TRUE,
    '>=': TRUE,
    '<>': FALSE,
    '!=': FALSE,
    '<': FALSE,
    '>': FALSE,
  },
  '>': { '>=': TRUE, '<': FALSE },
  '<': { '<=': TRUE, '>': FALSE },
};

/**
 * `left op right` where one is a twin of the other (`COALESCE(id, 0) =
 * id`): TRUE or FALSE wherever both are defined, with NULL elsewhere, as a
 * column compared with itself is; 0 when neither is or the comparison
 * tells rows apart (`GREATEST(id, 5) <= id`, a NULL-safe one).
 */
function twinComparison(left: Value, op: string, right: Value): number {
  if ('mask' in left && left.twin === NON_NEGATIVE) {
    return nonNegativeComparison(op, numberOf(right));
  }
  if ('mask' in right && right.twin === NON_NEGATIVE) {
    return nonNegativeComparison(flippedOperators[op] ?? op, numberOf(left));
  }
  if (!('mask' in left) || !('mask' in right)) return 0;
  let relation: string | undefined;
  const kinds = `${left.twin?.[0]}${right.twin?.[0]}`;
  if (kinds.includes(NON_NEGATIVE) || kinds.includes(ONE_QUERY)) return 0;
  if (left.twin !== undefined && right.name !== undefined && left.twin.slice(1) === right.name) {
    relation = left.twin[0];
  } else if (
    right.twin !== undefined &&
    left.name !== undefined &&
    right.twin.slice(1) === left.name
  ) {
    // Its relation from the left: `id >= LEAST(id, 5)` is `LEAST(id, 5) <= id`.
    relation = flippedOperators[right.twin[0]!] ?? '=';
  } else if (
    left.twin !== undefined &&
    right.twin !== undefined &&
    left.twin.slice(1) === right.twin.slice(1)
  ) {
    // Both of one value (round 38: `COALESCE(id, 0) = id::int`): at least it
    // and at most it is at least the other, and so on.
    const a = left.twin[0];
    const b = right.twin[0];
    relation =
      a === b && a === '='
        ? '='
        : (a === '=' || a === '>') && (b === '=' || b === '<')
          ? '>'
          : (a === '=' || a === '<') && (b === '=' || b === '>')
            ? '<'
            : undefined;
  }
  const outcome = relation === undefined ? undefined : twinOutcomes[relation]![op];
  return outcome === undefined ? 0 : outcome | NULL;
}

/** A number, or a string's as MySQL reads it in a number's place (`'0'`); else undefined. */
const numberOf = (value: Value) =>
  'num' in value ? value.num : 'str' in value ? stringNumber(value.str) : undefined;

/** `<` and `>` (and with `=`) the other way round. */
const flippedOperators: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

/**
 * `f(x) op num` where f is never negative (`abs`, `length`): TRUE or FALSE
 * wherever x is not NULL, with NULL elsewhere (as `id = id` is read), or 0
 * where the comparison tells rows apart (`abs(id) > 0`).
 */
function nonNegativeComparison(op: string, num: number | undefined): number {
  if (num === undefined) return 0;
  const holds =
    (op === '>=' && num <= 0) ||
    (op === '>' && num < 0) ||
    ((op === '<>' || op === '!=') && num < 0);
  const fails =
    (op === '<' && num <= 0) ||
    (op === '<=' && num < 0) ||
    ((op === '=' || op === '==') && num < 0);
  return holds ? TRUE | NULL : fails ? FALSE | NULL : 0;
}

/** The numbers 0-1023, made once (values are never written to). */
const SMALL_NUMBERS: readonly { num: number }[] = Array.from({ length: 1_024 }, (_, num) => ({
  num,
}));

const isWordCode = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f ||
  code === 0x24 ||
  (code >= 0x80 && !isJsSpace(code));

/** Each binary operator, made once. */
const binaryOperators = new Map<string, Operator>(
  Object.entries(binaryPrecedence).map(([op, precedence]) => [op, new Operator(op, precedence)]),
);
const NOT = new Operator('not', NOT_PRECEDENCE, { prefix: true });
const BANG = new Operator('not', UNARY_PRECEDENCE, { prefix: true });
const prefixOperators = new Map<string, Operator>(
  ['-', '+', '~'].map(op => [op, new Operator(op, UNARY_PRECEDENCE, { prefix: true })]),
);
const GROUP = new Operator('(', 0, { open: 'group' });
/** `INTERVAL expr [unit]`: looser than arithmetic (`INTERVAL 1 + 1 DAY`), tighter than `|`. */
const INTERVAL = new Operator('interval', 8.5, { prefix: true });
/** `||` as MySQL reads it (OR) and as the others do: joins strings, tighter than `*` (SQLite's; PostgreSQL's is looser, so arithmetic beside it is not computed). */
const PIPES_OR = new Operator('or', 1);
const PIPES_CONCAT = new Operator('||', 11.5);

/** A prefix minus, plus or `~`. */
function signed(op: string, value: Value): Value {
  if ('num' in value && op !== '~' && op !== 'interval') {
    if (op !== '-') return value;
    if (value.big === undefined) return { num: -value.num };
    const big =
      value.big === '0' ? '0' : value.big[0] === '-' ? value.big.slice(1) : `-${value.big}`;
    return { num: -value.num, big };
  }
  // `+id`: the column.
  if (op === '+' && 'name' in value && value.name !== undefined && !value.lits) return value;
  if (varies(value)) return expressionOf(op, value);
  if (isNull(value)) return MASKS[NULL]!;
  return MASKS[CONSTANT]!;
}

/** `value IS [NOT] NULL | TRUE | FALSE | UNKNOWN`. */
function isTest(value: Value, what: string, negated: boolean, mode: Mode): Value {
  if ('mask' in value && value.mask === VARIES) {
    if (what === 'null' && value.name !== undefined && !value.lits) {
      return nullTest(value.name, negated);
    }
    const lits = literalsOf(value);
    if (lits && !lits.tables) {
      // Outcome by outcome: `(id = 1) IS NOT TRUE` is TRUE where `id = 1` is FALSE or NULL.
      const table = eachOutcome(effective(lits, lits.table), outcome => {
        const mask = (isTest(MASKS[outcome]!, what, negated, mode) as Outcomes).mask;
        return mask;
      });
      // `(NULL AND id = 1) IS NOT TRUE`: one outcome for every row.
      const outcome = decided(table);
      return outcome !== 0 ? MASKS[outcome]! : literal(lits.column, lits.test, lits.other, table);
    }
  }
  const subject =
    'mask' in value || 'list' in value
      ? truth(value, mode)
      : what === 'true' || what === 'false'
        ? truth(value, mode)
        : FALSE;
  const test = what === 'true' ? TRUE : what === 'false' ? FALSE : NULL;
  let mask = subject & VARIES;
  if (subject & test) mask |= TRUE;
  if (subject & ~test & (TRUE | FALSE | NULL)) mask |= FALSE;
  return COMPARED[negated ? negate(mask) : mask]!;
}

/** A comparison's outcome; of a chained comparison (`a = b = c`), any constant or varying. */
function comparedOutcome(mask: number, chained: boolean, ...operands: Value[]): Value {
  if (!chained) return COMPARED[mask]!;
  return COMPARED[mask & VARIES || operands.some(varies) ? VARIES : CONSTANT]!;
}

const isChained = (value: Value) => 'mask' in value && value.compared;

function apply(values: Value[], operator: Operator, mode: Mode): boolean {
  const right = values.pop();
  if (!right) return false;
  if (operator.prefix) {
    if (operator.op !== 'not') values.push(signed(operator.op, right));
    else {
      const lits = literalsOf(right);
      values.push(lits ? negatedLiterals(lits) : MASKS[negate(truth(right, mode))]!);
    }
    return true;
  }
  const left = values.pop();
  if (!left) return false;
  const { op } = operator;
  if (op === 'or' || op === 'and' || op === '&&') {
    const and = op !== 'or';
    values.push(
      joinLiterals(and, left, right) ??
        MASKS[(and ? AND : OR)[truth(left, mode) * 16 + truth(right, mode)]!]!,
    );
  } else if (op === 'xor') values.push(MASKS[XOR[truth(left, mode) * 16 + truth(right, mode)]!]!);
  else if (op === '||') values.push(concat(left, right));
  else if (op === 'between') {
    // x [NOT] BETWEEN [SYMMETRIC] a AND b: `left` is a, `right` b.
    const subject = values.pop();
    if (!subject || operator.stage !== 2) return false;
    const range = (low: Value, high: Value) =>
      AND[compare(subject, '>=', low) * 16 + compare(subject, '<=', high)]!;
    let mask = range(left, right);
    if (operator.escaped) mask = OR[mask * 16 + range(right, left)]!;
    values.push(
      (mask === VARIES && rangeLiteral(subject, left, right, operator)) ||
        comparedOutcome(
          operator.negated ? negate(mask) : mask,
          isChained(subject),
          subject,
          left,
          right,
        ),
    );
  } else if (op === 'like') {
    // With ESCAPE, `right` is the escape character: the match is some constant.
    const subject = operator.escaped ? values.pop() : left;
    const pattern = operator.escaped ? left : right;
    if (!subject) return false;
    let mask = anyText(subject, pattern, 'like', operator.escaped ? right : undefined)
      ? TRUE | NULL
      : operator.escaped
        ? varies(subject) || varies(pattern) || varies(right)
          ? VARIES
          : CONSTANT
        : like(subject, pattern, operator.insensitive === true);
    if (operator.negated) mask = negate(mask);
    values.push(
      (mask === VARIES &&
        !operator.escaped &&
        patternLiteral(
          subject,
          operator.insensitive ? 'ilike' : 'like',
          pattern,
          operator.negated,
        )) ||
        comparedOutcome(mask, isChained(subject), subject, pattern),
    );
  } else if (op === 'match' || op.includes('~')) {
    // A regular expression (REGEXP, RLIKE, GLOB, SIMILAR TO, SOUNDS LIKE, `~`): not computed.
    // With ESCAPE (SIMILAR TO), `right` is the escape character.
    const subject = operator.escaped ? values.pop() : left;
    if (!subject) return false;
    const operands = [subject, left, right];
    const pattern = operator.escaped ? left : right;
    const kind = op === 'match' ? operator.name : op.replace('!', '');
    const mask = anyText(subject, pattern, kind)
      ? TRUE | NULL
      : operands.some(varies)
        ? VARIES
        : operands.some(isNull)
          ? NULL
          : CONSTANT;
    const negated = operator.negated || op.startsWith('!');
    values.push(
      (mask === VARIES && !operator.escaped && patternLiteral(subject, kind, pattern, negated)) ||
        COMPARED[negated ? negate(mask) : mask]!,
    );
  } else if (operator.precedence === COMPARISON) {
    const mask = compare(left, op, right);
    const chained = isChained(left);
    values.push(
      (mask === VARIES && !chained && comparisonLiteral(left, op, right)) ||
        comparedOutcome(mask, chained, left, right),
    );
  } else values.push(arithmetic(left, op, right));
  return true;
}

/** Applies the operators above the nearest open frame that bind at least as tight as `precedence`. */
function reduce(values: Value[], operators: Operator[], precedence: number, mode: Mode): boolean {
  for (;;) {
    const top = operators[operators.length - 1];
    if (!top || top.open || top.precedence < precedence) return true;
    operators.pop();
    if (!apply(values, top, mode)) return false;
  }
}

/** The column (or expression) a value is wherever that is not NULL: its name, or its twin's of `=` (`CAST(id AS int)`). */
function columnOf(value: Value): string | undefined {
  if (!('mask' in value) || value.lits) return undefined;
  return value.twin?.[0] === '='
    ? value.twin.slice(1)
    : value.twin === undefined
      ? value.name
      : undefined;
}

/** The column a condition tests for NULL alone: `=id` for `id IS NULL`, `!id` for `IS NOT NULL`. */
function nullTestOf(condition: Value): string | undefined {
  const lits = literalsOf(condition);
  if (!lits || lits.tables || lits.extra || lits.test !== 'null') return undefined;
  const table = effective(lits, lits.table);
  return table === IS_NULL_TABLE
    ? `=${lits.column}`
    : table === eachOutcome(IS_NULL_TABLE, negate)
      ? `!${lits.column}`
      : undefined;
}

/**
 * Follows whether a CASE is one column wherever that column is not NULL
 * (round 38: `CASE WHEN id IS NULL THEN 0 ELSE id END = id` ran): each
 * branch gives the column, or is taken only where it is NULL; a branch
 * `WHEN id IS NOT NULL THEN id` or an ELSE of it settles every other row.
 */
function nullTwinBranch(frame: Operator, value: Value): void {
  if (frame.nullTwin === undefined || frame.nullTwinDone) return;
  const guard = frame.whenNull;
  const column = guard?.slice(1);
  if (guard !== undefined && guard[0] === '=') {
    if (frame.nullTwin === '' || frame.nullTwin === column) frame.nullTwin = column;
    else frame.nullTwin = undefined;
    return;
  }
  const name = columnOf(value);
  if (name === undefined || (frame.nullTwin !== '' && frame.nullTwin !== name)) {
    frame.nullTwin = undefined;
    return;
  }
  frame.nullTwin = name;
  // An ELSE, or `WHEN id IS NOT NULL THEN id`: no row where it is not NULL goes on.
  if (frame.stage === 3 || column === name) {
    frame.nullTwinDone = true;
  }
}

/** Adds a CASE branch's value, reached when its WHEN's outcome (`when`) may be true. */
function caseBranch(frame: Operator, value: Value, when: number): void {
  if (!frame.subject) nullTwinBranch(frame, value);
  if (frame.taken || !(when & (TRUE | VARIES))) return;
  if (when !== TRUE) frame.choice |= when & VARIES ? VARIES : CONSTANT;
  else frame.taken = true;
  if (varies(value)) frame.varies = true;
  if (!frame.result) {
    frame.result = value;
    return;
  }
  const first = frame.result;
  // One value, or one expression of the row (`CASE WHEN a @> b THEN lower(x) ELSE lower(x) END`).
  const equal =
    ('num' in first && 'num' in value && sameNumber(first, value)) ||
    ('str' in first && 'str' in value && first.str === value.str) ||
    ('mask' in first && 'mask' in value && first.mask === value.mask && !(first.mask & VARIES)) ||
    ('mask' in first &&
      'mask' in value &&
      first.name !== undefined &&
      first.name === value.name &&
      !first.lits &&
      !value.lits) ||
    ('mask' in first && 'mask' in value && sameLiteral(first.lits, value.lits));
  if (!equal) frame.same = false;
}

/** Whether two values are one literal: one base, one table (`id IS NOT NULL` twice). */
function sameLiteral(a: Literals | undefined, b: Literals | undefined): boolean {
  if (!a || !b || a.tables || b.tables || a.extra || b.extra) return false;
  return sameBase(a, b) && effective(a, a.table) === effective(b, b.table);
}

/** A CASE's value: its one branch, or one of several, by row (varies) or by database (a constant). */
function caseValue(frame: Operator): Value {
  const result = frame.result ?? MASKS[NULL]!;
  if (frame.same) return result;
  return MASKS[frame.choice & VARIES || frame.varies ? VARIES : CONSTANT]!;
}

const isDigitCode = (code: number) => code >= 0x30 && code <= 0x39;
const isPattern = /\s*(not\s+)?(null|true|false|unknown|distinct\s+from)\b/iy;
const radixNumeral = /^0x[0-9a-f]+$|^0b[01]+$/i;
/** Where the next word starts and ends (past blanks), for `NOT LIKE`, `SIMILAR TO`, `IN (`. */
const nextWord = /\s*([a-z_]+)\b/iy;

/** What `readCondition` saw that other readings read otherwise. */
const SEEN_PIPES = 1;
const SEEN_QUOTE = 2;
const SEEN_AMPERSANDS = 4;

/** How many operators may wait at once (parentheses, NOT, CASE): deeper is not evaluated, and blocked. */
export const maxConditionDepth = 256;

/** Why a condition was not evaluated, and counted as always true (fail closed). */
export type ConditionLimit = 'nesting' | 'budget' | 'subqueries' | 'scalar' | 'compound';

/**
 * Reads the WHERE condition of `sql` from `from` (past `WHERE`) to the end
 * of its clause (`end`, a `)` it did not open, `RETURNING`, `ORDER BY`,
 * `LIMIT`, ...) and tells whether it holds for every row in some database:
 * `true`, `false`, or `undefined` when it is not an expression this scan
 * reads (an operator of one database). It is read as each database of
 * `dialect` reads it (`||` as OR or joining strings, `"…"` as a string or
 * a name, a string as a boolean: `conditionReadings`); the condition holds
 * when one reading holds. One pass per reading, with explicit stacks (no
 * recursion) of at most `maxConditionDepth` waiting operators. `budget.left`
 * is how many characters calls may still read: each WHERE is read once, a
 * call past the budget (conditions read over each other) or past the depth
 * answers `true`, fail closed, and sets `budget.limit`. `backslash` lists
 * the quotes inside which `\` escapes (the reading's). `[outerFrom,
 * outerTo)` is the statement's text before its WHERE (`DELETE FROM users
 * u`): a subquery that names none of its tables or aliases is one value
 * for every row.
 */
export function conditionAlwaysHolds(
  sql: string,
  from: number,
  end: number,
  budget: { left: number; limit?: ConditionLimit },
  backslash = '',
  dialect: SqlDialectName = 'any',
  outerFrom = from,
  outerTo = from,
  statementFrom = outerFrom,
): boolean | undefined {
  beginCondition(sql, end, outerFrom, outerTo, statementFrom);
  const { scan, holds, read } = readingsOf(sql, from, end, budget.left, dialect, backslash);
  if (scan.limit === 'nesting') {
    budget.limit = 'nesting';
    return true;
  }
  // A subquery past the depth read whole whose WHERE holds for every row or
  // for none: what it makes of the subqueries around it is not read.
  if (holds !== true && deepConstant) {
    budget.limit = 'subqueries';
    return true;
  }
  if (holds !== true && setOperationUnread) {
    budget.limit = 'compound';
    return true;
  }
  if (read > budget.left) {
    budget.left = -1;
    budget.limit = 'budget';
    return true;
  }
  budget.left -= read;
  // The target joined with itself, each row with itself (`DELETE FROM t USING t x WHERE x.id = t.id`).
  if (
    holds !== true &&
    scan.mask !== undefined &&
    (selfJoinFindsAll(sql, from, scan.stop, conditionReadings[dialect][0]!, backslash, budget) ||
      joinNamesNoTargetRow(sql, budget, from, scan.stop, backslash))
  ) {
    return true;
  }
  if (holds === true && scalarOwnColumn) {
    // It holds reading a scalar subquery of a table as the row's own column:
    // its own reason unless it holds without (read once more, once: it blocks).
    scalarAsColumn = false;
    try {
      if (readingsOf(sql, from, end, budget.left, dialect, backslash).holds !== true) {
        budget.limit = 'scalar';
      }
    } finally {
      scalarAsColumn = true;
    }
  }
  return holds;
}

/** The statement around the condition that ends at `end` (see `conditionAlwaysHolds`). */
function beginCondition(
  sql: string,
  end: number,
  outerFrom: number,
  outerTo: number,
  statementFrom: number,
): void {
  outerSql = sql;
  outerStart = outerFrom;
  outerEnd = outerTo;
  outerNames = undefined;
  targetRead = undefined;
  scalarOwnColumn = false;
  statementStart = statementFrom;
  statementEnd = end;
  deepConstant = false;
  setOperationUnread = false;
}

/**
 * Whether the condition `[from, end)` (a MERGE's `ON`) is true for no row
 * (`1=0`, `FALSE`, `t.id = NULL`), as the first of `dialect`'s readings
 * reads it; past the budget or the depth: true (fail closed, with
 * `budget.limit`). Arguments as `conditionAlwaysHolds`'s.
 */
export function conditionFindsNoRow(
  sql: string,
  from: number,
  end: number,
  budget: { left: number; limit?: ConditionLimit },
  backslash: string,
  dialect: SqlDialectName,
  outerFrom: number,
  outerTo: number,
): boolean {
  beginCondition(sql, end, outerFrom, outerTo, outerFrom);
  const mode = conditionReadings[dialect][0]!;
  const scan = readCondition(sql, from, end, budget.left, mode, backslash);
  if (scan.limit !== undefined) {
    budget.limit = scan.limit;
    return true;
  }
  if (scan.stop - from > budget.left) {
    budget.left = -1;
    budget.limit = 'budget';
    return true;
  }
  budget.left -= scan.stop - from;
  return scan.mask !== undefined && !(scan.mask & (TRUE | VARIES));
}

/** A table of a DELETE's `USING`, an UPDATE's `FROM` or a MySQL join list, and its join's `ON` condition. */
interface JoinedTable {
  parts: string[];
  alias: string | undefined;
  on: [number, number] | undefined;
}

/** Sticky: a join between two tables of a list (an inner one, or a LEFT one, which keeps each row of the left side). */
const joinWord = /\s*(?:(?:inner|cross|left(?:\s+outer)?)\s+)?join\b/iy;
const onWord = /\s*on\b/iy;

/**
 * Whether the statement joins its target with itself under an alias and
 * its WHERE (and each join's ON) are AND terms each comparing a column of
 * that alias with the same column of the target (`DELETE FROM t USING t AS
 * x WHERE x.id = t.id`, PostgreSQL's `UPDATE t SET … FROM t x WHERE …`,
 * MySQL's `DELETE t FROM t JOIN t AS x ON x.id = t.id WHERE …`, `DELETE t
 * FROM t, t AS x WHERE …`, SQL Server's `UPDATE t SET … FROM t JOIN t x ON
 * …`): each row meets itself, so every row where the columns are not NULL
 * is deleted, as by `WHERE EXISTS (SELECT 1 FROM t x WHERE x.id = t.id)`
 * (round 34). `[from, to)` is the WHERE's condition. A list of any other
 * shape (another table, a derived one, a `RIGHT` join) is not read here.
 */
function selfJoinFindsAll(
  sql: string,
  from: number,
  to: number,
  mode: Mode,
  backslash: string,
  budget: { left: number; limit?: ConditionLimit },
): boolean {
  const target = targetTable();
  if (target === undefined) return false;
  // Only a WHERE of such terms (read already), before the statement's text is read for its tables.
  const qualified = (parts: readonly string[]) => parts.length > 1;
  if (!reflexiveTerms(sql, from, to, mode, backslash, qualified, qualified)) return false;
  const tables = joinedTablesCharged(sql, backslash, budget);
  if (tables === true) return true;
  if (tables === undefined) return false;
  const same = (parts: readonly string[], table: readonly string[]) =>
    endsWith(parts, table) || endsWith(table, parts);
  // The target itself in the list (MySQL's and SQL Server's forms): under the alias the statement names, or bare.
  const outerAt = tables.findIndex(table =>
    table.alias !== undefined
      ? target.parts.length === 1 && table.alias === target.parts[0]
      : target.alias === undefined && same(table.parts, target.parts),
  );
  const outerTable = outerAt === -1 ? undefined : tables[outerAt]!;
  const others = tables.filter((_, index) => index !== outerAt);
  if (others.length !== 1) return false;
  const own = others[0]!;
  const ownAlias = own.alias;
  const table = outerTable?.parts ?? target.parts;
  if (ownAlias === undefined || !same(own.parts, table)) return false;
  const outerName = outerTable === undefined ? target.alias : outerTable.alias;
  if (ownAlias === outerName || (outerName === undefined && ownAlias === table.at(-1)))
    return false;
  const isOwn = (parts: readonly string[]) => parts.length === 2 && parts[0] === ownAlias;
  const isOuter = (parts: readonly string[]) => {
    if (parts.length < 2 || isOwn(parts)) return false;
    const qualifier = parts.slice(0, -1);
    if (outerTable === undefined) return namesTarget(qualifier, target);
    return outerName !== undefined
      ? qualifier.length === 1 && qualifier[0] === outerName
      : same(qualifier, table);
  };
  for (const joined of tables) {
    if (
      joined.on !== undefined &&
      !reflexiveTerms(sql, joined.on[0], joined.on[1], mode, backslash, isOwn, isOuter)
    ) {
      return false;
    }
  }
  return reflexiveTerms(sql, from, to, mode, backslash, isOwn, isOuter);
}

/**
 * The statement's joined tables (`joinListAt`, `joinedTables`), its text
 * before the WHERE read once more for them, charged to the reading budget
 * (statements nested in one another's SET read it again each): `true`
 * past the budget (fail closed, `budget.limit` set).
 */
function joinedTablesCharged(
  sql: string,
  backslash: string,
  budget: { left: number; limit?: ConditionLimit },
): JoinedTable[] | true | undefined {
  if (outerEnd - outerStart > budget.left) {
    budget.left = -1;
    budget.limit = 'budget';
    return true;
  }
  budget.left -= outerEnd - outerStart;
  const list = joinListAt(sql, backslash);
  return list === undefined ? undefined : joinedTables(sql, list[0], list[1], backslash);
}

/**
 * Whether the statement joins other tables (`DELETE FROM t USING s`, `UPDATE
 * t SET … FROM s`, `DELETE t FROM t JOIN s ON …`) and neither its WHERE
 * `[from, to)` nor any join's ON names a column of the target: every name
 * there is qualified by a table that is not the target (a bare one may be
 * the target's column, and keeps it). Such a WHERE is the same for every
 * row of the target (`DELETE FROM orders USING customers WHERE
 * customers.banned`: every order while one customer is banned), as an
 * EXISTS that names no outer table is (round 25).
 */
function joinNamesNoTargetRow(
  sql: string,
  budget: { left: number; limit?: ConditionLimit },
  from: number,
  to: number,
  backslash: string,
): boolean {
  const target = targetTable();
  if (target === undefined) return false;
  // The WHERE first (read already), before the statement's text is read for its tables.
  if (mayNameTarget(sql, from, to, backslash, target, true)) return false;
  const tables = joinedTablesCharged(sql, backslash, budget);
  if (tables === true) return true;
  if (tables === undefined || tables.length === 0) return false;
  for (const table of tables) {
    if (
      table.on !== undefined &&
      mayNameTarget(sql, table.on[0], table.on[1], backslash, target, false)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Whether `[start, end)` names a column that may be the table `target`'s:
 * a bare name that is no keyword, or one qualified by it; with `needed`,
 * also where it names no qualified column at all.
 */
function mayNameTarget(
  sql: string,
  start: number,
  end: number,
  backslash: string,
  target: { parts: string[]; alias: string | undefined },
  needed: boolean,
): boolean {
  let qualified = false;
  for (let at = start; at < end; at++) {
    const code = sql.charCodeAt(at);
    if (code === 0x27 /* ' */ || code === 0x24 /* $ */) {
      const close = quotedEnd(sql, at, end, backslash);
      if (close === -1) return true;
      at = Math.max(at, close);
      continue;
    }
    if (!(isNameQuote(code) || startsName(code)) || isWordCode(sql.charCodeAt(at - 1))) continue;
    const stop = qualifiedNameEnd(sql, at, end);
    if (stop === -1) return true;
    const parts = nameOf(sql, at, stop).split('.');
    at = stop - 1;
    if (parts.length === 1) {
      // A bare name may be the target's column; a keyword (AND, NULL, IN) is none.
      if (!keywords.has(parts[0]!)) return true;
    } else if (namesTarget(parts.slice(0, -1), target)) return true;
    else qualified = true;
  }
  return needed && !qualified;
}

/**
 * Whether a MERGE's `ON` `[from, to)` names no column of its target, the
 * table named at `targetAt` (before `usingAt`, with its alias): each name
 * there is qualified by another table (`ON s.k = 1`). Each target row then
 * matches the same source rows, so a clause acts on every target row or on
 * none, as the source's contents decide (round 37, as a join's condition
 * that names no target column, round 35).
 */
export function mergeOnNamesNoTarget(
  sql: string,
  targetAt: number,
  usingAt: number,
  from: number,
  to: number,
  backslash: string,
): boolean {
  const table = qualifiedNameAt(sql, targetAt, usingAt);
  if (table === undefined) return false;
  const target = { parts: table.parts, alias: aliasAt(sql, table.stop, usingAt).alias };
  return !mayNameTarget(sql, from, to, backslash, target, true);
}

/** Sticky: `USING` and the blanks after it. */
const usingWord = /using\s+/iy;

/**
 * Whether a MERGE matches each row of its target with itself (round 38:
 * `MERGE INTO t t2 USING t ON t2.id = t.id WHEN MATCHED THEN UPDATE` ran,
 * and updates every row where id is not NULL): its source at `usingAt` is
 * the target table (the name at `targetAt`) under another name, and its ON
 * `[from, to)` (`mergeOn`'s four places) is AND terms each comparing a column of one with the same
 * column of the other (`=`, `<=`, `>=`, `<=>`, `IS NOT DISTINCT FROM`), as
 * the target joined with itself is read (round 35).
 */
export function mergeMatchesItself(
  sql: string,
  [targetAt, usingAt, from, to]: readonly [number, number, number, number],
  backslash: string,
): boolean {
  const table = qualifiedNameAt(sql, targetAt, usingAt);
  usingWord.lastIndex = usingAt;
  if (table === undefined || !usingWord.test(sql)) return false;
  const source = qualifiedNameAt(sql, usingWord.lastIndex, from);
  if (source === undefined) return false;
  const targetAlias = aliasAt(sql, table.stop, usingAt).alias;
  const sourceAlias = aliasAt(sql, source.stop, from).alias;
  return matchesItself(
    sql,
    table.parts,
    targetAlias,
    source.parts,
    sourceAlias,
    from,
    to,
    backslash,
  );
}

/**
 * Where the statement's list of tables other than its target is, before
 * its WHERE (`[outerStart, outerEnd)`): past a DELETE's top-level `USING`,
 * or its `FROM` when the DELETE names its tables first (`DELETE t FROM …`);
 * past an UPDATE's top-level `FROM` after its `SET`, or between `UPDATE`
 * and `SET` (MySQL's `UPDATE t, t AS x SET …`). Undefined when none.
 */
function joinListAt(sql: string, backslash: string): [number, number] | undefined {
  targetStart.lastIndex = outerStart;
  if (!targetStart.test(sql) || targetStart.lastIndex > outerEnd) return undefined;
  const head = targetStart.lastIndex;
  const update = (sql.charCodeAt(outerStart) | 0x20) === 0x75; /* u */
  const named = !update && /\bfrom\s/i.test(sql.slice(outerStart, head));
  let using = -1;
  let fromAt = -1;
  let setAt = -1;
  const scanned = scanTopLevel(sql, head, outerEnd, backslash, (at, stop) => {
    const word = stop - at <= 5 ? sql.slice(at, stop).toLowerCase() : '';
    if (word === 'using' && using === -1) using = stop;
    else if (word === 'from' && fromAt === -1 && (!update || setAt !== -1)) fromAt = stop;
    else if (word === 'set' && setAt === -1) setAt = at;
    return false;
  });
  if (scanned === -2) return undefined;
  if (update) {
    if (setAt === -1) return undefined;
    return fromAt !== -1 ? [fromAt, outerEnd] : [head, setAt];
  }
  if (named) return using === -1 ? undefined : [using, outerEnd];
  return fromAt === -1 ? undefined : [fromAt, outerEnd];
}

/**
 * The tables of a list `[from, to)`: names with their aliases, joined by
 * commas or inner, cross or LEFT joins, each join's `ON` condition; undefined
 * for anything else (a derived table, `USING (…)`, a `RIGHT` join).
 */
function joinedTables(
  sql: string,
  from: number,
  to: number,
  backslash: string,
): JoinedTable[] | undefined {
  const tables: JoinedTable[] = [];
  for (let at = skipBlanks(sql, from, to); tables.length < 16; ) {
    const name = qualifiedNameAt(sql, at, to);
    if (name === undefined) return undefined;
    const { alias, stop } = aliasAt(sql, name.stop, to);
    const table: JoinedTable = { parts: name.parts, alias, on: undefined };
    tables.push(table);
    at = skipBlanks(sql, stop, to);
    onWord.lastIndex = at;
    if (onWord.test(sql) && onWord.lastIndex <= to) {
      if (tables.length < 2) return undefined;
      // The ON runs to the next join or comma at its level.
      const start = onWord.lastIndex;
      const next = scanTopLevel(sql, start, to, backslash, (word, stop) => {
        if (sql.charCodeAt(word) === 0x2c /* , */) return true;
        joinWord.lastIndex = word;
        return (
          joinWord.test(sql) ||
          endsOn.has(stop - word <= 13 ? sql.slice(word, stop).toLowerCase() : '')
        );
      });
      if (next === -2) return undefined;
      const end = next === -1 ? to : next;
      table.on = [start, end];
      at = end;
    }
    if (at >= to) return tables;
    if (sql.charCodeAt(at) === 0x2c /* , */) {
      at = skipBlanks(sql, at + 1, to);
      continue;
    }
    joinWord.lastIndex = at;
    if (!joinWord.test(sql) || joinWord.lastIndex > to) return undefined;
    at = skipBlanks(sql, joinWord.lastIndex, to);
  }
  return undefined;
}

/**
 * Calls `visit(at, stop)` for each word (`[at, stop)`) and each comma or
 * `)` it did not open (`stop` past it) at the top level of `[from, to)`,
 * outside strings, quoted names and parentheses, until it answers true:
 * where that was; -1 when it never did, -2 when a quote does not close.
 */
function scanTopLevel(
  sql: string,
  from: number,
  to: number,
  backslash: string,
  visit: (at: number, stop: number) => boolean,
): number {
  let depth = 0;
  for (let at = from; at < to; at++) {
    const code = sql.charCodeAt(at);
    if (opensQuoted(code)) {
      const close = quotedEnd(sql, at, to, backslash);
      if (close === -1) return -2;
      at = close;
    } else if (code === 0x28 /* ( */) depth++;
    else if (code === 0x29 /* ) */ && depth > 0) depth--;
    else if (depth === 0 && (code === 0x2c /* , */ || code === 0x29) /* ) */) {
      if (visit(at, at + 1)) return at;
    } else if (depth === 0 && isWordCode(code) && !isWordCode(sql.charCodeAt(at - 1))) {
      let stop = at + 1;
      while (stop < to && isWordCode(sql.charCodeAt(stop))) stop++;
      if (visit(at, stop)) return at;
      at = stop - 1;
    }
  }
  return -1;
}

/** The readings of a condition (`conditionReadings`): whether one holds, and how far the longest read. */
function readingsOf(
  sql: string,
  from: number,
  end: number,
  limit: number,
  dialect: SqlDialectName,
  backslash: string,
): { scan: ConditionRead; holds: boolean | undefined; read: number } {
  const [first, ...others] = conditionReadings[dialect];
  const scan = readCondition(sql, from, end, limit, first!, backslash);
  let read = scan.stop - from;
  let { holds } = scan;
  let dollar: boolean | undefined;
  for (const mode of others) {
    if (scan.limit !== undefined || holds === true) break;
    // Only where this reading reads the condition otherwise.
    // `$$ OR 1+1=2 OR $$` is a string in PostgreSQL, two names around an OR in MySQL.
    if (dollarQuotes(mode) !== dollarQuotes(first) && dollar === undefined) {
      dollar = dollarQuoteIn(sql, from, Math.min(end, scan.stop + 1));
    }
    const differs =
      (scan.seen & SEEN_PIPES && mode.pipesOr !== first!.pipesOr) ||
      (scan.seen & SEEN_QUOTE && mode.quotedString !== first!.quotedString) ||
      (scan.seen & SEEN_AMPERSANDS && mode.ampersandsAnd !== first!.ampersandsAnd) ||
      (dollar === true && dollarQuotes(mode) !== dollarQuotes(first));
    if (!differs) continue;
    const again = readCondition(sql, from, end, limit, mode, backslash);
    read = Math.max(read, again.stop - from);
    if (again.limit !== undefined) scan.limit = again.limit;
    if (again.holds) holds = true;
    else holds ??= again.holds;
  }
  return { scan, holds, read };
}

/**
 * A scalar subquery of a table was read as the outer row's own column in
 * the statement's WHERE (`id = (SELECT t.id FROM s)`: so while s has one
 * row; NULL while it has none), so that a condition which then holds for
 * every row is blocked with its own reason (`subquerySelectsOuter`).
 */
let scalarOwnColumn = false;
/** Whether such a subquery is read as the column (false: as a value that varies, to tell whether it decided). */
let scalarAsColumn = true;

/**
 * Whether a dollar quote (`$$`, `$tag$`, not a name's `$`) may open in
 * `[from, end)`. Read within the range only: `indexOf('$')` searched on to
 * the value's end from each WHERE, quadratic in a value of many WHEREs and
 * no `$` (a statement of parenthesized DELETEs, one backtick: 1.7 s at 2 MB).
 */
function dollarQuoteIn(sql: string, from: number, end: number): boolean {
  for (let at = from; at < end; at++) {
    if (sql.charCodeAt(at) !== 0x24 /* $ */ || isWordCode(sql.charCodeAt(at - 1))) continue;
    dollarTag.lastIndex = at;
    if (dollarTag.test(sql) && dollarTag.lastIndex <= end) return true;
  }
  return false;
}

/** Where the quote at `index` closes (`''` inside is a quote; `\` escapes where `escapes`), or -1. */
function quoteEnd(sql: string, index: number, end: number, escapes: boolean): number {
  const code = sql.charCodeAt(index);
  const closer = code === 0x5b /* [ */ ? 0x5d : code;
  for (let close = index + 1; close < end; close++) {
    const unit = sql.charCodeAt(close);
    if (escapes && unit === 0x5c /* \ */) {
      close++;
      continue;
    }
    if (unit !== closer) continue;
    if (closer === 0x5d || sql.charCodeAt(close + 1) !== closer) return close;
    close++;
  }
  return -1;
}

/** Whether a string or quoted name may open with `code`: a quote, `[`, or `$` (a dollar quote). */
const opensQuoted = (code: number) =>
  code === 0x27 || code === 0x22 || code === 0x60 || code === 0x5b || code === 0x24;

/**
 * Where the string or quoted name at `at` ends (its last character), or -1
 * when it does not close before `end`: `'…'`, `"…"`, `` `…` ``, `[…]` (`\`
 * escapes inside the quotes `backslash` lists), and, in a reading where
 * PostgreSQL may be the database, a dollar quote (`$$…$$`, `$tag$…$tag$`),
 * which `readTerms` reads as a string too. A `$` that opens none (`$1`, a
 * name's `$`, one that does not close) is `at`: no quote. What every scan
 * past a condition's text skips, so that a `)`, an OR or a name hidden in a
 * string is never read as code.
 */
function quotedEnd(sql: string, at: number, end: number, backslash: string): number {
  const code = sql.charCodeAt(at);
  if (code !== 0x24) return quoteEnd(sql, at, end, backslash.includes(String.fromCharCode(code)));
  if (!dollarQuotes(readingMode) || isWordCode(sql.charCodeAt(at - 1))) return at;
  const quote = dollarQuoteEnd(sql, at, end);
  return quote === -1 ? at : quote[2] - 1;
}

/** Whether a reading reads `$$…$$` as a string: where PostgreSQL may be the database. */
const dollarQuotes = (mode: Mode | undefined) => mode !== undefined && mode.truth !== 'number';

/** Whether a subquery starts at `index` (past its `(`): SELECT, WITH or VALUES. */
function subqueryAt(sql: string, index: number, end: number): boolean {
  let at = index;
  while (at < end && isJsSpace(sql.charCodeAt(at))) at++;
  const first = sql.charCodeAt(at) | 0x20;
  if (
    first !== 0x73 /* s */ &&
    first !== 0x77 /* w */ &&
    first !== 0x76 /* v */ &&
    first !== 0x74 /* t */
  ) {
    return false;
  }
  subqueryWords.lastIndex = index;
  return subqueryWords.test(sql) && subqueryWords.lastIndex <= end;
}

/** The subquery branch `subqueryVaries` read last has a WHERE true for no row: it finds none. */
let subqueryEmpty = false;
/** Where the DELETE or UPDATE whose WHERE is read is, up to `WHERE`: its tables and aliases. */
let outerSql = '';
let outerStart = 0;
let outerEnd = 0;
/** The names in the outer statement (lower case, not followed by `.`), made on the first subquery of a table. */
let outerNames: Set<string> | undefined;
/**
 * The statement the DELETE or UPDATE is in, `WITH` lists and all: the
 * common table expressions before it are read where a subquery names one.
 */
let statementStart = 0;
let statementEnd = 0;

/** The statement's target table and alias, read once per WHERE (`targetTable`); null: none read. */
let targetRead: { parts: string[]; alias: string | undefined } | null | undefined;

/** Longest name compared (a longer one is neither an outer name nor a qualifier: fail closed). */
const maxNameLength = 128;

/**
 * Calls `onName(name)` for each name in `[from, to)` outside strings
 * (words and quoted names: `"x"`, `` `x` ``, `[x]`), in lower case: each
 * qualifier (a `.` follows: `u` of `u.id`) when `qualifiers`, else each
 * other name that is no table given an alias (`users` of `users u2` names
 * nothing there), of a length in `lengths` (the others are not sliced).
 */
function eachName(
  sql: string,
  from: number,
  to: number,
  backslash: string,
  qualifiers: boolean,
  lengths: ReadonlySet<number> | undefined,
  onName: (name: string) => void,
  accept?: (name: string) => boolean,
): void {
  for (let at = from; at < to; at++) {
    const code = sql.charCodeAt(at);
    let start = at;
    let stop: number;
    const close = opensQuoted(code) ? quotedEnd(sql, at, to, backslash) : at;
    if (close === -1) return;
    if (close !== at) {
      at = close;
      if (code === 0x27 || code === 0x24) continue;
      start++;
      stop = close;
    } else if (isWordCode(code) && !isWordCode(sql.charCodeAt(at - 1))) {
      stop = at + 1;
      while (stop < to && isWordCode(sql.charCodeAt(stop))) stop++;
      at = stop - 1;
    } else continue;
    if (stop - start > maxNameLength) continue;
    if (qualifierDot(sql, at + 1, to) !== qualifiers) continue;
    if (lengths !== undefined && !lengths.has(stop - start)) continue;
    const name = sql.slice(start, stop).toLowerCase();
    if (accept !== undefined && !accept(name)) continue;
    if (!qualifiers && aliasedAt(sql, at + 1, to)) continue;
    onName(name);
  }
}

/**
 * Whether a qualifier's `.` follows a name at `at` (before `to`): at once
 * (`t.id`, `t.*`), or past blanks before a part that starts as a name does
 * (`t . id`, `"t" . "id"`: one name, as `qualifiedNameEnd` reads it; round
 * 35: `id = (SELECT t . id)` was read as naming no outer table).
 */
function qualifierDot(sql: string, at: number, to: number): boolean {
  if (sql.charCodeAt(at) === 0x2e /* . */) return true;
  if (!isJsSpace(sql.charCodeAt(at))) return false;
  const dot = skipBlanks(sql, at, to);
  if (dot >= to || sql.charCodeAt(dot) !== 0x2e) return false;
  const next = skipBlanks(sql, dot + 1, to);
  return next < to && startsName(sql.charCodeAt(next));
}

/**
 * Whether the subquery in `[from, to)` names the outer statement's table
 * or alias as a qualifier that is not its own: a name followed by `.` that
 * is an outer name and no name of the subquery (a name the subquery uses
 * otherwise, `FROM users`, binds it there: `EXISTS (SELECT 1 FROM users
 * WHERE users.id > 0)` reads its own table). An unqualified name is the
 * subquery's own where its table has that column, which only the schema
 * tells: it is read as the subquery's (fail closed). Qualifiers are read
 * from `qualifiersFrom` (an EXISTS's FROM), names from `from`. Two passes:
 * the qualifiers, then (when one is an outer name) the names of their lengths.
 */
function correlated(
  sql: string,
  qualifiersFrom: number,
  from: number,
  to: number,
  backslash: string,
  qualifiersTo = to,
  bound?: ReadonlySet<string>,
): boolean {
  const outer = outerNamesOf();
  if (outer.size === 0 || qualifiersFrom >= qualifiersTo) return false;
  const candidates = new Set<string>();
  eachName(sql, qualifiersFrom, qualifiersTo, backslash, true, undefined, name => {
    if (outer.has(name)) candidates.add(name);
  });
  if (candidates.size === 0) return false;
  if (bound !== undefined) {
    for (const name of candidates) if (!bound.has(name)) return true;
    return false;
  }
  const lengths = new Set<number>();
  for (const name of candidates) lengths.add(name.length);
  eachName(
    sql,
    from,
    to,
    backslash,
    false,
    lengths,
    name => candidates.delete(name),
    name => candidates.has(name),
  );
  return candidates.size > 0;
}

/** The names of the outer statement, made once per WHERE. */
function outerNamesOf(): Set<string> {
  if (outerNames === undefined) {
    const names = new Set<string>();
    eachName(outerSql, outerStart, outerEnd, '', false, undefined, name => names.add(name));
    outerNames = names;
  }
  return outerNames;
}

/**
 * The outer names that the subquery `[from, to)` uses as names of its own
 * (not as qualifiers): one pass, so that each of its terms is checked
 * without reading the whole subquery again.
 */
function boundNames(sql: string, from: number, to: number, backslash: string): Set<string> {
  const outer = outerNamesOf();
  const lengths = new Set<number>();
  for (const name of outer) lengths.add(name.length);
  const bound = new Set<string>();
  eachName(
    sql,
    from,
    to,
    backslash,
    false,
    lengths,
    name => bound.add(name),
    name => outer.has(name),
  );
  return bound;
}

/** Words after a table's name that are no alias of it. */
const notAlias = new Set(
  (
    'where join inner left right full outer cross natural on using group order limit union ' +
    'intersect except having window offset fetch for lateral straight_join returning into values ' +
    'set select from and or not is in like between when then else end with tablesample partition ' +
    'use force ignore qualify connect start pivot unpivot option'
  ).split(' '),
);
const aliasWord = /\s*([a-z_][\w$]*)/iy;

/**
 * Whether the name that ends at `at` is given an alias (`users u2`,
 * `users AS u2`), so that it names nothing there: in `FROM users u2 WHERE
 * u2.email = users.email`, `users` is the outer table.
 */
function aliasedAt(sql: string, at: number, to: number): boolean {
  aliasWord.lastIndex = at;
  const match = aliasWord.exec(sql);
  if (!match || aliasWord.lastIndex > to || aliasWord.lastIndex === at) return false;
  if (!isJsSpace(sql.charCodeAt(at))) return false;
  const word = match[1]!.toLowerCase();
  if (word === 'as') return true;
  const after = sql.charCodeAt(aliasWord.lastIndex);
  return !notAlias.has(word) && after !== 0x2e /* . */ && after !== 0x28 /* ( */;
}
const fromWord = /from\b/iy;
/** Sticky after `fromWord`: `DUAL`. */
const fromDual = /\s+dual\b/iy;

const whereWord = /where\b/iy;
const havingWord = /having\b/iy;

/** Subqueries being evaluated inside one another's WHERE; deeper ones are read by their names only. */
let subqueryNesting = 0;
export const maxSubqueryNesting = 2;
/** The reading (`Mode`) of the condition being read: a subquery's WHERE is read alike. */
let readingMode: Mode | undefined;

/**
 * Where the WHERE `subqueryVaries` read last ends, when it holds for every
 * row (`SELECT id FROM t WHERE 1=1`); -1 otherwise.
 */
let whereHeldStop = -1;

/**
 * Whether a subquery `[index, close)` whose FROM starts at `fromAt` and
 * whose own WHERE starts at `whereAt` (-1: none) varies with the outer
 * row. The outer table is named outside its WHERE (an `ON`, the select
 * list of a scalar subquery, `GROUP BY`, …): it does. Named in its WHERE
 * only: it does when its WHERE can be true and can be false for some row
 * (a WHERE that holds for every row, `t.id = t.id`, or for none, `1 = 0
 * AND t.id = u.id`, leaves the subquery one value for every outer row),
 * and when an `AND` term of that WHERE that names the outer table can be
 * false (`u.x = 1 AND t.id = t.id` is `u.x = 1`: no outer row is told
 * apart). A WHERE not read whole (an operator of one database) varies.
 */
function subqueryVaries(
  sql: string,
  index: number,
  close: number,
  fromAt: number,
  whereAt: number,
  backslash: string,
  exists: boolean,
): boolean {
  whereHeldStop = -1;
  const qualifiersFrom = exists ? fromAt : index;
  const mode = readingMode;
  const readable = mode !== undefined && subqueryNesting < maxSubqueryNesting;
  const beforeWhere = whereAt === -1 ? close : whereAt;
  outerJoinNamesOuter = false;
  if (
    correlated(sql, qualifiersFrom, index, close, backslash, beforeWhere) &&
    !(
      readable &&
      joinsTellNoRowApart(sql, qualifiersFrom, beforeWhere, index, close, backslash, exists)
    )
  ) {
    return true;
  }
  const outerJoined = outerJoinNamesOuter;
  if (whereAt === -1) return false;
  // Its WHERE may read the rows an outer join's ON named the outer table in
  // (`v.id IS NULL`): they vary with the outer row, as its own columns do;
  // the rows of the side the join keeps do not (`u.a = 1`). A name of
  // theirs bound again in the WHERE (`FROM w v`) is not followed (fail closed).
  const names = outerNamesOf();
  const joined = new Set<string>();
  if (outerJoined) {
    for (const name of outerJoinTaint) joined.add(name);
    eachName(sql, whereAt, close, backslash, false, undefined, name => joined.delete(name));
    for (const name of names) joined.delete(name);
    if (joined.size > 0) outerNames = new Set([...names, ...joined]);
  }
  try {
    return whereVaries(sql, index, close, whereAt, backslash, readable, joined);
  } finally {
    outerNames = names;
  }
}

/**
 * `subqueryVaries` past its FROM: whether the subquery's WHERE at
 * `whereAt` tells outer rows apart; `joined`: the outer join's names the
 * outer names now hold, which are not the subquery's own.
 */
function whereVaries(
  sql: string,
  index: number,
  close: number,
  whereAt: number,
  backslash: string,
  readable: boolean,
  joined: ReadonlySet<string>,
): boolean {
  const mode = readingMode!;
  if (!readable) {
    deepConstantAt(sql, whereAt + 5, close, backslash);
    return correlated(sql, whereAt, index, close, backslash);
  }
  const conditionFrom = whereAt + 5;
  const bound = boundNames(sql, index, close, backslash);
  for (const name of joined) bound.delete(name);
  subqueryNesting++;
  let empty = false;
  try {
    const before = readNull;
    readNull = false;
    const whole = readCondition(sql, conditionFrom, close, close - index, mode, backslash);
    // A WHERE true for no row (`1 = 0`, NULL): the branch finds no row, whatever it names.
    empty = findsNoRow(sql, conditionFrom, whole, close - index, mode, backslash);
    readNull ||= before;
    // A WHERE that holds stops the reading at an OR: its end is found past it.
    let stop = whole.stop;
    for (let next = { or: stop, stop }; whole.holds === true && next.or !== -1; ) {
      next = nextTopLevelOr(sql, next.or, close, 0, mode, backslash);
      stop = next.stop;
    }
    if (whole.holds === true) whereHeldStop = stop;
    // Read past the WHERE (`GROUP BY`, `UNION SELECT …`): named there, it varies.
    if (correlated(sql, stop, index, close, backslash, close, bound)) return true;
    if (!correlated(sql, whereAt, index, close, backslash, stop, bound)) return false;
    if (whole.holds === true) return false;
    if (whole.mask === undefined) return true;
    if (!(whole.mask & (TRUE | VARIES))) return false;
    return !outerTermsHold(sql, conditionFrom, whole.stop, mode, backslash, index, close, bound);
  } finally {
    subqueryNesting--;
    subqueryEmpty = empty;
  }
}

/**
 * Whether no term of the condition `[from, to)` of the subquery `[index,
 * close)` that names the outer table tells outer rows apart, read as SQL
 * groups it (NOT, then AND, then XOR and OR): in each part between its
 * top-level ORs and XORs that names the outer table and may be true, each
 * AND term that names it holds for every row (`u.a = 1 AND t.id = t.id`).
 * A part with an AND term false or NULL for every row adds no row,
 * whatever it names: `1 = 0 AND u.x = t.x OR u.a = 1` is `u.a = 1` (round
 * 34; the AND terms were split across the OR, as if it were `1 = 0 AND
 * (u.x = t.x OR u.a = 1)`, and `u.x = t.x` told rows apart).
 */
function outerTermsHold(
  sql: string,
  from: number,
  to: number,
  mode: Mode,
  backslash: string,
  index: number,
  close: number,
  bound: ReadonlySet<string>,
): boolean {
  for (const [partFrom, partTo] of conjuncts(sql, from, to, mode, backslash, true)) {
    if (!correlated(sql, partFrom, index, close, backslash, partTo, bound)) continue;
    let tells = false;
    for (const [termFrom, termTo] of conjuncts(sql, partFrom, partTo, mode, backslash)) {
      const term = readCondition(sql, termFrom, termTo, close - index, mode, backslash);
      // A term false or NULL for every row: the part adds no row.
      if (term.mask !== undefined && !(term.mask & (TRUE | VARIES))) {
        tells = false;
        break;
      }
      tells ||=
        term.holds !== true && correlated(sql, termFrom, index, close, backslash, termTo, bound);
    }
    if (tells) return false;
  }
  return true;
}

/**
 * The WHERE `whereFindsNone` read last tells outer rows apart (round 36):
 * a branch without a table reads the outer row there (`SELECT 1 WHERE id =
 * 5` is one row where `id = 5`, none elsewhere), so its rows vary with the
 * row where the WHERE does or is not read (`a @> b`). It was some
 * constant, and `DELETE FROM t WHERE EXISTS (SELECT 1 WHERE id = 5)` was
 * blocked.
 */
let whereVaried = false;
/** The subquery depth whose WHERE, of branches without a table from the statement's down, reads the statement's names (-1: none). */
let fromlessDepth = -1;
/** The value of that WHERE, when it was read whole. */
let whereValue: Value | undefined;

/**
 * Whether the WHERE at `whereAt` of a branch without a table (`SELECT 1
 * WHERE 1 = 0`, `FROM DUAL WHERE …`), up to `to`, is true for no row: the
 * branch finds none. Read as a subquery's WHERE is, to the same depth;
 * sets `whereVaried`.
 */
function whereFindsNone(sql: string, whereAt: number, to: number, backslash: string): boolean {
  whereVaried = false;
  whereValue = undefined;
  const mode = readingMode;
  if (mode === undefined || subqueryNesting >= maxSubqueryNesting) {
    deepConstantAt(sql, whereAt + 5, to, backslash);
    return false;
  }
  // Its names are the outer WHERE's: the statement's where that one is (`t.id` is `id`).
  const scope = fromlessDepth;
  if (subqueryNesting === 0 || fromlessDepth === subqueryNesting)
    fromlessDepth = subqueryNesting + 1;
  subqueryNesting++;
  const before = readNull;
  readNull = false;
  try {
    const whole = readCondition(sql, whereAt + 5, to, to - whereAt, mode, backslash);
    whereVaried = whole.holds !== true && (whole.mask === undefined || (whole.mask & VARIES) !== 0);
    whereValue = whole.value;
    return findsNoRow(sql, whereAt + 5, whole, to - whereAt, mode, backslash);
  } finally {
    fromlessDepth = scope;
    subqueryNesting--;
    readNull ||= before;
  }
}

/**
 * A WHERE of a subquery nested `maxSubqueryNesting` deep (the first one
 * not read whole) was found, read once, to hold for every row or for none
 * (`1 = 0`, `w.z = t.x OR 1 = 1`, `… AND NULL`), or not read (an operator
 * of one database), or a subquery deeper still has a WHERE (never read):
 * since round 34 the condition fails closed (`subqueries`), where before
 * such a WHERE was read by its names only and a DELETE whose rows it
 * decides ran.
 */
let deepConstant = false;

/** A set operation was met after an operand: a parenthesized query was read as a group (fail closed: `compound`). */
let setOperationUnread = false;
const setOperationWords = new Set(['union', 'intersect', 'except', 'minus']);

/**
 * Reads the WHERE `[from, to)` of a subquery at the first depth not read
 * whole, once, its own subqueries by their names only (no deeper
 * reading: each such WHERE is read once more, so the cost stays linear),
 * and sets `deepConstant` when it holds for every row or for none.
 */
function deepConstantAt(sql: string, from: number, to: number, backslash: string): void {
  const mode = readingMode;
  if (mode === undefined || deepConstant || subqueryNesting < maxSubqueryNesting) return;
  // Deeper still (met while that WHERE is read): not read at all, fail closed.
  if (subqueryNesting > maxSubqueryNesting) {
    deepConstant = true;
    return;
  }
  subqueryNesting++;
  const before = readNull;
  const empty = subqueryEmpty;
  try {
    readNull = false;
    const read = readCondition(sql, from, to, to - from, mode, backslash);
    if (
      read.holds === true ||
      read.mask === undefined ||
      findsNoRow(sql, from, read, to - from, mode, backslash)
    ) {
      deepConstant = true;
    }
  } finally {
    subqueryNesting--;
    readNull = before;
    subqueryEmpty = empty;
  }
}

/** A NULL was read (`NULL`, `UNKNOWN`, a scalar subquery of no row) since `readNull` was last cleared. */
let readNull = false;

/**
 * Whether a subquery's WHERE at `from`, read whole as `whole`, is true for
 * no row: none of its outcomes is TRUE or varies, or (a NULL read in it)
 * one of its AND terms is true for no row. A value that varies ANDed with
 * NULL is read as one that varies (`u.x = t.x AND NULL`, never true), so
 * such a WHERE's terms are read once more each.
 */
function findsNoRow(
  sql: string,
  from: number,
  whole: ConditionRead,
  limit: number,
  mode: Mode,
  backslash: string,
): boolean {
  const mask = whole.mask;
  if (mask === undefined) return false;
  if (!(mask & (TRUE | VARIES))) return true;
  if (!readNull || mask & TRUE) return false;
  const terms = conjuncts(sql, from, whole.stop, mode, backslash);
  if (terms.length === 1) return false;
  for (const [start, stop] of terms) {
    // An OR or XOR inside a term binds looser than the ANDs around it: no AND of terms.
    if (nextTopLevelOr(sql, start, stop, 0, mode, backslash, true).or !== -1) return false;
  }
  for (const [start, stop] of terms) {
    const term = readCondition(sql, start, stop, limit, mode, backslash).mask;
    if (term !== undefined && !(term & (TRUE | VARIES))) return true;
  }
  return false;
}

/**
 * The subquery `joinsTellNoRowApart` read last names the outer table only
 * where an outer join's rows are read (its ON, its joined side): what
 * reads that join's rows after it (the WHERE, a later join) may tell rows
 * apart.
 */
let outerJoinNamesOuter = false;
/**
 * The names whose rows vary with the outer row there: a LEFT join's joined
 * side (its alias or table), or what a RIGHT join's preserved side is
 * not; a FULL join's none (its WHERE is read as telling no row apart: fail
 * closed).
 */
let outerJoinTaint = new Set<string>();

/** The last name in `[from, to)` that is no table given an alias (`v` of `v`, `w` of `LATERAL (…) w`), or undefined. */
function lastName(sql: string, from: number, to: number, backslash: string): string | undefined {
  let last: string | undefined;
  eachName(sql, from, to, backslash, false, undefined, name => {
    last = name;
  });
  return last;
}

/** Whether `[from, to)` names one of `names` as a qualifier (`v.x`). */
function qualifiesAny(
  sql: string,
  from: number,
  to: number,
  backslash: string,
  names: ReadonlySet<string>,
): boolean {
  let found = false;
  if (names.size === 0) return false;
  eachName(sql, from, to, backslash, true, undefined, name => {
    if (names.has(name)) found = true;
  });
  return found;
}

/** Words that end a join's ON condition (the next join, or the clause after the FROM). */
const endsOn = new Set(
  (
    'join inner left right full outer cross natural straight_join lateral on using where group ' +
    'having order limit union intersect except minus window offset fetch for qualify'
  ).split(' '),
);

/**
 * Whether the subquery `[index, close)` names the outer table or alias in
 * `[from, to)` (its select list and FROM) only in ON conditions that hold
 * for every row (`JOIN v ON t.id = t.id`) or for none: such a join tells
 * no outer row apart. Each ON runs to the next join word, `,` or clause at
 * its level; one pass over `[from, to)`, each ON read once.
 */
function joinsTellNoRowApart(
  sql: string,
  from: number,
  to: number,
  index: number,
  close: number,
  backslash: string,
  exists: boolean,
): boolean {
  const mode = readingMode!;
  const bound = boundNames(sql, index, close, backslash);
  /** Where the text not yet checked starts, and the open ON's condition (-1: none). */
  let checked = from;
  let on = -1;
  let depth = 0;
  let any = false;
  /** LEFT, RIGHT or FULL was read since the last join; the open ON is an outer join's; where its JOIN is. */
  let outerWord = false;
  let leftWord = false;
  let outerOn = false;
  let joinAt = -1;
  let onAt = -1;
  /** The kind of the last join (`left`, `right`, `full`, or `inner`) and of its outer word. */
  let joinKind = 'inner';
  let kindWord = 'inner';
  let outerNamed = false;
  /** An inner join after that outer join: where its JOIN is until its ON is read (-1: none); its ON is open. */
  let innerAt = -1;
  let innerOn = false;
  /** A FULL join named the outer table. */
  let fullNamed = false;
  const taint = new Set<string>();
  /** The outer join `[joinAt, onAt)` names the outer table: the names whose rows then vary. */
  const tainted = () => {
    if (joinKind === 'full') fullNamed = true;
    if (joinKind === 'left') {
      const name = lastName(sql, joinAt + 4, onAt, backslash);
      if (name !== undefined) taint.add(name);
    } else if (joinKind === 'right') {
      const kept = new Set<string>();
      eachName(sql, joinAt + 4, onAt, backslash, false, undefined, name => kept.add(name));
      eachName(sql, from + 4, joinAt, backslash, false, undefined, name => {
        if (!kept.has(name)) taint.add(name);
      });
    }
  };
  /** The ON condition `[on, at)` names the outer table: whether it tells no row apart. */
  const closeOn = (at: number): boolean => {
    const start = on;
    on = -1;
    checked = at;
    // An inner join after the outer join removes the same rows for every
    // outer row unless its ON reads the rows that vary (`JOIN w ON w.a = v.a`).
    if (innerOn) {
      innerOn = false;
      if (qualifiesAny(sql, start, at, backslash, taint)) return false;
    }
    // A later LEFT join that reads the rows that vary: its own rows vary too.
    if (outerNamed && joinKind === 'left' && qualifiesAny(sql, start, at, backslash, taint)) {
      tainted();
    }
    if (!correlated(sql, start, index, close, backslash, at, bound)) return true;
    // An outer join keeps every row of its preserved side whatever its ON
    // holds: EXISTS finds the same rows (the joined side's columns vary).
    if (outerOn && exists) {
      outerNamed = true;
      tainted();
      return true;
    }
    const empty = subqueryEmpty;
    subqueryNesting++;
    try {
      const read = readCondition(sql, start, at, close - index, mode, backslash);
      if (read.holds === true || (read.mask !== undefined && !(read.mask & (TRUE | VARIES)))) {
        return true;
      }
      if (read.mask === undefined) return false;
      // As a WHERE's: each AND term that names the outer table holds (`v.a = u.a AND t.id = t.id`).
      return outerTermsHold(sql, start, read.stop, mode, backslash, index, close, bound);
    } finally {
      subqueryNesting--;
      subqueryEmpty = empty;
    }
  };
  for (let at = from; at < to; at++) {
    const code = sql.charCodeAt(at);
    const quoted = opensQuoted(code) ? quotedEnd(sql, at, to, backslash) : at;
    if (quoted === -1) return false;
    if (quoted !== at) {
      at = quoted;
      continue;
    }
    if (code === 0x28) depth++;
    else if (code === 0x29) depth--;
    else if (depth === 0 && code === 0x2c /* , */ && on !== -1) {
      if (!closeOn(at)) return false;
    } else if (depth === 0 && isWordCode(code) && !isWordCode(sql.charCodeAt(at - 1))) {
      let stop = at + 1;
      while (stop < to && isWordCode(sql.charCodeAt(stop))) stop++;
      const word = stop - at <= 13 ? sql.slice(at, stop).toLowerCase() : '';
      if (endsOn.has(word)) {
        if (on !== -1 && !closeOn(at)) return false;
        // A join after the outer join may read its rows (`JOIN w ON w.a = v.a`):
        // an inner one is read up to its ON (one without an ON, `USING`,
        // `NATURAL` or `CROSS`, may); a LEFT one removes no row either.
        if (innerAt !== -1 && word !== 'on' && word !== 'lateral') return false;
        if (word === 'join' && outerNamed && !leftWord) {
          // A RIGHT or FULL one keeps rows of its own; after a FULL join both sides vary.
          if (outerWord || fullNamed) return false;
          innerAt = at;
        }
        if (word === 'left' || word === 'right' || word === 'full') {
          outerWord = true;
          leftWord = word === 'left';
          kindWord = word;
        } else if (word === 'join') {
          joinKind = outerWord ? kindWord : 'inner';
          outerOn = outerWord;
          outerWord = false;
          joinAt = at;
          leftWord = false;
        } else if (word !== 'outer' && word !== 'natural' && word !== 'lateral') {
          outerWord = false;
          leftWord = false;
        }
        if (word === 'on') {
          if (innerAt !== -1) {
            if (qualifiesAny(sql, innerAt, at, backslash, taint)) return false;
            innerAt = -1;
            innerOn = true;
          }
          // The text before the ON (tables, the select list) names no outer
          // table; an outer join's joined side (`LEFT JOIN LATERAL (… t.x …)
          // w ON true`) removes no row of the side it keeps.
          const named = outerOn && exists && joinAt >= checked ? joinAt : at;
          if (correlated(sql, checked, index, close, backslash, named, bound)) return false;
          onAt = at;
          if (named !== at && correlated(sql, named, index, close, backslash, at, bound)) {
            outerNamed = true;
            tainted();
          }
          on = stop;
          any = true;
        }
      }
      at = stop - 1;
    }
  }
  if (on !== -1 && !closeOn(to)) return false;
  if (innerAt !== -1) return false;
  outerJoinNamesOuter = outerNamed;
  outerJoinTaint = taint;
  return any && !correlated(sql, checked, index, close, backslash, to, bound);
}

/**
 * The terms `[from, to)` of a condition's top-level ANDs (`&&` where it is
 * AND; not BETWEEN's, nor inside a CASE, a string or parentheses), as
 * `nextTopLevelOr` finds them for `readCondition`: one scan of terms for
 * both. With `ors`, its parts between top-level ORs and XORs (`||` where it
 * is OR) instead, each an AND of terms. One pass.
 */
function conjuncts(
  sql: string,
  from: number,
  to: number,
  mode: Mode,
  backslash: string,
  ors = false,
): [number, number][] {
  const terms: [number, number][] = [];
  let start = from;
  for (let at = from; ; ) {
    const next = nextTopLevelOr(sql, at, to, 0, mode, backslash, true);
    if (next.or === -1) {
      terms.push([start, next.stop]);
      return terms;
    }
    const code = sql.charCodeAt(next.or);
    let after = next.or + 2;
    if (code !== 0x26 /* & */ && code !== 0x7c /* | */) {
      while (after < to && isWordCode(sql.charCodeAt(after))) after++;
    }
    // AND and `&&` end a term; OR, XOR and `||` are inside one (with `ors`, the other way round).
    if ((code === 0x26 || (code | 0x20) === 0x61) /* a */ !== ors) {
      terms.push([start, next.or]);
      start = after;
    }
    at = after;
  }
}

/** A set operation between two branches of a subquery: `UNION`, `INTERSECT`, `EXCEPT` (Oracle's `MINUS`). */
const UNION_OP = 0;
const INTERSECT_OP = 1;
const EXCEPT_OP = 2;
/**
 * Added to a set operation written with `ALL`, which keeps each row as
 * many times as it comes (`A EXCEPT ALL B` keeps a row A has more often
 * than B). The operation is `op & SET_KIND`.
 */
const ALL_OP = 4;
const SET_KIND = 3;
/** Sticky: a set operation, and its `ALL` / `DISTINCT`. */
const setOperationAt = /(union|intersect|except|minus)\b(?:\s+(all|distinct)\b)?/iy;
/** Sticky: what may follow a parenthesized branch but another set operation or the subquery's `)`. */
const afterBranch = /(?:order|limit|offset|fetch)\b/iy;
/** A literal zero, in parentheses or not (`0`, `00`, `(0)`). */
const zeroLiteral = String.raw`(?:0+|\(\s*0+\s*\))(?![\w.$])(?!\s*,)`;
/**
 * Sticky at a word of a query's tail: a row limit of literal zero (`LIMIT
 * 0`, `LIMIT 0 OFFSET 5`, MySQL's and SQLite's `LIMIT 5, 0`, `FETCH FIRST 0
 * ROWS ONLY`). Every database applies it to the whole query it ends (all
 * its set operations): that query finds no row. An OFFSET past every row
 * is not known here.
 */
const zeroRowLimit = new RegExp(
  String.raw`(?:limit\s+(?:\d+\s*,\s*)?${zeroLiteral}|fetch\s+(?:first|next)\s+${zeroLiteral}\s*rows?\s+only\b)`,
  'iy',
);
/** Sticky at a branch's start: SQL Server's `SELECT TOP 0` (or `TOP (0)`, `TOP 0 PERCENT`): the branch finds no row. */
const zeroTop = new RegExp(
  String.raw`\s*select\s+(?:(?:all|distinct)\s+)?top\s*${zeroLiteral}`,
  'iy',
);

/**
 * What a set of rows (a branch, or branches joined by set operations)
 * gives for EXISTS, or for an IN that tests it: a mask of outcomes over
 * the outer rows (FALSE alone: no row for any of them; VARIES: some rows
 * and not others; CONSTANT: the same for every row), and the hash of its
 * text (blanks and case aside; -1: none), which tells two branches that
 * are the same query.
 */
interface RowSet {
  mask: number;
  hash: number;
  /**
   * Its text `[from, to)` (a parenthesized branch's inside its parentheses),
   * compared when two hashes are equal: a hash alone is no proof that two
   * queries are the same (a 32-bit hash is found to collide).
   */
  from: number;
  to: number;
  /**
   * A parenthesized UNION's branches (nested UNIONs' in them too), by hash:
   * the same rows in any order (`(A UNION B)` is `(B UNION A)`).
   */
  parts?: RowSet[];
  /** Its text as `queryText` reads it, once read. */
  text?: string;
  /**
   * Its identity tells its rows but not how many times each comes (`A
   * UNION A` is A's rows once, `A UNION ALL A` twice): for `EXCEPT ALL`
   * it is the same only as what has the same `bag`.
   */
  setOnly?: boolean;
  /** Each row once: a set operation without `ALL` (the last one of a parenthesized UNION). */
  distinct?: boolean;
  /** A `setOnly` parenthesized UNION's own text, as a branch (the same text: the same rows as often). */
  bag?: RowSet;
}

/** How many branches of one hash a branch is compared with before it counts as none of them (crafted hash collisions). */
const maxSameHashTries = 8;

/** A row set with no identity: never the same query as another. */
const rowSet = (mask: number): RowSet => ({ mask, hash: -1, from: 0, to: 0 });

/**
 * Whether `a` and `b` are one query: the same text as `textHash` reads it
 * (blanks aside, names in any case), or UNIONs of the same branches. With
 * `bag`, each row as many times in both (for `EXCEPT ALL`): a UNION is
 * then the same only as one whose text is its own, or when both give
 * each row once.
 */
function sameQuery(sql: string, a: RowSet, b: RowSet, backslash: string, bag = false): boolean {
  if (a.hash === -1 || a.hash !== b.hash) return false;
  if (bag && (a.setOnly || b.setOnly)) {
    return a.bag !== undefined && b.bag !== undefined && sameQuery(sql, a.bag, b.bag, backslash);
  }
  if ((a.parts === undefined) !== (b.parts === undefined)) return false;
  if (a.parts !== undefined && b.parts !== undefined && (!bag || (a.distinct && b.distinct))) {
    return (
      partsWithin(sql, a.parts, b.parts, backslash) && partsWithin(sql, b.parts, a.parts, backslash)
    );
  }
  a.text ??= queryText(sql, a.from, a.to, backslash);
  b.text ??= queryText(sql, b.from, b.to, backslash);
  return a.text === b.text;
}

/** Whether each of the UNION branches `a` (sorted by hash) is the same query as one of `b` (sorted too). One pass of both. */
function partsWithin(sql: string, a: RowSet[], b: RowSet[], backslash: string): boolean {
  let j = 0;
  for (const part of a) {
    while (j < b.length && b[j]!.hash < part.hash) j++;
    let found = false;
    for (let k = j; k < b.length && k < j + maxSameHashTries && b[k]!.hash === part.hash; k++) {
      if (sameQuery(sql, part, b[k]!, backslash)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

/** The text `[from, to)` as `textHash` reads it: a blank where blanks part two words, other blanks dropped, letters of names and keywords in lower case. */
function queryText(sql: string, from: number, to: number, backslash: string): string {
  const pieces: string[] = [];
  textHash(sql, from, to, backslash, pieces);
  return pieces.join('');
}

/**
 * `a op b`. UNION finds a row where either does (OR). INTERSECT finds one
 * only where both do, but may find none where both do (`SELECT 1 …
 * INTERSECT SELECT 2 …`): the AND, or FALSE; of a query and itself, the
 * query. EXCEPT finds one only where `a` does, all of `a`'s where `b` finds
 * none for any row, and none where `b` is `a`. An IN tests one value,
 * and reads them as SQL's AND, OR and NOT (`x IN (a INTERSECT b)` is `x
 * IN a AND x IN b`; `exists` false).
 */
function combineRows(
  a: RowSet,
  setOp: number,
  b: RowSet,
  exists: boolean,
  sql: string,
  backslash: string,
): RowSet {
  const op = setOp & SET_KIND;
  const all = setOp !== op;
  // `A EXCEPT ALL B` finds none where B has each of A's rows as often, or
  // A has each once and B has the same rows; `A INTERSECT ALL A` is A.
  const bagSame = all && op !== UNION_OP && sameQuery(sql, a, b, backslash, true);
  const same =
    bagSame ||
    ((!all || op !== EXCEPT_OP || a.distinct === true) && sameQuery(sql, a, b, backslash));
  let mask: number;
  if (op === UNION_OP) mask = OR[a.mask * 16 + b.mask]!;
  else if (!exists) {
    // An IN tests one value: `x IN (a EXCEPT b)` is `x IN a AND NOT x IN b`;
    // `EXCEPT ALL` may keep x where b has it too (a has it more often).
    mask = same
      ? op === INTERSECT_OP
        ? a.mask
        : FALSE
      : AND[a.mask * 16 + (op === INTERSECT_OP ? b.mask : negate(b.mask))]!;
    if (!same && all && op === EXCEPT_OP && b.mask !== FALSE) mask |= AND[a.mask * 16 + b.mask]!;
  } else if (op === INTERSECT_OP) mask = same ? a.mask : AND[a.mask * 16 + b.mask]! | FALSE;
  else if (same || a.mask === FALSE) mask = FALSE;
  else mask = b.mask === FALSE ? a.mask : a.mask | FALSE | (b.mask & VARIES);
  if (!same) return rowSet(mask);
  // A query with itself is its rows, each once or twice as often: not its
  // bag, but where INTERSECT ALL meets the same bag.
  return op === INTERSECT_OP && bagSame
    ? { ...a, mask }
    : { ...a, mask, setOnly: true, distinct: !all, bag: undefined };
}

/**
 * The branches `rows` joined by `ops`, as databases order them: INTERSECT
 * first (standard SQL, PostgreSQL, MySQL, SQL Server), or all from left to
 * right (SQLite, older Oracle). Where both orders are written (an
 * INTERSECT beside a UNION or EXCEPT), what either gives may be.
 */
function combineBranches(
  rows: RowSet[],
  ops: number[],
  exists: boolean,
  sql: string,
  backslash: string,
): RowSet {
  let leftToRight = rows[0]!;
  for (let i = 0; i < ops.length; i++) {
    leftToRight = combineRows(leftToRight, ops[i]!, rows[i + 1]!, exists, sql, backslash);
  }
  if (
    !ops.some(op => (op & SET_KIND) === INTERSECT_OP) ||
    ops.every(op => (op & SET_KIND) === INTERSECT_OP)
  ) {
    return leftToRight;
  }
  // INTERSECT first: each run of INTERSECTs is one operand of the UNIONs and EXCEPTs.
  let total: RowSet | undefined;
  let pending = UNION_OP;
  let run = rows[0]!;
  for (let i = 0; i <= ops.length; i++) {
    const op = ops[i];
    if (op !== undefined && (op & SET_KIND) === INTERSECT_OP) {
      run = combineRows(run, op, rows[i + 1]!, exists, sql, backslash);
      continue;
    }
    total = total === undefined ? run : combineRows(total, pending, run, exists, sql, backslash);
    if (op === undefined) break;
    pending = op;
    run = rows[i + 1]!;
  }
  return rowSet(total!.mask | leftToRight.mask);
}

/** The innermost query `compoundQueryAt` read last (its text, start and end) and where its `)` is. */
let compoundSql = '';
let compoundStart = -1;
let compoundEnd = -1;
let compoundClose = -1;

/**
 * Whether the parenthesis whose `(` is before `index` holds a query whose
 * first branch is parenthesized (`((SELECT a FROM v) UNION (SELECT t.id))`,
 * `((SELECT …)) ORDER BY 1`): a set operation, ORDER BY or LIMIT follows
 * that branch's `)`. Round 36: only `(SELECT …` was a scalar subquery, so
 * such a one was a group whose `UNION` was not read (a term that varies).
 * Each query's closing `)` is found once for the `(`s around it; a
 * parenthesized branch nested in another's first one (`(((A) UNION (B))
 * UNION (C))`) is read from its own `(` only.
 */
function compoundQueryAt(sql: string, index: number, end: number, backslash: string): boolean {
  let at = skipBlanks(sql, index, end);
  let opened = 0;
  while (sql.charCodeAt(at) === 0x28 /* ( */ && opened < maxConditionDepth) {
    opened++;
    at = skipBlanks(sql, at + 1, end);
  }
  if (opened === 0 || !subqueryAt(sql, at, end)) return false;
  if (sql !== compoundSql || at !== compoundStart || end !== compoundEnd) {
    compoundSql = sql;
    compoundStart = at;
    compoundEnd = end;
    compoundClose = closingParen(sql, at, end, backslash);
  }
  // Out through the parentheses around it, to the one just inside this one.
  for (let close = compoundClose; close !== -1; opened--) {
    const after = skipBlanks(sql, close + 1, end);
    if (opened === 1) {
      setOperationAt.lastIndex = after;
      afterBranch.lastIndex = after;
      return setOperationAt.test(sql) || afterBranch.test(sql);
    }
    if (sql.charCodeAt(after) !== 0x29 /* ) */) return false;
    close = after;
  }
  return false;
}

/** Whether a query starts at `index` past any number of `(` (a parenthesized branch: `((SELECT …) UNION …)`). */
function queryAt(sql: string, index: number, end: number): boolean {
  let at = index;
  for (let opened = 0; opened < maxConditionDepth; opened++) {
    if (subqueryAt(sql, at, end)) return true;
    at = skipBlanks(sql, at, end);
    if (sql.charCodeAt(at) !== 0x28 /* ( */) return false;
    at++;
  }
  return false;
}

/**
 * One level of a subquery's set operations: the subquery's own, or a
 * parenthesized branch's (`(SELECT …) UNION (SELECT …)`).
 */
interface QueryLevel {
  /** The parentheses open inside the subquery where its words are (1: the subquery's own). */
  depth: number;
  /** Where the level's text starts (past its `(`). */
  from: number;
  /** Where the current branch starts. */
  branch: number;
  fromAt: number;
  whereAt: number;
  readsTable: boolean;
  /**
   * The branch may find a row though its WHERE is true for none: a HAVING,
   * or a call in its select list, which may be an aggregate (`SELECT
   * count(*) FROM v WHERE 1 = 0` is one row).
   */
  aggregate: boolean;
  /** IN: where the branch's select item is the outer column tested. */
  item: [number, number] | undefined;
  /** A row limit of zero since the level's last set operation (`zeroRowLimit`): the level finds no row. */
  zeroRows: boolean;
  /** The current branch is a parenthesized level, read: what it gives. */
  group: RowSet | undefined;
  rows: RowSet[];
  ops: number[];
}

/** Sticky at a DELETE's or UPDATE's start, to its one target table (`FROM` is optional in SQL Server). */
const targetStart =
  /(?:delete\s+(?:(?:low_priority|quick|ignore|top\s*(?:\([^()]*\)|\d+)(?:\s*percent)?)\s+)*(?:from\s+)?|update\s+(?:(?:low_priority|ignore|or\s+(?:rollback|abort|replace|fail|ignore)|top\s*(?:\([^()]*\)|\d+)(?:\s*percent)?)\s+)*)(?:only\s+)?/iy;
/** Sticky at a branch's start, to its select item: `SELECT`, `ALL` or `DISTINCT`. */
const branchStart = /\s*select\s+(?:(?:all|distinct)\s+)?/iy;
/** Sticky: `FROM` (and PostgreSQL's `ONLY`) between a select item and its table. */
const fromTable = /\s*from\s+(?:only\s+)?/iy;
/** Sticky: PostgreSQL's `TABLE t` (`SELECT * FROM t`) to its table. */
const tableQuery = /\s*table\s+(?:only\s+)?/iy;

/** Where the table of a `TABLE t` query at `from` starts, or -1 where none is there. */
function tableQueryAt(sql: string, from: number, to: number): number {
  tableQuery.lastIndex = from;
  return tableQuery.test(sql) && tableQuery.lastIndex <= to ? tableQuery.lastIndex : -1;
}
/** Sticky: a name's part, a word or a quoted name (`"t"`, `` `t` ``, `[t]`). */
const namePart = /(?:[a-z_][\w$]*|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\])/iy;
/** Sticky: the `.` between two parts of a name. */
const nameDot = /\s*\.\s*/y;
/** Sticky: blanks and `AS` before an alias. */
const beforeAlias = /\s+(?:as\s+)?|\s*(?=["`[])/iy;

/** A qualified name read by `qualifiedNameAt`: its parts, unquoted, in lower case, and where it ends. */
interface QualifiedName {
  parts: string[];
  stop: number;
}

/**
 * The qualified name at `at` (`s.t`, `"s"."T"`, `` `t` ``, `[dbo].[t]`,
 * blanks around its dots), or undefined. A quoted part is read in lower
 * case too: `"T"` and `t` are one table here, which may find the own
 * table where there is another (fail closed).
 */
function qualifiedNameAt(sql: string, at: number, end: number): QualifiedName | undefined {
  const parts: string[] = [];
  let stop = at;
  for (let cursor = at; parts.length < 4; ) {
    namePart.lastIndex = cursor;
    const part = namePart.exec(sql);
    if (part === null || namePart.lastIndex > end) return undefined;
    parts.push(unquotedName(part[0]).toLowerCase());
    stop = namePart.lastIndex;
    nameDot.lastIndex = stop;
    if (!nameDot.test(sql) || nameDot.lastIndex >= end) return { parts, stop };
    cursor = nameDot.lastIndex;
  }
  return undefined;
}

/** The alias after a table at `at` (`t x`, `t AS "x"`), lower case, and where it ends; `alias` undefined: none. */
function aliasAt(
  sql: string,
  at: number,
  end: number,
): { alias: string | undefined; stop: number } {
  beforeAlias.lastIndex = at;
  if (!beforeAlias.test(sql) || beforeAlias.lastIndex > end) return { alias: undefined, stop: at };
  const name = qualifiedNameAt(sql, beforeAlias.lastIndex, end);
  if (name === undefined || name.parts.length !== 1) return { alias: undefined, stop: at };
  const word = sql.charCodeAt(beforeAlias.lastIndex);
  if (!isNameQuote(word) && notAlias.has(name.parts[0]!)) return { alias: undefined, stop: at };
  return { alias: name.parts[0], stop: name.stop };
}

/** A name's part without its quotes (a doubled closing quote inside is one). */
function unquotedName(text: string): string {
  const quote = text[0];
  if (quote !== '"' && quote !== '`' && quote !== '[') return text;
  const closer = quote === '[' ? ']' : quote;
  return text.slice(1, -1).replaceAll(closer + closer, closer);
}

/** Whether the parts `a` end with the parts `b` (`s.t` and `t`: one table where `s` is the schema searched). */
function endsWith(a: readonly string[], b: readonly string[]): boolean {
  if (b.length > a.length) return false;
  for (let i = 1; i <= b.length; i++) if (a[a.length - i] !== b[b.length - i]) return false;
  return true;
}

/**
 * Whether `qualifier` (a column's parts before its name) names the table
 * `table` given the alias `alias`: none, the alias, or the table's name or
 * its end (`s.t.id`, `t.id`).
 */
function namesTable(qualifier: readonly string[], table: readonly string[], alias?: string) {
  if (qualifier.length === 0) return true;
  if (alias !== undefined) return qualifier.length === 1 && qualifier[0] === alias;
  return endsWith(table, qualifier);
}

/**
 * The table the statement deletes from or updates (`DELETE FROM s.t AS
 * u`: parts `s`, `t`; alias `u`), read once per WHERE, or undefined.
 */
function targetTable(): { parts: string[]; alias: string | undefined } | undefined {
  if (targetRead === undefined) {
    targetStart.lastIndex = outerStart;
    const target =
      targetStart.test(outerSql) && targetStart.lastIndex <= outerEnd
        ? qualifiedNameAt(outerSql, targetStart.lastIndex, outerEnd)
        : undefined;
    targetRead =
      target === undefined
        ? null
        : { parts: target.parts, alias: aliasAt(outerSql, target.stop, outerEnd).alias };
  }
  return targetRead ?? undefined;
}

/**
 * A column's name (as written, lower case) as the statement's own WHERE
 * reads it: qualified by the target table (`DELETE FROM t WHERE t.id …`,
 * `public.t.id`, `"t"."id"`) or by its alias where it has one (`DELETE
 * FROM t AS u WHERE u.id …`), it is the column bare. A bare name there is
 * the target's column or, in a join, ambiguous (an error) where the target
 * has it, so `t.id = id`, `t.id = 1 OR id <> 1` and `lower(t.a) =
 * lower(a)` hold as `id = id`, `id = 1 OR id <> 1` and `lower(a) =
 * lower(a)` do wherever they run (round 35: round 34b read the two
 * spellings as one column only where compared with each other). In a
 * subquery a bare name may be its own table's column, and a qualifier
 * naming another table (`s.id = id`) another column: names stay as
 * written. Two tables are one when one's name ends the other's (`s.t`,
 * `t`), as `selectsOwnColumn` reads them (fail closed).
 */
function targetColumnName(name: string): string {
  if (subqueryNesting !== 0 && fromlessDepth !== subqueryNesting) return name;
  const dot = name.lastIndexOf('.');
  if (dot === -1) return name;
  const target = targetTable();
  if (target === undefined) return name;
  return namesTarget(name.slice(0, dot).split('.'), target) ? name.slice(dot + 1) : name;
}

/**
 * Whether a column's qualifier names the statement's target table: its
 * alias where it has one, else its name, one name ending the other's
 * (`public.t`, `t`: one table where `public` is the schema searched).
 */
function namesTarget(
  qualifier: readonly string[],
  target: { parts: string[]; alias: string | undefined },
): boolean {
  return (
    namesTable(qualifier, target.parts, target.alias) ||
    (target.alias === undefined && endsWith(qualifier, target.parts))
  );
}

/**
 * Whether the IN branch `[from, to)` selects the column `subject` names
 * from the table the statement deletes from or updates, whole (no WHERE,
 * join, GROUP BY, …): `DELETE FROM t WHERE id IN (SELECT id FROM t)` holds
 * wherever `id` is not NULL, as `id = id` does. Names are read however
 * they are written: qualified (`t.id`, `s.t`), quoted (`"t"`, `[t]`,
 * backticks), with blanks around their dots, aliased or not; two tables
 * are one when one's name ends the other's (`s.t`, `t`). The table may be
 * a derived one (`FROM (SELECT id FROM t) AS d`, `LATERAL` or not) or a
 * common table expression of the statement (`WITH x AS (SELECT id FROM t)
 * DELETE FROM t WHERE id IN (SELECT id FROM x)`, round 33), read as the
 * subquery it is, to any depth up to `maxTableNesting` (past it: the own
 * column, fail closed).
 */
function selectsOwnColumn(
  sql: string,
  from: number,
  to: number,
  subject: Value,
  backslash: string,
): boolean {
  if (!('mask' in subject) || subject.name === undefined) return false;
  const target = targetTable();
  if (target === undefined) return false;
  const outerAlias = target.alias;
  const subjectParts = subject.name.split('.');
  const name = subjectParts.pop()!;
  if (!namesTable(subjectParts, target.parts, outerAlias)) return false;
  const read = wholeColumn(sql, from, to, target.parts, maxTableNesting, backslash);
  return (
    read !== undefined &&
    (read.column === name ||
      read.column === ANY_COLUMN ||
      // `*`'s one column is the one tested, where that is a column (not `lower(name)`).
      (read.column === STAR_COLUMN && !subject.name.startsWith(EXPRESSION)))
  );
}

/** Sticky: a comparison true wherever a value is compared with itself and is not NULL. */
const reflexiveOperator = /\s*(?:<=>|<=|>=|==?|is\s+not\s+distinct\s+from\b)\s*/iy;

/**
 * Whether an EXISTS branch `SELECT … FROM <the statement's own table> x
 * WHERE …` whose FROM holds that table alone (under an alias) has a WHERE
 * of AND terms each comparing one column of `x` with the same column of
 * the outer row, by an operator every value passes against itself (`x.id =
 * t.id`, `t.id >= x.id`, `x.id <=> t.id`): each outer row finds itself,
 * so the EXISTS holds wherever the column is not NULL, as `id = id` and
 * `id IN (SELECT id FROM t)` do.
 */
function findsItself(
  sql: string,
  fromAt: number,
  whereAt: number,
  to: number,
  backslash: string,
): boolean {
  if (fromAt === -1 || whereAt === -1 || readingMode === undefined) return false;
  const target = targetTable();
  if (target === undefined) return false;
  const outerAlias = target.alias;
  fromTable.lastIndex = fromAt;
  if (!fromTable.test(sql)) return false;
  const table = qualifiedNameAt(sql, fromTable.lastIndex, whereAt);
  if (table === undefined) return false;
  // The target itself, or a common table of the statement (round 35: `WITH c AS (SELECT *
  // FROM t) DELETE FROM t WHERE EXISTS (SELECT 1 FROM c WHERE c.id = t.id)` ran).
  const direct = endsWith(table.parts, target.parts) || endsWith(target.parts, table.parts);
  const common =
    direct || table.parts.length !== 1 ? undefined : commonTableNamed(table.parts[0]!, backslash);
  if (!direct && common === undefined) return false;
  const { alias, stop } = aliasAt(sql, table.stop, whereAt);
  // Its own alias (a common table's name will do), and nothing else before its WHERE (a join, a second table).
  const name = alias ?? (common === undefined ? undefined : table.parts[0]);
  if (name === undefined || name === outerAlias || skipBlanks(sql, stop, whereAt) !== whereAt) {
    return false;
  }
  const own = (parts: readonly string[]) => parts.length === 2 && parts[0] === name;
  const outer = (parts: readonly string[]) =>
    parts.length > 1 && !own(parts) && namesTarget(parts.slice(0, -1), target);
  return reflexiveTerms(
    sql,
    whereAt + 5,
    to,
    readingMode,
    backslash,
    own,
    outer,
    column => common === undefined || passesColumn(sql, common, column, target.parts, backslash),
  );
}

/**
 * Whether `[from, to)` is AND terms each comparing a column of one table
 * (`own`: its qualified name's parts) with the same column of the other
 * (`outer`) by an operator every value passes against itself (`x.id =
 * t.id`, `t.id >= x.id`, `x.id <=> t.id`), and `passes` each column.
 */
function reflexiveTerms(
  sql: string,
  from: number,
  to: number,
  mode: Mode,
  backslash: string,
  own: (parts: readonly string[]) => boolean,
  outer: (parts: readonly string[]) => boolean,
  passes: (column: string) => boolean = () => true,
): boolean {
  return conjuncts(sql, from, to, mode, backslash).every(([start, end]) => {
    const left = qualifiedNameAt(sql, skipBlanks(sql, start, end), end);
    if (left === undefined) return false;
    reflexiveOperator.lastIndex = left.stop;
    if (!reflexiveOperator.test(sql) || reflexiveOperator.lastIndex > end) return false;
    const right = qualifiedNameAt(sql, reflexiveOperator.lastIndex, end);
    if (right === undefined || skipBlanks(sql, right.stop, end) !== end) return false;
    return (
      left.parts.at(-1) === right.parts.at(-1) &&
      ((own(left.parts) && outer(right.parts)) || (outer(left.parts) && own(right.parts))) &&
      passes(left.parts.at(-1)!)
    );
  });
}

/**
 * What a query gives of the target table's rows (`wholeRows`): all of them,
 * each column under its own name (`star`) or the columns `names` (`SELECT
 * id, a FROM t`); `other` rows (another table, a WHERE, a join, a row
 * limit: a subset, as the direct form with a WHERE is read); or `unread`
 * (a select list of expressions over the target, `VALUES`, past
 * `maxTableNesting`): the rows may be all of the target's, fail closed.
 */
type WholeRows = { star: boolean; names: Set<string> } | 'other' | 'unread';

/**
 * Whether the common table `common` gives every row of the target with its
 * column `column` as it is (an `EXISTS` over it correlated column by column
 * with the outer row finds each row itself); a body not read: true (fail
 * closed). Read once per common table and target.
 */
function passesColumn(
  sql: string,
  common: CommonTable,
  column: string,
  target: readonly string[],
  backslash: string,
): boolean {
  const rows = commonRows(sql, common, target, maxTableNesting, backslash);
  if (rows === 'unread') return true;
  if (rows === 'other') return false;
  // `WITH c(a, b) AS (…)` renames its columns in order: not followed (fail closed).
  if (common.columns !== undefined) return true;
  return rows.star || rows.names.has(column);
}

/** `wholeRows` of a common table's query, read once per target and depth. */
function commonRows(
  sql: string,
  common: CommonTable,
  target: readonly string[],
  depth: number,
  backslash: string,
): WholeRows {
  const key = `${target.join('.')}\u0000${depth}`;
  common.rows ??= new Map();
  let rows = common.rows.get(key);
  if (rows === undefined) {
    rows = wholeRows(sql, target, common.bodyFrom, common.bodyTo, depth, backslash);
    common.rows.set(key, rows);
  }
  return rows;
}

/** SQL Server's `TOP` at a select list's start. */
const topWord = /^top\b/i;
/** Sticky after a query's source: what leaves its rows whole (the end, ORDER BY) or adds rows (UNION). */
const wholeTail = /\s*(?:$|\)|order\s+by\b|union\b)/iy;

/** `wholeRows` of the query `[from, to)`, to `depth` derived or common tables deep. */
function wholeRows(
  sql: string,
  target: readonly string[],
  from: number,
  to: number,
  depth: number,
  backslash: string,
): WholeRows {
  if (depth < 0) return 'unread';
  // `TABLE t` is `SELECT * FROM t` (round 37).
  const tableAt = tableQueryAt(sql, from, to);
  branchStart.lastIndex = from;
  if (tableAt === -1 && (!branchStart.test(sql) || branchStart.lastIndex > to)) return 'unread';
  let at = tableAt === -1 ? branchStart.lastIndex : tableAt;
  // SQL Server's `SELECT TOP 5 …`: some rows.
  if (tableAt === -1 && topWord.test(sql.slice(at, Math.min(to, at + 4)))) return 'other';
  /** The select list: `*`, or each item that is a column under its own name (`id`, `t.id`, `d.id AS id`). */
  let star = tableAt !== -1;
  let plain = true;
  const names = new Set<string>();
  const qualifiers: string[][] = [];
  if (star) {
    // No select list, no FROM: the table follows.
  } else if (sql.charCodeAt(at) === 0x2a /* * */) {
    star = true;
    at++;
  } else {
    for (let items = 0; ; items++) {
      const item = items < 4_096 ? qualifiedNameAt(sql, at, to) : undefined;
      if (item === undefined) return 'unread';
      const own = item.parts.pop()!;
      const { alias, stop } = aliasAt(sql, item.stop, to);
      if (alias === undefined || alias === own) {
        names.add(own);
        qualifiers.push(item.parts);
      } else plain = false;
      at = skipBlanks(sql, stop, to);
      if (sql.charCodeAt(at) !== 0x2c /* , */) break;
      at = skipBlanks(sql, at + 1, to);
    }
  }
  fromTable.lastIndex = at;
  if (tableAt === -1 && (!fromTable.test(sql) || fromTable.lastIndex > to)) return 'unread';
  const sourceAt = tableAt === -1 ? fromTable.lastIndex : tableAt;
  /** The rows of a source read as `inner`, named `source` (its alias or name). */
  const over = (inner: WholeRows, source: string | undefined, stop: number): WholeRows => {
    if (inner === 'other' || inner === 'unread') return inner;
    wholeTail.lastIndex = stop;
    if (!wholeTail.test(sql) || wholeTail.lastIndex > to + 1) return 'other';
    // A row limit after an ORDER BY or a UNION (`… UNION SELECT id FROM s LIMIT 5`) keeps some rows.
    let limited = false;
    eachName(sql, stop, to, backslash, false, undefined, word => {
      if (word === 'limit' || word === 'fetch' || word === 'offset') limited = true;
    });
    if (limited) return 'other';
    if (star) return inner;
    const passed = new Set<string>();
    let i = 0;
    for (const name of names) {
      const qualifier = qualifiers[i++]!;
      const ours = qualifier.length === 0 || (qualifier.length === 1 && qualifier[0] === source);
      if (ours && (inner.star || inner.names.has(name))) passed.add(name);
    }
    return plain || passed.size > 0 ? { star: false, names: passed } : 'other';
  };
  lateralOpen.lastIndex = sourceAt;
  if (tableAt === -1 && lateralOpen.test(sql) && lateralOpen.lastIndex <= to) {
    const close = closingParen(sql, lateralOpen.lastIndex, to, backslash);
    if (close === -1) return 'unread';
    const { alias, stop } = aliasAt(sql, close + 1, to);
    const inner = wholeRows(sql, target, lateralOpen.lastIndex, close, depth - 1, backslash);
    return over(inner, alias, stop);
  }
  const table = qualifiedNameAt(sql, sourceAt, to);
  if (table === undefined) return 'unread';
  const { alias, stop } = aliasAt(sql, table.stop, to);
  const common =
    table.parts.length === 1 && !(target.length === 1 && target[0] === table.parts[0])
      ? commonTableNamed(table.parts[0]!, backslash)
      : undefined;
  if (common !== undefined) {
    if (common.bodyFrom <= from && to <= common.bodyTo) return 'unread';
    if (common.columns !== undefined) return 'unread';
    return over(commonRows(sql, common, target, depth - 1, backslash), alias ?? common.name, stop);
  }
  if (!endsWith(table.parts, target) && !endsWith(target, table.parts)) return 'other';
  return over({ star: true, names }, alias ?? table.parts.at(-1), stop);
}

/** Derived tables and common table expressions read within one another (`selectsOwnColumn`). */
const maxTableNesting = 8;
/** A column `wholeColumn` could not tell apart (past `maxTableNesting`): any, fail closed. */
const ANY_COLUMN = '\u0000';
/**
 * `*` of the target (`SELECT * FROM t`, `TABLE t`): in an IN, its one
 * column, which is the column tested (a table of more columns is an
 * error there); selected by name, that column (round 37).
 */
const STAR_COLUMN = '\u0000*';

/** What a query selects of the target table whole: its one output column's name and the target's column it is. */
interface WholeColumn {
  output: string;
  column: string;
}

/** Sticky: an `ORDER BY` after a query's source. */
const orderBy = /\s*order\s+by\b/iy;
/** Sticky: a `GROUP BY` after a query's source. */
const groupBy = /\s*group\s+by\b/iy;
/** Sticky: `t.*` (its qualifier's parts as `namePart` reads them). */
const qualifiedStar =
  /(?:[a-z_][\w$]*|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\])(?:\s*\.\s*(?:[a-z_][\w$]*|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\])){0,2}\s*\.\s*\*/iy;

/**
 * Whether what follows a query's source at `at`, up to `to`, keeps its
 * values whole: nothing, a `GROUP BY` of the column selected (`grouped`)
 * alone, then an `ORDER BY` without a row limit, or that alone (round 37:
 * `id IN (SELECT id FROM t ORDER BY id)` and `… GROUP BY id` ran).
 */
function rowsWholeAfter(
  sql: string,
  at: number,
  to: number,
  backslash: string,
  grouped?: string,
): boolean {
  let rest = skipBlanks(sql, at, to);
  groupBy.lastIndex = rest;
  if (grouped !== undefined && groupBy.test(sql) && groupBy.lastIndex <= to) {
    const key = qualifiedNameAt(sql, skipBlanks(sql, groupBy.lastIndex, to), to);
    if (key === undefined || key.parts.at(-1) !== grouped) return false;
    rest = skipBlanks(sql, key.stop, to);
  }
  if (rest === to || rowLimitKeepsAll(sql, rest, to)) return true;
  orderBy.lastIndex = rest;
  if (!orderBy.test(sql) || orderBy.lastIndex > to) return false;
  const limitAt = scanTopLevel(sql, orderBy.lastIndex, to, backslash, (word, stop) => {
    const lower = stop - word === 5 || stop - word === 6 ? sql.slice(word, stop).toLowerCase() : '';
    return lower === 'limit' || lower === 'fetch' || lower === 'offset';
  });
  return limitAt === -1 || (limitAt >= 0 && rowLimitKeepsAll(sql, limitAt, to));
}

/**
 * The least row limit read as keeping every row (round 38: `id IN (SELECT
 * id FROM t LIMIT 1000000000)` ran, its LIMIT read as a restriction). The
 * text cannot tell a table's size; a limit of a million rows or more is
 * read as the whole table (fail closed), a smaller one as the batch it
 * usually is (`LIMIT 1000`).
 */
const minWholeRowLimit = 1_000_000;

/**
 * Sticky: a row limit's clause: `LIMIT n | ALL | NULL`, MySQL's `LIMIT 0,
 * n`, `OFFSET 0 [ROWS]`, `FETCH FIRST | NEXT n ROWS ONLY` (the count in
 * group 1 or 2; none for ALL, NULL and OFFSET 0).
 */
const rowLimitClause =
  /\s*(?:limit\s+(?:all\b|null\b|(?:0+\s*,\s*)?(\d+(?:\.\d*)?(?:e\+?\d+)?)(?![\w.]))|offset\s+0+(?![\w.])(?:\s+rows?\b)?|fetch\s+(?:first|next)\s+(\d+)\s+rows?\s+only\b)/iy;

/**
 * Sticky: what keeps every row whatever follows it, to the query's end: a
 * row limit computed by a subquery (`LIMIT (SELECT count(*) FROM t)`,
 * fail closed), a lock (`FOR UPDATE`, `FOR SHARE`; `SKIP LOCKED` keeps the
 * rows no one holds, every row for some data).
 */
const wholeToEnd =
  /\s*(?:limit\s*\(\s*select\b|for\s+(?:update|share|no\s+key\s+update|key\s+share)\b)/iy;

/** Whether a count of rows (digits) is at least `minWholeRowLimit`. */
function wholeCount(digits: string): boolean {
  // `1e9`, `1.5e6`: PostgreSQL rounds a numeric count.
  if (/[e.]/i.test(digits)) return Number(digits) >= minWholeRowLimit;
  let from = 0;
  while (from < digits.length - 1 && digits.charCodeAt(from) === 0x30) from++;
  return digits.length - from > 7 || Number(digits.slice(from)) >= minWholeRowLimit;
}

/**
 * Whether `[at, to)` is only row limit clauses that each keep every row
 * (`LIMIT 1000000000`, `LIMIT ALL`, `OFFSET 0`), at least one.
 */
function rowLimitKeepsAll(sql: string, at: number, to: number): boolean {
  let index = at;
  for (let clauses = 0; clauses < 4; clauses++) {
    wholeToEnd.lastIndex = index;
    if (wholeToEnd.test(sql) && wholeToEnd.lastIndex <= to) return true;
    rowLimitClause.lastIndex = index;
    const clause = rowLimitClause.exec(sql);
    if (clause === null || rowLimitClause.lastIndex > to) return false;
    const count = clause[1] ?? clause[2];
    if (count !== undefined && !wholeCount(count)) return false;
    index = skipBlanks(sql, rowLimitClause.lastIndex, to);
    if (index === to) return true;
  }
  return false;
}

/** Sticky: SQL Server's `TOP n`, `TOP (n)`, `TOP n PERCENT` before a select item. */
const topCount = /top\s*(?:\(\s*(\d+)\s*\)|(\d+)(?![\w.]))(\s+percent\b)?\s*/iy;

/**
 * Past a `TOP` at `at` that keeps every row (round 38: a million or more,
 * or 100 percent or more), `at` where there is none, -1 for one that
 * keeps some rows.
 */
function pastWholeTop(sql: string, at: number, to: number): number {
  if (!topWord.test(sql.slice(at, Math.min(to, at + 4)))) return at;
  topCount.lastIndex = at;
  const top = topCount.exec(sql);
  if (top === null || topCount.lastIndex > to) return -1;
  const count = (top[1] ?? top[2])!;
  const whole = top[3] !== undefined ? Number(count) >= 100 : wholeCount(count);
  return whole ? topCount.lastIndex : -1;
}

/** Sticky: a join that keeps every row of the left side while the right one has a row (without its ON). */
const keepingJoin = /\s*(?:,|(?:(cross)\s+|inner\s+|(left|full)\s+(?:outer\s+)?)?join\b)\s*/iy;

/**
 * Past the joins at `at` that keep every row of the table `parts` (its
 * alias `alias`) while the joined table has one (round 38: `id IN (SELECT
 * x.id FROM t x JOIN s ON 1=1)` ran): a comma, `CROSS JOIN`, a `LEFT
 * JOIN` whatever its ON, an inner join whose ON names no column that may
 * be the table's (each name qualified by another table, as a join's
 * condition that names no target column, round 35). -1 at another join
 * (`USING`, `NATURAL`, a derived table, an ON naming the table).
 */
function pastKeepingJoins(
  sql: string,
  at: number,
  to: number,
  backslash: string,
  parts: string[],
  alias: string | undefined,
): number {
  let index = at;
  for (let joins = 0; joins < 16; joins++) {
    keepingJoin.lastIndex = index;
    const join = keepingJoin.exec(sql);
    if (join === null || keepingJoin.lastIndex > to) return index;
    const name = qualifiedNameAt(sql, keepingJoin.lastIndex, to);
    if (name === undefined) return -1;
    const named = aliasAt(sql, name.stop, to);
    index = skipBlanks(sql, named.stop, to);
    onWord.lastIndex = index;
    const on = onWord.test(sql) && onWord.lastIndex <= to;
    const comma = join[0]!.trim() === ',';
    if (!on) {
      if (comma || join[1] !== undefined) continue;
      return -1;
    }
    if (comma || join[1] !== undefined) return -1;
    const start = onWord.lastIndex;
    const next = scanTopLevel(sql, start, to, backslash, (word, stop) => {
      if (sql.charCodeAt(word) === 0x2c /* , */) return true;
      return endsOn.has(stop - word <= 13 ? sql.slice(word, stop).toLowerCase() : '');
    });
    if (next === -2) return -1;
    index = next === -1 ? to : next;
    if (join[2] !== undefined) continue;
    if (
      (mayNameTarget(sql, start, index, backslash, { parts, alias }, false) ||
        mayNameTarget(sql, start, index, backslash, { parts, alias: undefined }, false)) &&
      !matchesItself(sql, parts, alias, name.parts, named.alias, start, index, backslash)
    ) {
      return -1;
    }
  }
  return -1;
}

/**
 * Whether the table `parts` (named `alias`) joined with `joined` (named
 * `joinedAlias`) on `[from, to)` finds each of its rows itself: one table
 * under two names, and an ON of AND terms each comparing a column of one
 * with the same column of the other (round 35's self-join; round 38: `id
 * IN (SELECT a.id FROM t a JOIN t b ON a.id = b.id)` ran). An ON in
 * parentheses is read inside them.
 */
function matchesItself(
  sql: string,
  parts: readonly string[],
  alias: string | undefined,
  joined: readonly string[],
  joinedAlias: string | undefined,
  from: number,
  to: number,
  backslash: string,
): boolean {
  if (!endsWith(parts, joined) && !endsWith(joined, parts)) return false;
  const name = alias ?? parts.at(-1);
  const other = joinedAlias ?? joined.at(-1);
  if (name === other) return false;
  let start = skipBlanks(sql, from, to);
  let end = to;
  while (end > start && isJsSpace(sql.charCodeAt(end - 1))) end--;
  for (let groups = 0; groups < 8 && sql.charCodeAt(start) === 0x28 /* ( */; groups++) {
    const close = closingParen(sql, start + 1, end, backslash);
    if (close !== end - 1) break;
    start = skipBlanks(sql, start + 1, close);
    end = close;
  }
  const named = (qualifier: string | undefined) => (column: readonly string[]) =>
    column.length === 2 && column[0] === qualifier;
  return reflexiveTerms(
    sql,
    start,
    end,
    conditionReadings.any[0]!,
    backslash,
    named(name),
    named(other),
  );
}

/** Sticky past a derived table's `FROM`: `LATERAL` and the `(`. */
const lateralOpen = /(?:lateral\s*)?\(/iy;

/**
 * What the query `[from, to)` selects when it is `SELECT <column> FROM
 * <source> [alias]` and nothing else, its source the table `target` (not
 * `*` of it: its columns are the schema's), a derived table or a common
 * table expression that is such a query in turn (`*` of those is their one
 * column); undefined for anything else.
 */
function wholeColumn(
  sql: string,
  from: number,
  to: number,
  target: readonly string[],
  depth: number,
  backslash: string,
): WholeColumn | undefined {
  if (depth < 0) return { output: ANY_COLUMN, column: ANY_COLUMN };
  // `TABLE t` is `SELECT * FROM t` (round 37).
  const tableAt = tableQueryAt(sql, from, to);
  branchStart.lastIndex = from;
  if (tableAt === -1 && (!branchStart.test(sql) || branchStart.lastIndex > to)) return undefined;
  // The select item, in parentheses or not, and its alias.
  let at = tableAt === -1 ? pastWholeTop(sql, branchStart.lastIndex, to) : tableAt;
  if (at === -1) return undefined;
  let column: QualifiedName | undefined;
  /** `t.*`: its qualifier, which must name the source. */
  let starOf: string[] | undefined;
  qualifiedStar.lastIndex = at;
  if (tableAt !== -1) {
    // No select list, no FROM: the table follows.
  } else if (sql.charCodeAt(at) === 0x2a /* * */) {
    at++;
  } else if (qualifiedStar.test(sql) && qualifiedStar.lastIndex <= to) {
    starOf = qualifiedNameAt(sql, at, sql.lastIndexOf('.', qualifiedStar.lastIndex))?.parts;
    if (starOf === undefined) return undefined;
    at = qualifiedStar.lastIndex;
  } else {
    let open = 0;
    for (; sql.charCodeAt(at) === 0x28 /* ( */ && open < 8; open++) {
      at = skipBlanks(sql, at + 1, to);
    }
    column = qualifiedNameAt(sql, at, to);
    if (column === undefined) return undefined;
    at = column.stop;
    for (; open > 0; open--) {
      at = skipBlanks(sql, at, to);
      if (sql.charCodeAt(at) !== 0x29 /* ) */) return undefined;
      at++;
    }
  }
  let itemAlias: string | undefined;
  fromTable.lastIndex = at;
  if (tableAt === -1 && (!fromTable.test(sql) || fromTable.lastIndex > to)) {
    if (column === undefined) return undefined;
    ({ alias: itemAlias, stop: at } = aliasAt(sql, at, to));
    fromTable.lastIndex = at;
    if (!fromTable.test(sql) || fromTable.lastIndex > to) return undefined;
  }
  const sourceAt = tableAt === -1 ? fromTable.lastIndex : tableAt;
  /** The item over a source whose columns are `inner`'s, named `names` (its alias, the CTE's name). */
  const over = (inner: WholeColumn | undefined, names: readonly (string | undefined)[]) => {
    if (inner === undefined) return undefined;
    if (column === undefined) return inner;
    const own = column.parts.pop()!;
    if (column.parts.length > 1) return undefined;
    if (column.parts.length === 1 && !names.includes(column.parts[0])) return undefined;
    // A column of `*` of the target: the target's column of that name.
    if (inner.column === STAR_COLUMN) return { output: itemAlias ?? own, column: own };
    if (own !== inner.output && inner.output !== ANY_COLUMN) return undefined;
    return { output: itemAlias ?? own, column: inner.column };
  };
  lateralOpen.lastIndex = sourceAt;
  if (tableAt === -1 && lateralOpen.test(sql) && lateralOpen.lastIndex <= to) {
    // A derived table: its query, then its alias and nothing else.
    const close = closingParen(sql, lateralOpen.lastIndex, to, backslash);
    if (close === -1) return undefined;
    const { alias, stop } = aliasAt(sql, close + 1, to);
    if (!rowsWholeAfter(sql, stop, to, backslash, column?.parts.at(-1))) return undefined;
    return over(wholeColumn(sql, lateralOpen.lastIndex, close, target, depth - 1, backslash), [
      alias,
    ]);
  }
  const table = qualifiedNameAt(sql, sourceAt, to);
  if (table === undefined) return undefined;
  const { alias, stop } = aliasAt(sql, table.stop, to);
  const joined = pastKeepingJoins(sql, stop, to, backslash, table.parts, alias);
  if (joined === -1 || !rowsWholeAfter(sql, joined, to, backslash, column?.parts.at(-1))) {
    return undefined;
  }
  // A common table of the target's name may be the target itself (SQL
  // Server deletes through one): read as the target (fail closed).
  const common =
    table.parts.length === 1 && !(target.length === 1 && target[0] === table.parts[0])
      ? commonTableNamed(table.parts[0]!, backslash)
      : undefined;
  if (common !== undefined) {
    const named = column?.parts.length === 1 ? column.parts[0]! : undefined;
    if (named !== undefined && common.columns !== undefined && !common.columns.includes(named)) {
      // `WITH x(k) AS (…) … IN (SELECT id FROM x)`: x has no `id`, so it is
      // the outer row's (`t.id IN (SELECT t.id FROM x)`).
      return { output: itemAlias ?? named, column: named };
    }
    const key = `${target.join('.')}\u0000${depth}`;
    common.read ??= new Map();
    let inner = common.read.get(key);
    if (!common.read.has(key)) {
      inner = wholeColumn(sql, common.bodyFrom, common.bodyTo, target, depth - 1, backslash);
      common.read.set(key, inner);
    }
    // `WITH x(k) AS (…)`: its one column is named `k`.
    const renamed =
      inner === undefined || common.columns === undefined
        ? inner
        : common.columns.length === 1
          ? { output: common.columns[0]!, column: inner.column }
          : undefined;
    return over(renamed, alias === undefined ? [common.name] : [alias]);
  }
  if (!endsWith(table.parts, target) && !endsWith(target, table.parts)) return undefined;
  if (column === undefined) {
    return starOf === undefined || namesTable(starOf, table.parts, alias)
      ? { output: STAR_COLUMN, column: STAR_COLUMN }
      : undefined;
  }
  const own = column.parts.pop()!;
  if (!namesTable(column.parts, table.parts, alias)) return undefined;
  return { output: itemAlias ?? own, column: own };
}

/**
 * Where the `(` whose inside starts at `from` closes (the index of its
 * `)`), or -1 when it does not before `to`. Strings and quoted names are
 * skipped as every scan past a condition skips them.
 */
function closingParen(sql: string, from: number, to: number, backslash: string): number {
  const close = scanTopLevel(sql, from, to, backslash, at => sql.charCodeAt(at) === 0x29);
  return close < 0 ? -1 : close;
}

/** A common table expression of a `WITH` list: its name, column names, and its query `[bodyFrom, bodyTo)`. */
interface CommonTable {
  name: string;
  columns: string[] | undefined;
  bodyFrom: number;
  bodyTo: number;
  /** What `wholeColumn` read of its query, by target and depth left: each read once. */
  read?: Map<string, WholeColumn | undefined>;
  /** What `wholeRows` read of its query, by target and depth left: each read once. */
  rows?: Map<string, WholeRows>;
}

/**
 * The `WITH` lists of the statement read so far, kept while its WHEREs are
 * read (they come in text order): each part of the statement is scanned
 * once, however many subqueries name a common table.
 */
let commonTables:
  | {
      sql: string;
      statementFrom: number;
      backslash: string;
      dollar: boolean;
      next: number;
      /** By name, in text order (their queries end in that order: nested lists are not read). */
      tables: Map<string, CommonTable[]>;
    }
  | undefined;

const withWord = /with\s+(?:recursive\s+)?/iy;
/** Sticky: one entry's head, `x AS (`, `x(a, b) AS NOT MATERIALIZED (`. */
const commonTableHead = new RegExp(
  String.raw`\s*(${namePart.source})\s*(?:\(([^()]*)\)\s*)?as\s+(?:not\s+)?(?:materialized\s+)?\(`,
  'iy',
);
const listComma = /\s*,/y;

/**
 * The common table expression `name` of the statement whose WHERE is read,
 * complete before its DELETE or UPDATE (a later entry of its own `WITH`
 * list is not in scope); the last of that name when there are several.
 */
function commonTableNamed(name: string, backslash: string): CommonTable | undefined {
  const dollar = dollarQuotes(readingMode);
  let cache = commonTables;
  if (
    cache === undefined ||
    cache.sql !== outerSql ||
    cache.statementFrom !== statementStart ||
    cache.backslash !== backslash ||
    cache.dollar !== dollar
  ) {
    cache = {
      sql: outerSql,
      statementFrom: statementStart,
      backslash,
      dollar,
      next: statementStart,
      tables: new Map(),
    };
    commonTables = cache;
  }
  while (cache.next < outerStart) {
    cache.next = readWithList(outerSql, cache.next, backslash, cache.tables);
  }
  const named = cache.tables.get(name);
  if (named === undefined) return undefined;
  // The last whose query ends before the DELETE or UPDATE (a binary search).
  let low = 0;
  let high = named.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (named[middle]!.bodyTo < outerStart) low = middle + 1;
    else high = middle - 1;
  }
  return named[high];
}

/**
 * Reads the next `WITH` list at or after `from` (outside strings) into
 * `tables`, and returns where the scan goes on: past the list, past a
 * `WITH` that starts none (`WITH (NOLOCK)`, `WITH TIES`), or at the
 * statement's end.
 */
function readWithList(
  sql: string,
  from: number,
  backslash: string,
  tables: Map<string, CommonTable[]>,
): number {
  const end = statementEnd;
  for (let at = from; at < end; at++) {
    const code = sql.charCodeAt(at);
    if (opensQuoted(code)) {
      const close = quotedEnd(sql, at, end, backslash);
      if (close === -1) return end;
      at = close;
      continue;
    }
    if ((code | 0x20) !== 0x77 /* w */ || isWordCode(sql.charCodeAt(at - 1))) continue;
    withWord.lastIndex = at;
    if (!withWord.test(sql) || withWord.lastIndex > end) continue;
    let next = withWord.lastIndex;
    for (;;) {
      commonTableHead.lastIndex = next;
      const head = commonTableHead.exec(sql);
      if (head === null || commonTableHead.lastIndex > end)
        return next === withWord.lastIndex ? at + 4 : next;
      const bodyFrom = commonTableHead.lastIndex;
      const close = closingParen(sql, bodyFrom, end, backslash);
      if (close === -1) return end;
      const name = unquotedName(head[1]!).toLowerCase();
      const table: CommonTable = {
        name,
        columns: head[2]?.split(',').map(part => unquotedName(part.trim()).toLowerCase()),
        bodyFrom,
        bodyTo: close,
      };
      const named = tables.get(name);
      if (named === undefined) tables.set(name, [table]);
      else named.push(table);
      next = close + 1;
      listComma.lastIndex = next;
      if (!listComma.test(sql) || listComma.lastIndex > end) return next;
      next = listComma.lastIndex;
    }
  }
  return end;
}

/**
 * What a parenthesized level `[from, to)` is as a branch of the level
 * around it: its outcomes `mask`, and its identity: its one branch's, or,
 * for several, a hash made of theirs and its text.
 */
function levelIdentity(
  sql: string,
  rows: readonly RowSet[],
  ops: readonly number[],
  mask: number,
  from: number,
  to: number,
  backslash: string,
): RowSet {
  if (rows.length === 1) return { ...rows[0]!, mask };
  if (ops.every(op => (op & SET_KIND) === UNION_OP)) {
    return unionIdentity(sql, rows, mask, from, to, backslash, (ops.at(-1)! & ALL_OP) === 0);
  }
  let hash = hashText('level');
  for (let i = 0; i < rows.length; i++) {
    if (rows[i]!.hash === -1) return rowSet(mask);
    hash = mixHash(mixHash(hash, rows[i]!.hash), ops[i] ?? -1);
  }
  return { mask, hash: hash >>> 0, from, to, distinct: ops.every(op => !(op & ALL_OP)) };
}

/**
 * A parenthesized UNION of `rows`: named by its branches in any order (a
 * nested parenthesized UNION's branches among them), the hash of their
 * distinct hashes sorted; `distinct`: its last operation is not `ALL`. A
 * UNION of one query written again and again is that query's rows
 * (`(A UNION A) EXCEPT (A)` finds none), not as many times each.
 */
function unionIdentity(
  sql: string,
  rows: readonly RowSet[],
  mask: number,
  from: number,
  to: number,
  backslash: string,
  distinct: boolean,
): RowSet {
  const parts: RowSet[] = [];
  for (const row of rows) {
    if (row.hash === -1) return rowSet(mask);
    if (row.parts === undefined) parts.push(row);
    else for (const part of row.parts) parts.push(part);
  }
  parts.sort((x, y) => x.hash - y.hash);
  const first = parts[0]!;
  if (
    first.hash === parts.at(-1)!.hash &&
    parts.every(part => sameQuery(sql, first, part, backslash))
  ) {
    const bag = { mask, hash: textHash(sql, from, to, backslash), from, to };
    return { ...first, mask, setOnly: true, distinct, bag };
  }
  let hash = hashText('union');
  for (let i = 0; i < parts.length; i++) {
    if (i === 0 || parts[i]!.hash !== parts[i - 1]!.hash) hash = mixHash(hash, parts[i]!.hash);
  }
  return { mask, hash: hash >>> 0, from, to, parts, distinct };
}

/** Whether a zero row limit (`zeroRowLimit`) is at `at`, ending before `end`. */
function zeroRowLimitAt(sql: string, at: number, end: number): boolean {
  zeroRowLimit.lastIndex = at;
  return zeroRowLimit.test(sql) && zeroRowLimit.lastIndex <= end;
}

/**
 * What the subquery `subqueryEnd` read last gives for EXISTS or an IN (see
 * `RowSet`): FALSE alone when it finds no row for any row; VARIES when it
 * has a FROM of its own (outside `FROM DUAL`) and names the outer
 * statement's table or alias as a qualifier (`o.user_id = users.id`).
 * Without a FROM (`SELECT 1`), or with one but no reference to the outer
 * row (`EXISTS (SELECT 1 FROM users)`), it is one value for every row: some
 * constant, which may hold.
 */
let subqueryRows = CONSTANT;

/**
 * The scalar subquery `subqueryEnd` read last (given its select item as
 * `subject`) is that item, an outer row's column, for every row: each of
 * its branches selects the column, and none tells outer rows apart (its
 * WHERE, if any, holds alike for every outer row). `(SELECT t.id)` is
 * `t.id`; `(SELECT t.id FROM s)` is `t.id` while s has one row (SQLite's
 * and MySQL's `LIMIT 1`: any row), NULL while it has none and an error past
 * one: `id = (SELECT t.id FROM s)` finds every row for some contents of s,
 * which the text cannot tell (round 35: read as the column, fail closed).
 */
let subquerySelectsOuter = false;
/** A branch of that subquery reads a table (`FROM s`): only the table's contents make it the column. */
let subqueryOuterFromTable = false;
const OR_OPERATOR = binaryOperators.get('or')!;

/** EXISTS of a UNION of branches without a table whose WHEREs are `values`: the OR of each IS TRUE. */
function fromlessExists(values: readonly Value[]): Value | undefined {
  const mode = readingMode;
  if (mode === undefined || values.length === 0) return undefined;
  const stack = [isTest(values[0]!, 'true', false, mode)];
  for (let i = 1; i < values.length; i++) {
    stack.push(isTest(values[i]!, 'true', false, mode));
    if (!apply(stack, OR_OPERATOR, mode)) return undefined;
  }
  return stack[0];
}

/** The value of the EXISTS `subqueryEnd` read last, where its branches have no table (UNIONs only). */
let subqueryWhereValue: Value | undefined;
/** The outer column that scalar subquery's branches select (found in a later branch where the first selects none). */
let subqueryOuterItem: Outcomes | undefined;

/**
 * Past the `)` that closes the subquery whose `(` is before `index`, or -1.
 * An EXISTS or IN reads its branches (`UNION`, `INTERSECT`, `EXCEPT`,
 * parenthesized ones to any depth) one by one and joins what each gives
 * (`subqueryRows`): an EXISTS of a UNION varies by row only when each
 * branch does (`EXISTS (SELECT 1 FROM orders WHERE orders.user_id =
 * users.id UNION SELECT 1 FROM admins)` is true for every user while
 * admins has a row). So do one `sets` names (`ANY` / `ALL` of it: whether
 * it finds a row) and a `scalar` one (whether it finds a row, and one
 * without a table that names the outer row varies). Other subqueries are
 * read whole, as one branch.
 */
function subqueryEnd(
  sql: string,
  index: number,
  end: number,
  backslash: string,
  exists = false,
  tested?: Value,
  sets = false,
  scalar = false,
): number {
  const branches = exists || tested !== undefined || sets || scalar;
  // A scalar one's outer column may be selected by a later branch only (`SELECT a FROM v WHERE 1=0 UNION SELECT t.id`).
  let subject = tested;
  let found: Outcomes | undefined;
  // A scalar one's item is the column itself (no call around it: `COALESCE(t.id, 0)` is not `t.id`).
  const itemAt = (at: number) => {
    // Until a branch selects it: the outer column a later branch selects, bare where it has no table.
    if (scalar && tested === undefined && !anySelects && at !== index) {
      found = outerItemAt(sql, at, end, backslash, true);
      subject = found;
    }
    return subject === undefined
      ? undefined
      : subjectItemAt(sql, at, end, subject, backslash, !scalar);
  };
  /** Scalar: each branch selects the outer column `subject`; one of them reads a table. */
  let allSelect = true;
  let fromTable = false;
  /**
   * Scalar, UNIONs only: a branch selects the outer column, as no other
   * branch that varies does, and every other branch may find no row (reads a
   * table, has a WHERE, or finds none): the column for some contents.
   */
  let unionsOnly = true;
  /**
   * An EXISTS of branches without a table (UNIONs only): each one's WHERE's
   * value (`whereValue`; TRUE without one), while every branch is such.
   */
  const fromless: Value[] = [];
  let allFromless = true;
  let anySelects = false;
  let othersMayLack = true;
  let selectsVary = false;
  const level = (depth: number, at: number): QueryLevel => ({
    depth,
    from: at,
    branch: at,
    fromAt: -1,
    whereAt: -1,
    readsTable: false,
    aggregate: false,
    item: itemAt(at),
    zeroRows: false,
    group: undefined,
    rows: [],
    ops: [],
  });
  const levels: QueryLevel[] = [level(1, index)];
  let top = levels[0]!;
  let depth = 1;
  /** Ends the branch `[top.branch, to)`: what it gives joins the level's. */
  const endBranch = (to: number) => {
    let rows = top.group;
    if (rows === undefined) {
      // IN: a branch that selects the outer column tested (and does not bind
      // its qualifier) holds where it finds a row, as EXISTS of it; another
      // branch varies with the subject.
      zeroTop.lastIndex = top.branch;
      const none = zeroTop.test(sql) && zeroTop.lastIndex <= to;
      // A bare name selected without a table is the outer row's (round 36: `SELECT a FROM v WHERE 1=0 UNION SELECT id`).
      const selects =
        !none &&
        top.item !== undefined &&
        (sql.slice(top.item[0], top.item[1]).includes('.')
          ? correlated(sql, top.item[0], top.branch, to, backslash, top.item[1])
          : !top.readsTable);
      subqueryEmpty = false;
      // Read first: an IN's branch that finds no row adds none either (`id NOT IN (… WHERE 1 = 0)`).
      // The rows of `ANY` / `ALL` vary where a branch without a table names the outer row (`SELECT t.x`).
      const own =
        !none &&
        (top.readsTable
          ? subqueryVaries(
              sql,
              top.branch,
              to,
              top.fromAt,
              top.whereAt,
              backslash,
              exists || selects,
            )
          : (sets || scalar) && correlated(sql, top.branch, top.branch, to, backslash));
      // Its WHERE's end where that holds for every row (read just now).
      const held = !none && top.readsTable && top.whereAt !== -1 ? whereHeldStop : -1;
      // A branch without a table (`SELECT 1`) is one row for every outer row;
      // one whose WHERE is true for no row finds none (`SELECT 1 FROM v WHERE 1 = 0`).
      whereVaried = false;
      whereValue = undefined;
      const mask =
        none ||
        (!top.aggregate &&
          (top.readsTable
            ? subqueryEmpty
            : top.whereAt !== -1 && whereFindsNone(sql, top.whereAt, to, backslash)))
          ? FALSE
          : subject !== undefined &&
              (top.whereAt === -1
                ? // One row of the tested column (`SELECT t.x`, `FROM DUAL`), or the table's own column.
                  (selects && !top.readsTable) ||
                  (!scalar && selectsOwnColumn(sql, top.branch, to, subject, backslash))
                : // The table's own column under a WHERE that holds for every row (round 37).
                  held !== -1 &&
                  !scalar &&
                  rowsWholeAfter(sql, held, to, backslash) &&
                  selectsOwnColumn(sql, top.branch, top.whereAt, subject, backslash))
            ? TRUE | NULL
            : exists &&
                subject === undefined &&
                top.readsTable &&
                !top.aggregate &&
                findsItself(sql, top.fromAt, top.whereAt, to, backslash)
              ? TRUE | NULL
              : (!selects && subject !== undefined && !scalar && varies(subject)) ||
                  own ||
                  whereVaried
                ? VARIES
                : CONSTANT;
      // One row where its WHERE holds, none elsewhere (`SELECT 1 WHERE id = 5`); an aggregate is one row.
      if (exists && mask !== FALSE) {
        const value =
          top.readsTable || top.aggregate
            ? undefined
            : top.whereAt === -1
              ? MASKS[TRUE]!
              : whereValue;
        if (value === undefined) allFromless = false;
        else fromless.push(value);
      }
      // A branch that finds no row adds none (`SELECT a FROM v WHERE 1=0 UNION SELECT t.id`).
      allSelect &&= selects || mask === FALSE;
      if (selects) {
        fromTable ||= top.readsTable;
        anySelects = true;
        selectsVary ||= (mask & VARIES) !== 0;
      } else othersMayLack &&= mask === FALSE || top.readsTable || top.whereAt !== -1;
      rows = {
        mask,
        hash: branches ? textHash(sql, top.branch, to, backslash) : -1,
        from: top.branch,
        to,
      };
    }
    top.rows.push(rows);
    top.group = undefined;
    top.fromAt = -1;
    top.whereAt = -1;
    top.readsTable = false;
    top.aggregate = false;
  };
  for (let at = index; at < end; at++) {
    const code = sql.charCodeAt(at);
    const lower = code | 0x20;
    const here = depth === top.depth;
    const wordStart = here && !isWordCode(sql.charCodeAt(at - 1));
    if (
      wordStart &&
      branches &&
      (lower === 0x6c /* l */ || lower === 0x66) /* f */ &&
      zeroRowLimitAt(sql, at, end)
    ) {
      top.zeroRows = true;
    } else if (wordStart && lower === 0x66 /* f */) {
      fromWord.lastIndex = at;
      if (fromWord.test(sql) && fromWord.lastIndex <= end) {
        // MySQL's and Oracle's DUAL is one row of no data.
        fromDual.lastIndex = fromWord.lastIndex;
        if (!fromDual.test(sql)) top.readsTable = true;
        if (top.fromAt === -1) top.fromAt = at;
      }
    } else if (wordStart && top.whereAt === -1 && lower === 0x77 /* w */) {
      whereWord.lastIndex = at;
      if (whereWord.test(sql) && whereWord.lastIndex <= end) top.whereAt = at;
    } else if (
      wordStart &&
      branches &&
      (lower === 0x75 /* u */ ||
        lower === 0x69 /* i */ ||
        lower === 0x65 /* e */ ||
        lower === 0x6d) /* m */
    ) {
      setOperationAt.lastIndex = at;
      const match = setOperationAt.exec(sql);
      if (match !== null && setOperationAt.lastIndex <= end) {
        // Kept before the branch is read: reading its WHERE reads nested subqueries with this regex.
        const next = setOperationAt.lastIndex;
        endBranch(at);
        top.zeroRows = false;
        const word = match[1]!.toLowerCase();
        const op = word === 'union' ? UNION_OP : word === 'intersect' ? INTERSECT_OP : EXCEPT_OP;
        top.ops.push(match[2]?.toLowerCase() === 'all' ? op | ALL_OP : op);
        unionsOnly &&= op === UNION_OP;
        top.branch = next;
        top.item = itemAt(top.branch);
        at = next - 1;
        continue;
      }
    } else if (wordStart && lower === 0x68 /* h */) {
      havingWord.lastIndex = at;
      if (havingWord.test(sql) && havingWord.lastIndex <= end) top.aggregate = true;
    }
    if (code === 0x28 /* ( */) {
      if (here && branches && top.group === undefined && skipBlanks(sql, top.branch, at) === at) {
        // A parenthesized branch: a level of its own.
        if (!queryAt(sql, at + 1, end) || levels.length >= maxConditionDepth) return -1;
        top = level(depth + 1, at + 1);
        levels.push(top);
      } else if (here && top.fromAt === -1 && top.whereAt === -1) {
        // A call in the select list (`count(*)`) may be an aggregate: one row
        // whatever the WHERE. Not one in the WHERE (round 37: `SELECT 1 WHERE
        // EXISTS (…)` was read as one, some constant).
        top.aggregate = true;
      }
      depth++;
    } else if (code === 0x29 /* ) */) {
      if (--depth >= top.depth) continue;
      endBranch(at);
      const { rows: levelRows, ops: levelOps, from } = top;
      const rows = top.zeroRows
        ? rowSet(FALSE)
        : combineBranches(top.rows, top.ops, exists, sql, backslash);
      levels.pop();
      if (levels.length === 0) {
        // Every branch empty (FALSE alone): it finds no row for any row. In
        // a subquery's WHERE that is read as SQL reads it (EXISTS and IN
        // false, NOT IN true, a scalar subquery NULL), so that the subquery
        // around it finds none (`NOT EXISTS (… AND EXISTS (… LIMIT 0))`); in
        // the statement's own WHERE it is some constant (blocked whatever
        // tests it: it deletes nothing). `ANY` of it is false, `ALL` true.
        // A UNION of the column and branches that may find no row
        // (`SELECT t.id UNION SELECT a FROM v`) is the column while they
        // find none, and an error or one row's value otherwise.
        const some = !allSelect && unionsOnly && anySelects && othersMayLack && !selectsVary;
        subquerySelectsOuter =
          scalar &&
          subject !== undefined &&
          rows.mask !== FALSE &&
          (some || (allSelect && !(rows.mask & VARIES)));
        subqueryOuterFromTable = fromTable || some;
        subqueryOuterItem = found;
        // `EXISTS (SELECT 1 WHERE id = 5)` is `(id = 5) IS TRUE` (round 36: some constant, blocked).
        subqueryWhereValue =
          exists && unionsOnly && allFromless && rows.mask !== FALSE
            ? fromlessExists(fromless)
            : undefined;
        subqueryRows = rows.mask === FALSE && subqueryNesting === 0 && !sets ? CONSTANT : rows.mask;
        return at + 1;
      }
      top = levels[levels.length - 1]!;
      // Only a set operation, ORDER BY / LIMIT, or the end may follow.
      const after = skipBlanks(sql, at + 1, end);
      const next = sql.charCodeAt(after);
      setOperationAt.lastIndex = after;
      afterBranch.lastIndex = after;
      const ordered = afterBranch.test(sql);
      if (next !== 0x29 && !setOperationAt.test(sql) && !ordered) return -1;
      // The same query as another where its text is (`(A) EXCEPT (A)`): one
      // branch is that branch; several are named by theirs, not hashed
      // again (nested levels would hash their text once per level). An
      // ORDER BY or LIMIT after it makes it another query.
      top.group = ordered
        ? rowSet(rows.mask)
        : levelIdentity(sql, levelRows, levelOps, rows.mask, from, at, backslash);
    } else if (opensQuoted(code)) {
      at = quotedEnd(sql, at, end, backslash);
      if (at === -1) return -1;
    }
  }
  return -1;
}

/** What one reading found: `failedAt` where a token was not read, and the open parentheses there. */
interface ConditionRead {
  holds: boolean | undefined;
  stop: number;
  seen: number;
  /** The condition's outcomes, when it was read whole (`WHERE`'s truth). */
  mask?: number;
  /** Its value then (a column's conditions followed: `id = 5`). */
  value?: Value;
  limit?: ConditionLimit;
  failedAt?: number;
  depth?: number;
}

/**
 * One reading of a condition. Where a token is not read (an operator of
 * one database: `a @> b`, `data->>'x'`), the term it is in (between two
 * ANDs, ORs or XORs of the innermost group around it, or of the top level)
 * is a value that varies by row, and the reading goes on at the operator
 * after that term, keeping what the group's other terms tell: `WHERE a @> b
 * OR 1+1=2` holds (unknown OR true), and so do `id IS NULL OR a @> b OR id
 * IS NOT NULL` (its terms on `id` still followed) and `NOT (1=0 AND a @>
 * b)` (FALSE AND unknown). Each restart starts past the last failure, so
 * the text is read once.
 */
function readCondition(
  sql: string,
  from: number,
  end: number,
  limit: number,
  mode: Mode,
  backslash: string,
): ConditionRead {
  readingMode = mode;
  let seen = 0;
  let unknown = false;
  let failed = -1;
  const terms: TermsState = {
    values: [],
    operators: [],
    marks: [{ group: 0, operators: 0, values: 0, brackets: 0, at: from }],
    brackets: 0,
    expectOperand: true,
  };
  for (let start = from; ; ) {
    const part = readTerms(sql, start, end, limit, from, mode, backslash, terms);
    seen |= part.seen;
    if (part.limit !== undefined || part.holds === true) return { ...part, seen };
    if (part.failedAt === undefined) {
      const { mask, value } = part;
      return { holds: unknown ? undefined : part.holds, stop: part.stop, seen, mask, value };
    }
    // No progress since the last failure: the term is not read, nor the rest.
    if (part.failedAt <= failed) return { holds: undefined, stop: part.failedAt, seen };
    failed = part.failedAt;
    unknown = true;
    const { marks, values, operators } = terms;
    const mark = marks[marks.length - 1]!;
    const depth = (part.depth ?? 0) - mark.brackets;
    const inCase = operators[mark.group - 1]?.open === 'case';
    const next = nextTopLevelOr(sql, part.failedAt, end, depth, mode, backslash, true, inCase);
    // The term (varying, not followed) in place of what was read of it; the
    // group's terms before it wait with their AND / OR.
    values.length = mark.values;
    operators.length = mark.operators;
    terms.brackets = mark.brackets;
    values.push(unreadTerm(sql, mark.at, next.or !== -1 ? next.or : next.stop, backslash));
    terms.expectOperand = false;
    // The operator after the term, the group's `)`, the CASE's next word or the end of the condition.
    if (next.or !== -1) start = next.or;
    else if (marks.length === 1 || inCase || sql.charCodeAt(next.stop) === 0x29 /* ) */) {
      start = next.stop;
    } else return { holds: undefined, stop: next.stop, seen };
  }
}

const notWord = /\s*not\b/iy;

/**
 * A term not read, `[from, to)`: a value that varies, named by its text
 * after its leading NOTs, which apply to it (`NOT data->>'k' = 'v' OR
 * data->>'k' = 'v'` is the NOT of one term ORed with it).
 */
function unreadTerm(sql: string, from: number, to: number, backslash: string): Value {
  let at = from;
  let negated = false;
  for (notWord.lastIndex = at; notWord.test(sql) && notWord.lastIndex < to; ) {
    at = notWord.lastIndex;
    negated = !negated;
  }
  const value = expression(textHash(sql, at, to, backslash));
  const lits = negated ? literalsOf(value) : undefined;
  return lits ? negatedLiterals(lits) : value;
}

/**
 * The hash of a term's text `[from, to)` as the database reads it: blanks
 * aside (one where they part two words), names and keywords in any case,
 * strings as written; -1 when it has a `?` (each one a parameter of its own).
 * With `pieces`, the text it hashed is pushed there too (`queryText`).
 */
function textHash(
  sql: string,
  from: number,
  to: number,
  backslash: string,
  pieces?: string[],
): number {
  let hash = hashText('term');
  /** The last character hashed, and whether blanks followed it. */
  let last = 0x20;
  let blank = false;
  for (let at = from; at < to; at++) {
    let code = sql.charCodeAt(at);
    if (isJsSpace(code)) {
      blank = true;
      continue;
    }
    if (blank && isWordCode(code) && isWordCode(last)) {
      hash = Math.imul(hash ^ 0x20, 0x01000193);
      pieces?.push(' ');
    }
    blank = false;
    if (code === 0x3f /* ? */) return -1;
    const close = opensQuoted(code) ? quotedEnd(sql, at, to, backslash) : at;
    if (close === -1) return -1;
    last = sql.charCodeAt(close);
    if (close !== at) {
      const quoted = sql.slice(at, close + 1);
      hash = hashText(quoted, hash);
      pieces?.push(quoted);
      at = close;
      continue;
    }
    if (code >= 0x41 && code <= 0x5a) code |= 0x20;
    hash = Math.imul(hash ^ code, 0x01000193);
    pieces?.push(String.fromCharCode(code));
  }
  return hash >>> 0;
}

/** Words that end a condition (the clause after it), at its top level. */
const endsCondition = (word: string) =>
  keywords.get(word) === 'clause' || keywords.get(word) === 'statement';

/**
 * Past the next OR (`||` too where it is OR) at the condition's top level
 * from `at`, where `depth` parentheses are open: `or` is -1 when the
 * condition ends first (a `)` it did not open, a clause, the end, a quote
 * that does not close); `stop`, where the scan ended. With `terms`, `or`
 * is where the next AND, OR or XOR (`&&` and `||` where they are) starts
 * instead (not BETWEEN's AND). A CASE … END is one term. One pass; `\`
 * escapes inside the quotes `backslash` lists.
 */
function nextTopLevelOr(
  sql: string,
  at: number,
  end: number,
  depth: number,
  mode: Mode,
  backslash: string,
  terms = false,
  inCase = false,
): { or: number; stop: number } {
  let open = depth;
  let cases = 0;
  let between = false;
  for (let index = at; index < end; index++) {
    const code = sql.charCodeAt(index);
    const top = open === 0 && cases === 0;
    const quoted = opensQuoted(code) ? quotedEnd(sql, index, end, backslash) : index;
    // Parentheses, and the braces of ODBC escapes.
    if (code === 0x28 || code === 0x7b) open++;
    else if (code === 0x29 || code === 0x7d) {
      if (--open < 0) return { or: -1, stop: index };
    } else if (quoted !== index) {
      if (quoted === -1) return { or: -1, stop: end };
      index = quoted;
    } else if ((code === 0x7c || code === 0x26) && sql.charCodeAt(index + 1) === code) {
      const separates = code === 0x7c ? mode.pipesOr : terms && mode.ampersandsAnd;
      if (separates && top)
        return terms ? { or: index, stop: index } : { or: index + 2, stop: index + 2 };
      index++;
    } else if (isWordCode(code) && !isWordCode(sql.charCodeAt(index - 1))) {
      let stop = index + 1;
      while (stop < end && isWordCode(sql.charCodeAt(stop))) stop++;
      if (open === 0 && stop - index <= 9) {
        const word = sql.slice(index, stop).toLowerCase();
        if (word === 'case') cases++;
        else if (word === 'end' && cases > 0) cases--;
        else if (!top) {
          // Inside a CASE.
        } else if (word === 'or') return terms ? { or: index, stop: index } : { or: stop, stop };
        else if (terms && word === 'between') between = true;
        else if (terms && word === 'and' && between) between = false;
        else if (terms && (word === 'and' || word === 'xor')) return { or: index, stop: index };
        else if (endsCondition(word)) return { or: -1, stop: index };
        else if (inCase && keywords.get(word) === 'when') return { or: -1, stop: index };
      }
      index = stop - 1;
    }
  }
  return { or: -1, stop: end };
}

/**
 * Where a group of a condition (or its top level) was opened in the
 * stacks (`group`), and where its current term (between two of its ANDs,
 * ORs, XORs) starts: what a term not read is put back to.
 */
interface TermMark {
  group: number;
  operators: number;
  values: number;
  brackets: number;
  /** Where the term's text starts. */
  at: number;
}

/** The stacks of `readTerms`, kept to go on past a term it did not read. */
interface TermsState {
  values: Value[];
  operators: Operator[];
  marks: TermMark[];
  brackets: number;
  expectOperand: boolean;
}

function readTerms(
  sql: string,
  from: number,
  end: number,
  limit: number,
  origin: number,
  mode: Mode,
  backslash: string,
  terms: TermsState,
): ConditionRead {
  const { values, operators, marks } = terms;
  let expectOperand = terms.expectOperand;
  /** The last operand was a name (`[from, to)`): a `(` after it calls a function. */
  let nameFrom = -1;
  let nameTo = -1;
  /** NOT before LIKE, IN, BETWEEN, REGEXP... */
  let negateNext = false;
  /** What a later reading reads otherwise: SEEN_PIPES (`||`), SEEN_QUOTE (`"`), SEEN_AMPERSANDS (`&&`). */
  let seen = 0;
  /** Open parentheses (groups, calls, IN lists). */
  let brackets = terms.brackets;
  let index = from;
  const fail: ConditionRead = { holds: undefined, stop: 0, seen: 0, failedAt: 0, depth: 0 };
  /** What the word readers below share with this loop (its hot variables stay locals: no closure). */
  const state: ReadState = {
    sql,
    end,
    mode,
    backslash,
    values,
    operators,
    index,
    expectOperand,
    brackets,
  };
  for (;;) {
    while (index < end && isJsSpace(sql.charCodeAt(index))) index++;
    fail.stop = index;
    fail.failedAt = index;
    fail.depth = brackets;
    fail.seen = seen;
    if (index - origin > limit) return { holds: true, stop: index, seen };
    const code = index < end ? sql.charCodeAt(index) : -1;
    const calledFrom = nameFrom;
    const calledTo = nameTo;
    nameFrom = -1;
    if (negateNext && !(code >= 0x41 && code <= 0x7a)) return fail;
    if (code === -1 || (code === 0x29 /* ) */ && brackets === 0)) break;
    if (code === 0x29 /* ) */) {
      index++;
      brackets--;
      if (expectOperand) {
        // Only `f()`: a call without arguments.
        const open = operators.pop();
        let before = index - 1;
        while (before > from && isJsSpace(sql.charCodeAt(before - 1))) before--;
        if (open?.open !== 'call' || sql.charCodeAt(before - 1) !== 0x28) return fail;
        // It reads no column of the row: the same for every row (or random).
        expectOperand = pushed(values, MASKS[CONSTANT]!);
        continue;
      }
      if (!reduce(values, operators, 0, mode)) return fail;
      const open = operators.pop()!;
      const value = values.pop()!;
      if (marks.length > 1 && marks[marks.length - 1]!.group === operators.length + 1) {
        marks.pop();
      }
      if (open.op === '{') return fail;
      if (open.open === 'call') {
        // A function of constants, whichever: it reads no column of the row.
        const same = sameArgument(open, value);
        const called =
          same !== undefined
            ? same
            : open.varies || varies(value)
              ? expression(calledWith(open, value))
              : MASKS[CONSTANT]!;
        const twin = same === undefined && 'mask' in called ? twinOf(open) : undefined;
        expectOperand = pushed(
          values,
          twin === undefined
            ? called
            : outcomes(VARIES, false, (called as Outcomes).name, undefined, twin),
        );
      } else if (open.open === 'in') {
        expectOperand = pushed(values, inOutcome(open, value));
      } else if (open.open === 'group') {
        if (open.items !== undefined || open.long) {
          expectOperand = pushed(values, listOf(open, value, 'row'));
        } else {
          // A comparison in parentheses is not chained with what follows.
          expectOperand = pushed(values, unchained(value));
        }
      } else if (open.open === 'any' || open.open === 'all') {
        expectOperand = pushed(
          values,
          'list' in value && value.kind === 'array'
            ? { list: value.list, kind: open.open, varies: value.varies }
            : { list: undefined, kind: open.open, varies: varies(value) },
        );
      } else return fail;
      continue;
    }
    if (code === 0x7b /* { */) {
      // An ODBC escape, which the driver rewrites before the database reads
      // the text: `{fn f(…)}`, `{oj …}`, `{interval …}` are what they hold,
      // `{d '…'}`, `{t '…'}`, `{ts '…'}`, `{guid '…'}` some constant, and
      // `{escape '…'}` a LIKE's ESCAPE.
      nextWord.lastIndex = index + 1;
      const match = nextWord.exec(sql);
      const word = match && nextWord.lastIndex <= end ? match[1]!.toLowerCase() : '';
      if (word === 'fn' || word === 'oj' || word === 'interval') {
        if (!expectOperand) return fail;
        if (!waits(operators, frameOf('{', 'group'))) return deepAt(index, seen);
        brackets++;
        index = word === 'interval' ? nextWord.lastIndex - word.length : nextWord.lastIndex;
        continue;
      }
      const escapeWord = word === 'escape';
      if (!(escapeWord || word === 'd' || word === 't' || word === 'ts' || word === 'guid')) {
        return fail;
      }
      const quote = skipBlanks(sql, nextWord.lastIndex, end);
      if (sql.charCodeAt(quote) !== 0x27) return fail;
      const close = quoteEnd(sql, quote, end, backslash.includes("'"));
      const brace = close === -1 ? -1 : skipBlanks(sql, close + 1, end);
      if (brace === -1 || sql.charCodeAt(brace) !== 0x7d) return fail;
      if (escapeWord) {
        state.expectOperand = expectOperand;
        if (!escapeAfter(state)) return fail;
      } else if (!expectOperand) return fail;
      index = brace + 1;
      // `{escape '!'}`: the escape character, as `ESCAPE '!'` reads it.
      expectOperand = pushed(
        values,
        escapeWord ? stringValue(sql, quote, close, backslash.includes("'")) : MASKS[CONSTANT]!,
      );
      continue;
    }
    if (code === 0x7d /* } */) {
      // The end of an ODBC escape.
      index++;
      if (expectOperand || !reduce(values, operators, 0, mode)) return fail;
      const open = operators.pop();
      if (open?.op !== '{' || open.items !== undefined) return fail;
      brackets--;
      expectOperand = pushed(values, unchained(values.pop()!));
      continue;
    }
    if (code === 0x5d /* ] */) {
      // The end of an ARRAY[…].
      index++;
      let empty = false;
      if (expectOperand) {
        let before = index - 1;
        while (before > from && isJsSpace(sql.charCodeAt(before - 1))) before--;
        empty = sql.charCodeAt(before - 1) === 0x5b;
      } else if (!reduce(values, operators, 0, mode)) return fail;
      const open = operators.pop();
      if (open?.open !== 'array' || (expectOperand && !empty)) return fail;
      expectOperand = pushed(
        values,
        empty ? { list: [], kind: 'array', varies: false } : listOf(open, values.pop()!, 'array'),
      );
      continue;
    }
    if (code === 0x28 /* ( */) {
      index++;
      const exists =
        calledTo - calledFrom === 6 && sql.slice(calledFrom, calledTo).toLowerCase() === 'exists';
      if (
        exists
          ? queryAt(sql, index, end)
          : subqueryAt(sql, index, end) || compoundQueryAt(sql, index, end, backslash)
      ) {
        // A subquery (or EXISTS of one): of a table, its value depends on the
        // data, as a column's does; without one (`EXISTS (SELECT 1)`) some constant.
        if (!expectOperand && calledFrom === -1) return fail;
        if (calledFrom !== -1) values.pop();
        // A scalar one's set operations are read branch by branch too (round
        // 34: its first branch's WHERE was read across them, and a row limit
        // of zero not at all).
        const item = exists ? undefined : outerItemAt(sql, index, end, backslash);
        const bare = exists || item !== undefined ? -1 : bareItemEnd(sql, index, end, backslash);
        if (bare !== -1) {
          // `(SELECT id)`: the name as it is read here (round 35: some constant).
          index = bare.close;
          expectOperand = pushed(values, bare.value);
          continue;
        }
        const close = subqueryEnd(sql, index, end, backslash, exists, item, false, !exists);
        if (close === -1) return fail;
        const column =
          subquerySelectsOuter && (scalarAsColumn || !subqueryOuterFromTable)
            ? (item ?? subqueryOuterItem)
            : undefined;
        // Of a table, the column only for some contents of it (fail closed, with its reason).
        if (column !== undefined && subqueryOuterFromTable && subqueryNesting === 0) {
          scalarOwnColumn = true;
        }
        const opened = index - 1;
        index = close;
        // A scalar subquery that finds no row is NULL.
        const rows = !exists && subqueryRows === FALSE ? NULL : subqueryRows;
        if (rows === NULL) readNull = true;
        // One that varies is named by its text, as an expression of the row is (round 35):
        // `EXISTS (…) OR NOT EXISTS (…)` of one subquery holds, as `x OR NOT x` does.
        expectOperand = pushed(
          values,
          column !== undefined
            ? outcomes(VARIES, false, column.name)
            : subqueryWhereValue !== undefined
              ? subqueryWhereValue
              : rows === VARIES
                ? subqueryName(sql, exists, opened, close, backslash)
                : rows === CONSTANT
                  ? constantQuery(subqueryName(sql, exists, opened, close, backslash))
                  : MASKS[rows]!,
        );
        continue;
      }
      if (calledFrom !== -1) {
        // A function call: a constant when its arguments are; `ROW(…)` a row.
        values.pop();
        const name =
          calledTo - calledFrom <= 40 ? sql.slice(calledFrom, calledTo).toLowerCase() : '';
        const frame =
          name === 'row' ? frameOf('(', 'group', []) : frameOf('(', 'call', undefined, name);
        if (!waits(operators, frame)) return deepAt(index, seen);
      } else if (expectOperand) {
        if (!waits(operators, GROUP)) return deepAt(index, seen);
        marks.push({
          group: operators.length,
          operators: operators.length,
          values: values.length,
          brackets: brackets + 1,
          at: index,
        });
      } else return fail;
      brackets++;
      expectOperand = true;
      continue;
    }
    if (code === 0x2c /* , */) {
      index++;
      if (expectOperand || !reduce(values, operators, 0, mode)) return fail;
      const open = operators[operators.length - 1];
      const argument = values.pop()!;
      if (open?.open === 'call') {
        if (varies(argument)) open.varies = true;
        calledWith(open, argument);
        sameArgument(open, argument);
      } else if (open?.open === 'group' || open?.open === 'array') {
        // A row's or an array's element (a plain group becomes a row).
        let frame = open;
        if (frame === GROUP) {
          frame = frameOf('(', 'group', []);
          operators[operators.length - 1] = frame;
        }
        addItem(frame, argument);
      } else if (open?.open === 'in') {
        if (open.outcome !== VARIES) {
          open.outcome = OR[open.outcome * 16 + compare(open.subject!, '=', argument)]!;
        }
        listedConstant(open, argument);
      } else return fail;
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
      if (code === 0x5b && operators[operators.length - 1]?.open === 'array') {
        // ARRAY[[1, 2], [3, 4]]: an array of arrays.
        index++;
        if (!waits(operators, frameOf('[', 'array', []))) {
          return deepAt(index, seen);
        }
        continue;
      }
      if (code === 0x22) seen |= SEEN_QUOTE;
      // A string ('' inside is a quote), or a quoted name: a column.
      const escapes = backslash.includes(String.fromCharCode(code));
      const close = quoteEnd(sql, index, end, escapes);
      if (close === -1) return fail;
      if (code === 0x27 || (code === 0x22 && mode.quotedString)) {
        expectOperand = pushed(values, stringValue(sql, index, close, escapes));
      } else if (sql.charCodeAt(skipBlanks(sql, close + 1, end)) === 0x2e /* . */) {
        // A qualified name with a quoted part (`"t".id`, `[t].[id]`): a column, named as `t.id` is.
        const stop = qualifiedNameEnd(sql, index, end);
        if (stop === -1) return fail;
        const name =
          stop - index <= maxNameLength ? targetColumnName(nameOf(sql, index, stop)) : undefined;
        expectOperand = pushed(
          values,
          name === undefined ? MASKS[VARIES]! : outcomes(VARIES, false, name),
        );
        index = stop;
        continue;
      } else {
        const name =
          close - index <= maxNameLength ? sql.slice(index + 1, close).toLowerCase() : undefined;
        expectOperand = pushed(
          values,
          name === undefined ? MASKS[VARIES]! : outcomes(VARIES, false, name),
        );
        // A quoted function name: `"abs"(1)`.
        nameFrom = index + 1;
        nameTo = close;
      }
      index = close + 1;
      continue;
    }
    if (code === 0x3f /* ? */ || code === 0x40 /* @ */ || code === 0x24 /* $ */) {
      // A parameter or a variable: chosen per call, not a constant of the text.
      if (!expectOperand) return fail;
      // `$$…$$` is a string where PostgreSQL may be the database (its reading of strings as booleans).
      const close = code === 0x24 && mode.truth !== 'number' ? dollarQuoteEnd(sql, index, end) : -1;
      if (close !== -1) {
        // PostgreSQL's `$$…$$`, `$tag$…$tag$`: a string, as `'…'` is.
        expectOperand = pushed(values, { str: sql.slice(close[0], close[1]) });
        index = close[2];
        continue;
      }
      index++;
      while (index < end && (isWordCode(sql.charCodeAt(index)) || sql.charCodeAt(index) === 0x40)) {
        index++;
      }
      expectOperand = pushed(values, MASKS[VARIES]!);
      continue;
    }
    const numeric =
      isDigitCode(code) || (code === 0x2e /* . */ && isDigitCode(sql.charCodeAt(index + 1)));
    if (numeric || isWordCode(code)) {
      let stop = index;
      let signedExponent = false;
      /** The value of a run of plain digits (at most 15), else -1. */
      let digits = numeric ? 0 : -1;
      while (stop < end) {
        const unit = sql.charCodeAt(stop);
        if (!(isWordCode(unit) || unit === 0x2e)) break;
        if (digits !== -1)
          digits = isDigitCode(unit) && stop - index < 15 ? digits * 10 + unit - 0x30 : -1;
        stop++;
        // An exponent's sign: `1e-3`.
        const sign = sql.charCodeAt(stop);
        if (
          numeric &&
          !signedExponent &&
          (unit | 0x20) === 0x65 &&
          (sign === 0x2b || sign === 0x2d)
        ) {
          stop++;
          signedExponent = true;
          digits = -1;
        }
      }
      if (numeric) {
        if (!expectOperand) return fail;
        if (digits !== -1) {
          expectOperand = pushed(
            values,
            digits < SMALL_NUMBERS.length ? SMALL_NUMBERS[digits]! : { num: digits },
          );
          index = stop;
          continue;
        }
        const word = sql.slice(index, stop);
        index = stop;
        const number = exactNumber(word);
        const big = number === undefined ? exactDecimal(word) : undefined;
        if (number !== undefined) expectOperand = pushed(values, { num: number });
        else if (big !== undefined) expectOperand = pushed(values, { num: Number(word), big });
        // A long numeral, hex or bits: some constant; MySQL names may start with digits (`1abc`).
        else
          expectOperand = pushed(
            values,
            MASKS[numeral.test(word) || radixNumeral.test(word) ? CONSTANT : VARIES]!,
          );
        continue;
      }
      const wordFrom = index;
      // A quoted part after a qualifier (`t."id"`, `` t.`id` ``, `dbo.[t].id`) or blanks
      // around a dot (`t . id`): one name, as `"t"."id"` and `t.id` are (round 34b: the
      // word ended at the quote or blank, and the term was not read).
      const quotedPart =
        (sql.charCodeAt(stop - 1) === 0x2e && !isWordCode(sql.charCodeAt(stop))) ||
        (isJsSpace(sql.charCodeAt(stop)) && sql.charCodeAt(skipBlanks(sql, stop, end)) === 0x2e);
      if (quotedPart) {
        stop = qualifiedNameEnd(sql, wordFrom, end);
        if (stop === -1) return fail;
      }
      index = stop;
      const lower = stop - wordFrom <= 18 ? sql.slice(wordFrom, stop).toLowerCase() : '';
      const kind = keywords.get(lower);
      if (negateNext || (kind === 'compare' && !expectOperand)) {
        // `[NOT] LIKE | IN | BETWEEN | ...` after an operand.
        const negated = negateNext;
        negateNext = false;
        if (kind !== 'compare') return fail;
        state.index = index;
        state.expectOperand = expectOperand;
        state.brackets = brackets;
        const read = readComparisonWord(state, lower, negated);
        index = state.index;
        expectOperand = state.expectOperand;
        brackets = state.brackets;
        if (read !== true) return read ? deepAt(index, seen) : fail;
        continue;
      }
      if (kind === 'clause') {
        if (brackets > 0 && !expectOperand && setOperationWords.has(lower)) {
          // After an operand in parentheses, these are a query not read as
          // one (`(((A) UNION (B)) UNION (C))`, `compoundQueryAt`): fail closed.
          setOperationUnread = true;
        }
        index = wordFrom;
        break;
      }
      if (kind === 'statement') return fail;
      if (kind === 'binary') {
        if (expectOperand) return fail;
        if (lower === 'and') {
          if (!reduce(values, operators, COMPARISON + 1, mode)) return fail;
          const top = operators[operators.length - 1];
          if (top?.op === 'between' && top.stage === 1) {
            // BETWEEN's own AND.
            top.stage = 2;
            expectOperand = true;
            continue;
          }
        }
        const operator = binaryOperators.get(lower)!;
        if (!reduce(values, operators, operator.precedence, mode)) return fail;
        if (lower === 'or' && operators.length === 0 && truth(values[0]!, mode) & TRUE) {
          // Whatever is ORed on, it holds.
          return { holds: true, stop: index, seen };
        }
        operators.push(operator);
        markTerm(marks, operators, values, index);
        expectOperand = true;
        continue;
      }
      if (kind === 'not') {
        if (!expectOperand) {
          negateNext = true;
          continue;
        }
        if (!waits(operators, NOT)) return deepAt(index, seen);
        continue;
      }
      if (kind === 'escape') {
        state.expectOperand = expectOperand;
        if (!escapeAfter(state)) return fail;
        expectOperand = true;
        continue;
      }
      if (kind === 'symmetric') {
        const top = operators[operators.length - 1];
        if (!expectOperand || top?.op !== 'between' || top.stage !== 1) return fail;
        if (lower === 'symmetric') top.escaped = true;
        continue;
      }
      // SQL Server's and MySQL's `ISNULL(…)` where an operand is expected: a call (round 36).
      if (
        kind === 'isnull' &&
        !(
          expectOperand &&
          lower === 'isnull' &&
          sql.charCodeAt(skipBlanks(sql, index, end)) === 0x28
        )
      ) {
        if (expectOperand || !reduce(values, operators, COMPARISON, mode)) return fail;
        expectOperand = pushed(values, isTest(values.pop()!, 'null', lower === 'notnull', mode));
        continue;
      }
      if (kind === 'case') {
        if (!expectOperand) return fail;
        if (!waits(operators, frameOf('case', 'case'))) return deepAt(index, seen);
        // A term not read in the CASE (its value, a WHEN's condition, a
        // branch) is what lies up to its next WHEN, THEN, ELSE or END.
        marks.push({
          group: operators.length,
          operators: operators.length,
          values: values.length,
          brackets,
          at: index,
        });
        continue;
      }
      if (kind === 'when') {
        state.expectOperand = expectOperand;
        if (!caseWord(state, lower)) return fail;
        expectOperand = state.expectOperand;
        const mark = marks[marks.length - 1]!;
        if (lower === 'end') {
          if (marks.length > 1 && mark.group === operators.length + 1) marks.pop();
        } else if (mark.group === operators.length) {
          mark.operators = operators.length;
          mark.values = values.length;
          mark.at = index;
        }
        continue;
      }
      if (kind === 'literal') {
        if (!expectOperand) return fail;
        if (lower !== 'true' && lower !== 'false') readNull = true;
        expectOperand = pushed(
          values,
          MASKS[lower === 'true' ? TRUE : lower === 'false' ? FALSE : NULL]!,
        );
        continue;
      }
      if (kind === 'is') {
        if (expectOperand || !reduce(values, operators, COMPARISON, mode)) return fail;
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
        } else expectOperand = pushed(values, isTest(values.pop()!, what, negated, mode));
        continue;
      }
      if (!expectOperand) {
        // After an operand: `COLLATE name`, a cast's `AS type` (`USING
        // charset`), an interval's unit (`INTERVAL 1 DAY`).
        const after = afterOperandWord(state, kind, lower, index);
        if (after === -1) return fail;
        index = after;
        continue;
      }
      const open = kind === undefined ? -1 : skipBlanks(sql, index, end);
      if (kind === 'quantifier' && sql.charCodeAt(open) === 0x28 /* ( */) {
        // `x op ANY | SOME | ALL (ARRAY[…] | subquery | value)`.
        const quantifier = lower === 'all' ? 'all' : 'any';
        index = open + 1;
        if (queryAt(sql, index, end)) {
          // `x = ANY (…)` is `x IN (…)`, `x <> ALL (…)` `x NOT IN (…)` (round 35: `t.id =
          // ANY (SELECT t.id FROM s)` ran where the IN is blocked), read so where it finds a row.
          const top = operators[operators.length - 1];
          const inForm =
            top !== undefined &&
            top.open === '' &&
            !top.prefix &&
            (quantifier === 'any'
              ? top.op === '=' || top.op === '=='
              : top.op === '<>' || top.op === '!=');
          const subject = inForm ? values[values.length - 1] : undefined;
          // Of one row, the outer column (`id >= ALL (SELECT t.id)`): compared with it (round 36: it ran).
          const one = inForm ? -1 : oneRowColumnEnd(sql, index, end, backslash);
          if (one !== -1) {
            index = one.close;
            expectOperand = pushed(values, one.value);
            continue;
          }
          // Read as a set of rows: one that finds none for any row is an empty list.
          const close = subqueryEnd(sql, index, end, backslash, false, subject, true);
          if (close === -1) return fail;
          index = close;
          if (subject !== undefined && subqueryRows !== FALSE) {
            operators.pop();
            values.pop();
            const mask = quantifier === 'all' ? negate(subqueryRows) : subqueryRows;
            expectOperand = pushed(values, comparedOutcome(mask, isChained(subject), subject));
            continue;
          }
          expectOperand = pushed(values, {
            list: subqueryRows === FALSE ? [] : undefined,
            kind: quantifier,
            varies: (subqueryRows & VARIES) !== 0,
          });
          continue;
        }
        if (!waits(operators, frameOf('(', quantifier))) {
          return deepAt(index, seen);
        }
        brackets++;
        continue;
      }
      if (kind === 'array' && sql.charCodeAt(open) === 0x5b /* [ */) {
        index = open + 1;
        if (!waits(operators, frameOf('[', 'array', []))) {
          return deepAt(index, seen);
        }
        continue;
      }
      if (kind === 'interval' && intervalOperandAt(sql, open, end)) {
        // `INTERVAL '1 day'`, `INTERVAL 1 DAY`: some constant of its operand.
        if (!waits(operators, INTERVAL)) return deepAt(index, seen);
        continue;
      }
      if (
        sql.charCodeAt(index) === 0x27 ||
        (isJsSpace(sql.charCodeAt(index)) && sql.charCodeAt(skipBlanks(sql, index, end)) === 0x27)
      ) {
        // A prefixed string (N'', E'', _utf8'', X'', B'') or a typed literal (DATE '...').
        const quote = skipBlanks(sql, index, end);
        const glued = quote === index;
        const escapes = (glued && lower === 'e') || backslash.includes("'");
        const close = quoteEnd(sql, quote, end, escapes);
        if (close === -1) return fail;
        expectOperand = pushed(
          values,
          glued && (lower === 'n' || lower === 'e' || (lower.startsWith('_') && lower.length > 1))
            ? stringValue(sql, quote, close, escapes)
            : MASKS[CONSTANT]!,
        );
        index = close + 1;
        continue;
      }
      // A column, a niladic function (CURRENT_DATE), a function's name (a `(`
      // follows), or SQL Server's `CONVERT(type, value)` type.
      const call = operators[operators.length - 1];
      const constant =
        kind === 'niladic' ||
        (call?.open === 'call' &&
          (call.name === 'convert' || call.name === 'try_convert') &&
          convertTypes.has(lower));
      // A column is named (`u.id` as written, in lower case), so that conditions on it are followed.
      const name =
        constant || stop - wordFrom > maxNameLength
          ? undefined
          : targetColumnName(
              quotedPart
                ? nameOf(sql, wordFrom, stop)
                : lower !== ''
                  ? lower
                  : sql.slice(wordFrom, stop).toLowerCase(),
            );
      expectOperand = pushed(
        values,
        name === undefined ? MASKS[constant ? CONSTANT : VARIES]! : outcomes(VARIES, false, name),
      );
      nameFrom = wordFrom;
      nameTo = stop;
      continue;
    }
    const op = operatorAt(sql, index, end);
    if (op === undefined) return fail;
    index += op.length;
    if (op === '::') {
      // A cast: some constant of the type (or still a column).
      if (expectOperand) return fail;
      while (index < end && isJsSpace(sql.charCodeAt(index))) index++;
      const start = index;
      while (index < end && isWordCode(sql.charCodeAt(index))) index++;
      if (index === start) return fail;
      // `::varchar(10)`, `::int[]`, `::double precision`, `::timestamp with time zone`.
      for (castTail.lastIndex = index; castTail.test(sql) && castTail.lastIndex <= end; ) {
        index = castTail.lastIndex;
      }
      const value = values.pop()!;
      const cast = varies(value)
        ? expressionOf('::', value, { str: sql.slice(start, index).toLowerCase() })
        : MASKS[CONSTANT]!;
      const twin = 'mask' in value && varies(value) ? castTwin(value) : undefined;
      values.push(
        twin === undefined
          ? cast
          : outcomes(VARIES, false, (cast as Outcomes).name, undefined, twin),
      );
      continue;
    }
    if (expectOperand) {
      const prefix = op === '!' ? BANG : prefixOperators.get(op);
      if (!prefix) return fail;
      if (!waits(operators, prefix)) return deepAt(index, seen);
      continue;
    }
    let operator = binaryOperators.get(op);
    if (op === '||') {
      seen |= SEEN_PIPES;
      operator = mode.pipesOr ? PIPES_OR : PIPES_CONCAT;
    } else if (op === '&&') {
      seen |= SEEN_AMPERSANDS;
      // PostgreSQL's array overlap (`tags && ARRAY['a']`): its term varies by row.
      fail.seen = seen;
      if (!mode.ampersandsAnd) return fail;
    }
    if (!operator || !reduce(values, operators, operator.precedence, mode)) return fail;
    if (operator === PIPES_OR && operators.length === 0 && truth(values[0]!, mode) & TRUE) {
      return { holds: true, stop: index, seen };
    }
    operators.push(operator);
    markTerm(marks, operators, values, index);
    expectOperand = true;
  }
  if (
    expectOperand ||
    negateNext ||
    !reduce(values, operators, 0, mode) ||
    operators.length > 0 ||
    values.length !== 1
  ) {
    return { holds: undefined, stop: index, seen };
  }
  const mask = truth(values[0]!, mode);
  return { holds: (mask & TRUE) !== 0, stop: index, seen, mask, value: values[0] };
}

/**
 * After an AND, OR or XOR was pushed: when it is its group's own (no call,
 * IN list or CASE open above the group), the group's next term starts here.
 */
function markTerm(marks: TermMark[], operators: Operator[], values: Value[], at: number) {
  const mark = marks[marks.length - 1]!;
  if (operators[operators.length - 1]!.precedence > 3) return;
  // Above the group's frame: AND, XOR, OR at most (a reduce applied the rest).
  for (let i = operators.length - 1; i >= mark.group; i--) if (operators[i]!.open) return;
  mark.operators = operators.length;
  mark.values = values.length;
  mark.at = at;
}

const isNameQuote = (code: number) => code === 0x22 || code === 0x60 || code === 0x5b;

/**
 * Where the qualified name at `from` ends (its parts words or quoted
 * names joined by `.`: `"t".id`, `` `t`.`id` ``, `[s].[t].[id]`; blanks
 * around a dot before a part that starts as a name does: `t . id`), or -1.
 */
function qualifiedNameEnd(sql: string, from: number, end: number): number {
  let at = from;
  for (;;) {
    const code = sql.charCodeAt(at);
    if (isNameQuote(code)) {
      const close = quoteEnd(sql, at, end, false);
      if (close === -1) return -1;
      at = close + 1;
    } else {
      const start = at;
      while (at < end && isWordCode(sql.charCodeAt(at))) at++;
      if (at === start) return -1;
    }
    if (at < end && sql.charCodeAt(at) === 0x2e /* . */ && !isJsSpace(sql.charCodeAt(at + 1))) {
      at++;
      continue;
    }
    const dot = skipBlanks(sql, at, end);
    if (dot >= end || sql.charCodeAt(dot) !== 0x2e) return at;
    const next = skipBlanks(sql, dot + 1, end);
    if (next >= end || !startsName(sql.charCodeAt(next))) return at;
    at = next;
  }
}

/** A name's part may start with `code`: a letter, `_` or a name's quote (not a digit: `x . 5`). */
const startsName = (code: number) =>
  isNameQuote(code) || code === 0x5f || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);

/** The qualified name in `[from, to)` as an unquoted one is named: its parts, unquoted, in lower case, without blanks. */
function nameOf(sql: string, from: number, to: number): string {
  let name = '';
  /** Where the run of plain characters not yet added starts (sliced whole, not added one by one). */
  let run = from;
  for (let at = from; at < to; at++) {
    const code = sql.charCodeAt(at);
    if (isNameQuote(code)) {
      const close = quoteEnd(sql, at, to, false);
      name += sql.slice(run, at) + sql.slice(at + 1, close);
      at = close;
      run = close + 1;
    } else if (isJsSpace(code)) {
      name += sql.slice(run, at);
      run = at + 1;
    }
  }
  return (name + sql.slice(run, to)).toLowerCase();
}

/** What `readCondition`'s word readers share with its loop. */
interface ReadState {
  sql: string;
  end: number;
  mode: Mode;
  backslash: string;
  values: Value[];
  operators: Operator[];
  index: number;
  expectOperand: boolean;
  brackets: number;
}

/**
 * `ESCAPE` after a LIKE's or SIMILAR TO's pattern: the escape is one more
 * operand. False when out of place.
 */
function escapeAfter(state: ReadState): boolean {
  const { values, operators } = state;
  if (state.expectOperand || !reduce(values, operators, COMPARISON + 1, state.mode)) return false;
  const top = operators[operators.length - 1];
  if ((top?.op !== 'like' && top?.op !== 'match') || top.escaped) return false;
  top.escaped = true;
  return true;
}

/** A value in parentheses: a comparison there is not chained with what follows. */
function unchained(value: Value): Value {
  if (!('mask' in value) || !value.compared) return value;
  return value.lits ? outcomes(value.mask, false, undefined, value.lits) : MASKS[value.mask]!;
}

/** Pushes `value`; the next token is an operator: `expectOperand = pushed(values, value)`. */
function pushed(values: Value[], value: Value): false {
  values.push(value);
  return false;
}

/** What may follow a cast's type name: a length, `[]`, the rest of a type of several words. */
const castTail =
  /\s*(?:\(\s*\d+\s*(?:,\s*\d+\s*)?\)|\[\s*\d*\s*\]|(?:precision|varying)\b|with(?:out)?\s+time\s+zone\b)/iy;

/**
 * Whether an INTERVAL's operand starts at `at` (a string, a number, a
 * parameter, a parenthesis, a sign, a word that is no operator): else
 * `interval` is a column's name (`WHERE interval = 5`).
 */
function intervalOperandAt(sql: string, at: number, end: number): boolean {
  if (at >= end) return false;
  const code = sql.charCodeAt(at);
  if (code === 0x27 || code === 0x28 || code === 0x2b || code === 0x2d || code === 0x3f)
    return true;
  if (code === 0x24 || code === 0x40 || isDigitCode(code)) return true;
  if (!isWordCode(code)) return false;
  nextWord.lastIndex = at;
  const word = nextWord.exec(sql)?.[1]?.toLowerCase();
  const kind = word === undefined ? undefined : keywords.get(word);
  return kind === undefined || kind === 'niladic' || kind === 'literal';
}

/**
 * A word after an operand that is not an operator: `COLLATE name`, a
 * cast's `AS type` or `USING charset` (read to the call's `)`), an
 * interval's unit (`DAY`, `YEAR TO MONTH`). Where the reading goes on, or
 * -1 (not read).
 */
function afterOperandWord(
  state: ReadState,
  kind: string | undefined,
  word: string,
  at: number,
): number {
  const { sql, end, values, operators, mode } = state;
  if (kind === 'collate') {
    // A collation changes how strings compare; `compare` already lets case and accents go either way.
    let index = skipBlanks(sql, at, end);
    const code = sql.charCodeAt(index);
    if (code === 0x22 || code === 0x60 || code === 0x5b) {
      const close = quoteEnd(sql, index, end, false);
      return close === -1 ? -1 : close + 1;
    }
    const start = index;
    while (index < end && (isWordCode(sql.charCodeAt(index)) || sql.charCodeAt(index) === 0x2e)) {
      index++;
    }
    return index === start ? -1 : index;
  }
  if (kind === 'as') {
    // CAST(x AS type), CONVERT(x USING utf8mb4): the type runs to the call's `)`.
    if (!reduce(values, operators, 0, mode)) return -1;
    const call = operators[operators.length - 1];
    if (call?.open !== 'call') return -1;
    const close = callEnd(sql, at, end, state.backslash);
    if (close === -1) return -1;
    // The type is part of what the call is (`CAST(id AS int)`).
    calledWith(call, { str: sql.slice(at, close).replace(/\s+/g, '').toLowerCase() });
    return close;
  }
  if (!intervalUnits.has(word)) return -1;
  // The operators of the interval's expression apply first (`INTERVAL 1 + 1 DAY`).
  if (!reduce(values, operators, INTERVAL.precedence + 0.1, mode)) return -1;
  if (operators[operators.length - 1] !== INTERVAL) return -1;
  operators.pop();
  if (!apply(values, INTERVAL, mode) || values.length === 0) return -1;
  // `YEAR TO MONTH`.
  nextWord.lastIndex = at;
  const to = nextWord.exec(sql);
  if (to?.[1]?.toLowerCase() === 'to' && nextWord.lastIndex <= end) {
    const unit = nextWord.exec(sql);
    if (unit && intervalUnits.has(unit[1]!.toLowerCase()) && nextWord.lastIndex <= end) {
      return nextWord.lastIndex;
    }
  }
  return at;
}

/** Keeps an element of a row or array (up to `maxListLength`; past it, whether one varies). */
function addItem(frame: Operator, value: Value): void {
  if (varies(value)) frame.varies = true;
  if (frame.long) return;
  frame.items ??= [];
  if (frame.items.length < maxListLength) frame.items.push(value);
  else {
    frame.items = undefined;
    frame.long = true;
  }
}

/** The row or array a frame collected, `last` its last element. */
function listOf(frame: Operator, last: Value, kind: 'row' | 'array'): List {
  addItem(frame, last);
  return { list: frame.long ? undefined : frame.items, kind, varies: frame.varies };
}

/** Pushes an open frame or a prefix operator: whether the stack is still within the depth. */
function waits(operators: Operator[], operator: Operator): boolean {
  operators.push(operator);
  return operators.length <= maxConditionDepth;
}

function deepAt(index: number, seen: number) {
  return { holds: true, stop: index, seen, limit: 'nesting' as const };
}

function skipBlanks(sql: string, at: number, end: number): number {
  let next = at;
  while (next < end && isJsSpace(sql.charCodeAt(next))) next++;
  return next;
}

/** `VALUES (` at the start of an IN's parentheses, to its `(`. */
const valuesRows = /\s*values\s*\(/iy;

/**
 * `[NOT] LIKE | ILIKE | IN | BETWEEN | REGEXP | RLIKE | GLOB | MATCH |
 * SIMILAR TO | SOUNDS LIKE`, after an operand: false when it is not read,
 * `deep` past the depth.
 */
function readComparisonWord(state: ReadState, word: string, negated: boolean): boolean | 'deep' {
  const { sql, end, values, operators } = state;
  if (state.expectOperand || !reduce(values, operators, COMPARISON, state.mode)) return false;
  if (word === 'similar' || word === 'sounds') {
    nextWord.lastIndex = state.index;
    const after = nextWord.exec(sql)?.[1]?.toLowerCase();
    if (after !== (word === 'similar' ? 'to' : 'like') || nextWord.lastIndex > end) return false;
    state.index = nextWord.lastIndex;
  }
  if (word === 'in') {
    const open = skipBlanks(sql, state.index, end);
    if (sql.charCodeAt(open) !== 0x28) return false;
    state.index = open + 1;
    const subject = values.pop()!;
    const bare = bareItemEnd(sql, state.index, end, state.backslash);
    if (bare !== -1) {
      // `id IN (SELECT id)`: `id IN (id)`.
      state.index = bare.close;
      const mask = compare(subject, '=', bare.value);
      state.expectOperand = pushed(
        values,
        comparedOutcome(negated ? negate(mask) : mask, isChained(subject), subject),
      );
      return true;
    }
    // `id IN (VALUES (id), (5))`: its rows, a list of them (round 36: read as some table, it ran).
    valuesRows.lastIndex = state.index;
    if (valuesRows.test(sql) && valuesRows.lastIndex <= end) state.index = valuesRows.lastIndex - 1;
    else if (queryAt(sql, state.index, end)) {
      // `t.id IN (SELECT t.id FROM u …)`: whether u has a row (EXISTS), the
      // same for every row; of a UNION, the OR of its branches.
      const close = subqueryEnd(sql, state.index, end, state.backslash, false, subject);
      if (close === -1) return false;
      state.index = close;
      // NOT IN: what the subquery gives, negated (it may be true for every row and not false).
      state.expectOperand = pushed(
        values,
        COMPARED[negated ? negate(subqueryRows) : subqueryRows]!,
      );
      return true;
    }
    state.brackets++;
    state.expectOperand = true;
    return waits(operators, new Operator('in', 0, { open: 'in', subject, outcome: FALSE, negated }))
      ? true
      : 'deep';
  }
  const op =
    word === 'like' || word === 'ilike' ? 'like' : word === 'between' ? 'between' : 'match';
  operators.push(
    new Operator(op, COMPARISON, { negated, insensitive: word === 'ilike', stage: 1, name: word }),
  );
  state.expectOperand = true;
  return true;
}

/** A select list's start (after a UNION: `ALL` / `DISTINCT` first). */
const selectItem =
  /\s*(?:(?:all|distinct)\s+)?(?:select\s+(?:(?:all|distinct)\s+)?(?:top\s*(?:\(\s*\d+\s*\)|\d+)\s*(?:percent\s+)?(?:with\s+ties\s+)?)?|values\s*(?=\())/iy;
/** `FROM` after the select item, past its alias if any (`AS x`, `x`, `"x"`). */
const fromAfterItem =
  /\s*(?:(?:as\s+)?(?!from\b)(?:[a-z_][\w$]{0,127}|"[^"]{0,128}"|`[^`]{0,128}`|\[[^\]]{0,128}\])\s*)?from\b/iy;

/**
 * Where the select item of the subquery (or UNION branch) at `index` is,
 * when it is the qualified column `subject` names (or, in the statement's
 * own WHERE, that column qualified by the target table: `id IN (SELECT
 * t.id)`, `targetColumnName`), or what equals it
 * wherever it is not NULL (`t.id IN (SELECT t.id FROM u)`, `SELECT
 * DISTINCT (t.id) AS x FROM`, `COALESCE(t.id, 0)`, `CAST(t.id AS int)`,
 * `t.id::int`): `[from, to)` of the name, or undefined. `subqueryEnd` tells whether the branch binds its
 * qualifier; if not, the IN holds for each row where the branch finds one.
 */
function subjectItemAt(
  sql: string,
  index: number,
  end: number,
  subject: Value,
  backslash: string,
  calls = true,
): [number, number] | undefined {
  if (!('mask' in subject) || subject.name === undefined) return undefined;
  const item = selectItemAt(sql, index, end, backslash, calls);
  if (item === undefined) return undefined;
  // Qualified, as the subject is or as its bare name is, qualified by the
  // target table (`id IN (SELECT t.id)`, round 34b); or bare, the outer
  // row's in a branch without a table (`subqueryEnd` tells: else the branch's own).
  const name = nameOf(sql, item[0], item[1]);
  return targetColumnName(name) === subject.name ? item : undefined;
}

/**
 * Where the select item of the branch at `index` is, when it is a name
 * (`[from, to)`), in parentheses or not, and, with `calls`, inside a call
 * that is its value wherever it is not NULL or a cast (`COALESCE(t.id, 0)`,
 * `CAST(t.id AS int)`, `t.id::int`), followed by its alias and `FROM`, or
 * by nothing (the subquery's `)`, a set operation); else undefined.
 */
function selectItemAt(
  sql: string,
  index: number,
  end: number,
  backslash: string,
  calls: boolean,
): [number, number] | undefined {
  selectItem.lastIndex = index;
  if (!selectItem.test(sql) || selectItem.lastIndex > end) return undefined;
  let from = selectItem.lastIndex;
  /** What wraps the column, outermost first: `(` (1), or a call that is the column where it is not NULL (2). */
  const wraps: number[] = [];
  while (wraps.length < 8) {
    if (sql.charCodeAt(from) === 0x28 /* ( */) {
      wraps.push(1);
      from = skipBlanks(sql, from + 1, end);
      continue;
    }
    sameValueCall.lastIndex = from;
    if (!calls || !sameValueCall.test(sql) || sameValueCall.lastIndex > end) break;
    wraps.push(2);
    from = sameValueCall.lastIndex;
  }
  const to = qualifiedNameEnd(sql, from, end);
  if (to === -1 || to - from > maxNameLength) return undefined;
  const casts = (at: number) => (calls ? castsAfter(sql, at, end) : at);
  let after = casts(to);
  for (let wrap = wraps.pop(); wrap !== undefined; wrap = wraps.pop()) {
    after = skipBlanks(sql, after, end);
    if (wrap === 2) {
      // `COALESCE(t.id, …)`, `CAST(t.id AS …)`: what follows the column is read to the call's `)`.
      sameValueRest.lastIndex = after;
      if (!sameValueRest.test(sql)) return undefined;
      after = callEnd(sql, after, end, backslash);
      if (after === -1) return undefined;
    }
    if (sql.charCodeAt(after) !== 0x29 /* ) */) return undefined;
    after = casts(after + 1);
  }
  fromAfterItem.lastIndex = after;
  if (fromAfterItem.test(sql) && fromAfterItem.lastIndex <= end) return [from, to];
  // No FROM and nothing after it (`t.id IN (SELECT t.id)`, a branch before a set operation): the column itself.
  const next = skipBlanks(sql, after, end);
  setOperationAt.lastIndex = next;
  return sql.charCodeAt(next) === 0x29 /* ) */ || setOperationAt.test(sql) ? [from, to] : undefined;
}

/**
 * A subquery `[open, close)` (from its `(`, past its `)`) that varies by
 * row, named by its text (blanks and case aside) and whether EXISTS tests
 * it: one query gives one value for one row (a random one is not: blocked,
 * fail closed, as a function's call is read). Unnamed with a `?`.
 */
function subqueryName(
  sql: string,
  exists: boolean,
  open: number,
  close: number,
  backslash: string,
): Value {
  const hash = textHash(sql, open, close, backslash);
  return hash === -1 ? MASKS[VARIES]! : expression(mixHash(hash, exists ? 1 : 2));
}

/** A subquery the same for every row, named by its text as `ONE_QUERY` (or unnamed, with a `?`). */
function constantQuery(named: Value): Value {
  const { name } = named as Outcomes;
  return name === undefined
    ? MASKS[CONSTANT]!
    : outcomes(CONSTANT, false, undefined, undefined, ONE_QUERY + name);
}

/**
 * A scalar subquery without a FROM whose select item is a bare column
 * (`(SELECT id)`, `(SELECT DISTINCT (id))`, nothing else): the name reads
 * the row around it, as it would written bare there, so it is that
 * column: `WHERE (SELECT id) = 1` is `WHERE id = 1` (round 35: it was some
 * constant, and blocked), `WHERE id = (SELECT id)` is `id = id`. Past its
 * `)` and the column, or -1. A keyword (`NULL`, `CURRENT_DATE`), a numeral
 * or a parameter (`$1`) is none.
 */
function bareItemEnd(
  sql: string,
  index: number,
  end: number,
  backslash: string,
  outer?: Outcomes,
): { close: number; value: Value } | -1 {
  const item = selectItemAt(sql, index, end, backslash, false);
  if (item === undefined) return -1;
  const [from, to] = item;
  const first = sql.charCodeAt(from);
  // `outer`: the item is that outer row's qualified column (`outerItemAt`), alone.
  if (outer === undefined && (isNameQuote(first) || !startsName(first))) return -1;
  if (to - from > maxNameLength) return -1;
  const name = sql.slice(from, to).toLowerCase();
  if (outer === undefined && (name.includes('.') || keywords.has(name))) return -1;
  // Only the parentheses around it, then the subquery's own `)`.
  let at = to;
  for (let opened = 0; ; ) {
    at = skipBlanks(sql, at, end);
    if (sql.charCodeAt(at) !== 0x29 /* ) */) return -1;
    at++;
    // The item's wrapping parentheses are those after `SELECT` before it.
    if (opened === wrapsBefore(sql, index, from)) break;
    opened++;
  }
  return { close: at, value: outer ?? outcomes(VARIES, false, name) };
}

/**
 * A subquery of one row of the outer row's column, without a table:
 * `(SELECT id)`, `(SELECT t.id)`. Past its `)` and the column, or -1.
 */
function oneRowColumnEnd(
  sql: string,
  index: number,
  end: number,
  backslash: string,
): { close: number; value: Value } | -1 {
  const bare = bareItemEnd(sql, index, end, backslash);
  if (bare !== -1) return bare;
  const outer = outerItemAt(sql, index, end, backslash);
  return outer === undefined ? -1 : bareItemEnd(sql, index, end, backslash, outer);
}

/** How many `(` open between the select list's start at `index` and the item at `from`. */
function wrapsBefore(sql: string, index: number, from: number): number {
  let count = 0;
  for (let at = index; at < from; at++) if (sql.charCodeAt(at) === 0x28 /* ( */) count++;
  return count;
}

/**
 * The select item of the scalar subquery at `index` (past its `(`) when it
 * is a qualified column (`(SELECT t.id …)`, `(SELECT DISTINCT ("t"."id")
 * FROM s)`), named as in the condition around it: the outer row's column
 * where the subquery does not bind its qualifier (`subqueryEnd` reads that
 * and whether each branch selects it). A numeral (`1.5`), a bare name, an
 * expression or an alias is none.
 */
function outerItemAt(
  sql: string,
  index: number,
  end: number,
  backslash: string,
  bare = false,
): Outcomes | undefined {
  const item = selectItemAt(sql, index, end, backslash, false);
  if (item === undefined || isDigitCode(sql.charCodeAt(item[0]))) return undefined;
  const written = nameOf(sql, item[0], item[1]);
  const dot = written.lastIndexOf('.');
  // A later branch's bare name (`subqueryEnd` reads it as the outer row's where the branch has no table).
  if (dot === -1) {
    // Without a table: no FROM, or `FROM DUAL`.
    fromAfterItem.lastIndex = item[1];
    let fromless = !fromAfterItem.test(sql);
    if (!fromless) {
      fromDual.lastIndex = fromAfterItem.lastIndex;
      fromless = fromDual.test(sql);
    }
    return bare && fromless && startsName(sql.charCodeAt(item[0])) && !keywords.has(written)
      ? outcomes(VARIES, false, written)
      : undefined;
  }
  const name = targetColumnName(written);
  // Its table is the target (the name made bare) or another outer one: else not the outer row's.
  const table = name.slice(name.lastIndexOf('.', dot - 1) + 1, dot);
  return name === written && !outerNamesOf().has(table) ? undefined : outcomes(VARIES, false, name);
}

/**
 * A call whose value is its first argument wherever that is not NULL
 * (`COALESCE(x, 0)`, `IFNULL`, `NVL`, SQL Server's `ISNULL(x, 0)`, a
 * `CAST(x AS …)`), to its first argument; sticky.
 */
const sameValueCall = /(?:coalesce|ifnull|nvl|isnull|cast)\s*\(\s*/iy;
/** What follows the first argument of such a call: another argument, or a cast's type. */
const sameValueRest = /,|as\b/iy;
/** A PostgreSQL cast (`::int`, `::varchar(10)`), sticky. */
const postfixCast = /\s*::\s*[a-z_][\w$]*/iy;

/** Past the casts (`::type`) at `at`. */
function castsAfter(sql: string, at: number, end: number): number {
  let after = at;
  for (postfixCast.lastIndex = after; postfixCast.test(sql) && postfixCast.lastIndex <= end; ) {
    after = postfixCast.lastIndex;
    for (castTail.lastIndex = after; castTail.test(sql) && castTail.lastIndex <= end; ) {
      after = castTail.lastIndex;
    }
    postfixCast.lastIndex = after;
  }
  return after;
}

/** The `)` that closes the call whose argument list goes on at `at` (quotes and parentheses skipped), or -1. */
function callEnd(sql: string, at: number, end: number, backslash: string): number {
  let depth = 0;
  for (let index = at; index < end; index++) {
    const code = sql.charCodeAt(index);
    if (code === 0x28) depth++;
    else if (code === 0x29 && depth-- === 0) return index;
    else if (opensQuoted(code)) {
      index = quotedEnd(sql, index, end, backslash);
      if (index === -1) return -1;
    }
  }
  return -1;
}

/** CASE's WHEN, THEN, ELSE, END: false when out of place. */
function caseWord(state: ReadState, word: string): boolean {
  const { values, operators, expectOperand } = state;
  if (!expectOperand && !reduce(values, operators, 0, state.mode)) return false;
  const frame = operators[operators.length - 1];
  if (frame?.open !== 'case') return false;
  const stage = frame.stage;
  if (word === 'when') {
    if (stage === 0) {
      if (!expectOperand) frame.subject = values.pop();
    } else if (stage === 2 && !expectOperand) caseBranch(frame, values.pop()!, frame.when);
    else return false;
    frame.stage = 1;
  } else if (word === 'then') {
    if (stage !== 1 || expectOperand) return false;
    const condition = values.pop()!;
    frame.when = frame.subject
      ? compare(frame.subject, '=', condition)
      : truth(condition, state.mode);
    frame.whenNull = frame.subject ? undefined : nullTestOf(condition);
    frame.stage = 2;
  } else if (word === 'else') {
    if (stage !== 2 || expectOperand) return false;
    caseBranch(frame, values.pop()!, frame.when);
    frame.whenNull = undefined;
    frame.stage = 3;
  } else {
    if ((stage !== 2 && stage !== 3) || expectOperand) return false;
    const value = values.pop()!;
    if (stage === 2) {
      caseBranch(frame, value, frame.when);
      frame.whenNull = undefined;
      caseBranch(frame, MASKS[NULL]!, TRUE);
    } else caseBranch(frame, value, TRUE);
    operators.pop();
    const result = caseValue(frame);
    state.expectOperand = pushed(
      values,
      result === MASKS[VARIES] && frame.nullTwinDone && frame.nullTwin
        ? outcomes(VARIES, false, undefined, undefined, `=${frame.nullTwin}`)
        : result,
    );
    return true;
  }
  state.expectOperand = true;
  return true;
}

/** The outcome of `x [NOT] IN (...)` at its `)`, `last` its last element. */
function inOutcome(open: Operator, last: Value): Value {
  const subject = open.subject!;
  let mask = open.outcome;
  if (mask !== VARIES) mask = OR[mask * 16 + compare(subject, '=', last)]!;
  listedConstant(open, last);
  // A column in a list of numbers and strings (round 37: `id IN (1, 2) OR
  // id NOT IN (1, 2)` ran): a literal whose base is the list, by its hash
  // (two lists whose hashes collide are one: blocked, fail closed).
  if (
    mask === VARIES &&
    open.hash !== -1 &&
    !isChained(subject) &&
    'name' in subject &&
    subject.name !== undefined &&
    !subject.lits
  ) {
    return literal(
      subject.name,
      'in',
      { num: open.hash },
      open.negated ? eachOutcome(IDENTITY, negate) : IDENTITY,
    );
  }
  if (open.negated) mask = negate(mask);
  return comparedOutcome(mask, isChained(subject), subject);
}

/** An IN list's hash with one more element, -1 once one is no number or string (NULL, a column, a parameter). */
function listedConstant(open: Operator, item: Value): void {
  if (open.hash === -1) return;
  // A sum: the list's order does not count (`IN (1, 2)`, `NOT IN (2, 1)`).
  open.hash =
    'num' in item || 'str' in item ? (open.hash + mixHash(0x9e3779b9, identityOf(item))) >>> 0 : -1;
}

/** A PostgreSQL dollar quote's tag (`$$`, `$tag$`); sticky. */
export const dollarTag = /\$(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/y;

/**
 * The dollar-quoted string at `at` (`$$…$$`, `$tag$…$tag$`): where its text
 * starts and ends and where the string ends, or -1 when none closes before `end`.
 */
function dollarQuoteEnd(sql: string, at: number, end: number): [number, number, number] | -1 {
  dollarTag.lastIndex = at;
  const tag = dollarTag.exec(sql)?.[0];
  if (tag === undefined) return -1;
  const close = sql.indexOf(tag, at + tag.length);
  if (close === -1 || close + tag.length > end) return -1;
  return [at + tag.length, close, close + tag.length];
}

/** The string between the quotes at `open` and `close`: exact, or some constant when `\` may escape. */
function stringValue(sql: string, open: number, close: number, escapes: boolean): Value {
  const text = sql.slice(open + 1, close);
  // A backslash may escape (MySQL): the value is some constant.
  if (escapes && text.includes('\\')) return MASKS[CONSTANT]!;
  const quote = sql[open]!;
  return { str: text.replaceAll(quote + quote, quote) };
}
