/**
 * Built-in deny rules over tool argument values. Each returns the id and a
 * short description of the first rule a string breaks. All patterns use
 * bounded or unambiguous repetition, so each check is linear in the value.
 */

import { isJsSpace } from '../shared/js-space';
import { PieceJoiner } from '../shared/piece-joiner';
import {
  type ConditionLimit,
  conditionAlwaysHolds,
  conditionFindsNoRow,
  dollarTag,
  maxConditionDepth,
  maxSubqueryNesting,
  mergeMatchesItself,
  mergeOnNamesNoTarget,
  type SqlDialectName,
} from './constant-condition';

/** A rule pack: `sql` (destructive statements), `shell` (destructive commands), `path` (traversal, roots). */
export type ToolArgumentRulePack = 'sql' | 'shell' | 'path';

/** A broken rule: its id (`sql.drop`) and what matched. */
export interface RuleViolation {
  rule: string;
  detail: string;
}

/**
 * How one family of databases reads quotes and comments. The SQL rules read
 * a value once per family and block what any reading shows: a `--` or `/*`
 * inside a string (`SELECT '--'; DROP TABLE users`) or a quoted name
 * (`[--]`, `$$--$$`) starts no comment, and a comment one family alone has
 * (`#`, or `--x` that MySQL reads as minus minus) is blanked in its reading
 * only, so it can hide nothing the other readings show.
 */
interface SqlDialect {
  /**
   * The quotes inside which `\` escapes the next character: `'` and `"` in
   * MySQL, `'` alone with `ANSI_QUOTES` (`"` quotes a name) and in PostgreSQL
   * with `standard_conforming_strings` off, none with `NO_BACKSLASH_ESCAPES`.
   */
  backslash: string;
  /** `\` escapes the next character inside an `E'...'` string (PostgreSQL). */
  escapeStrings: boolean;
  /** `/* ... *\/` comments nest (PostgreSQL, SQL Server): `/* /* *\/ -- *\/ DROP` runs the DROP. */
  nested: boolean;
  /** `--` starts a comment only before white space, a control character or the end (MySQL). */
  dashNeedsSpace: boolean;
  /**
   * The content of `/*! ... *\/` (MySQL, MariaDB) and `/*M! ... *\/`
   * (MariaDB) is run, not a comment, after the version digits that may
   * follow the `!` (`/*!50000DROP TABLE users*\/` runs `DROP TABLE users`).
   */
  bang: boolean;
  /** The database this reading is one of (for a `dialect` option that names one). */
  family: Exclude<SqlDialectName, 'any'>;
  /**
   * Where the reading may change (global): the quotes that open a string or
   * a quoted name (`[` closes with `]`), `/*`, `--`, and `#` (MySQL),
   * `$tag$` (PostgreSQL), `*\/` ending a `/*!` (MySQL).
   */
  special: RegExp;
}

const plain = { backslash: '', escapeStrings: false, nested: false, bang: false };
const mysql = {
  ...plain,
  family: 'mysql' as const,
  bang: true,
  dashNeedsSpace: true,
  special: /['"`/#*-]/g,
};
const postgres = {
  ...plain,
  family: 'postgres' as const,
  nested: true,
  dashNeedsSpace: false,
  special: /['"$/-]/g,
};
const sqlDialects: readonly SqlDialect[] = [
  // Standard SQL, PostgreSQL.
  { ...postgres, escapeStrings: true },
  // MySQL, MariaDB.
  { ...mysql, backslash: `'"` },
  // MySQL with sql_mode NO_BACKSLASH_ESCAPES ('\' is a whole string).
  mysql,
  // MySQL with sql_mode ANSI_QUOTES ("\" is a whole name).
  { ...mysql, backslash: `'` },
  // PostgreSQL with standard_conforming_strings off (every '' an E'').
  { ...postgres, backslash: `'` },
  // SQL Server.
  { ...plain, family: 'mssql', nested: true, dashNeedsSpace: false, special: /['"[/-]/g },
  // SQLite.
  { ...plain, family: 'sqlite', dashNeedsSpace: false, special: /['"`[/-]/g },
];
/**
 * The readings after the first for a value without a backslash: modes
 * that differ only in where `\` escapes (MySQL's default and
 * `ANSI_QUOTES`, PostgreSQL with `standard_conforming_strings` off) read
 * it as another reading of their family does, so `readSql` is not run for
 * them (4 passes over a value with `#`, not 7).
 */
const withoutBackslashModes = sqlDialects.slice(1).filter(dialect => dialect.backslash === '');
/** The readings of each database a `dialect` option names: its own, in its modes. */
const readingsOf = (name: SqlDialect['family']) =>
  sqlDialects.filter(dialect => dialect.family === name);
const dialectReadings: Record<SqlDialect['family'], readonly SqlDialect[]> = {
  postgres: readingsOf('postgres'),
  mysql: readingsOf('mysql'),
  sqlite: readingsOf('sqlite'),
  mssql: readingsOf('mssql'),
};

const isIdentifierCode = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f ||
  code === 0x24;

const isDigitCode = (code: number) => code >= 0x30 && code <= 0x39;

/** Whether the `/*` at `at` opens MariaDB's executable comment `/*M!`. */
const sqlMariaBang = (sql: string, at: number) =>
  (sql.charCodeAt(at + 2) | 0x20) === 0x6d /* m */ && sql.charCodeAt(at + 3) === 0x21; /* ! */

/**
 * Whether the `'` at `at` opens a PostgreSQL escape string (`E'...'`, in
 * which `\'` is a quote): an `E` or `e` that does not end a longer name.
 */
function isEscapeStringPrefix(sql: string, at: number): boolean {
  return (
    at > 0 &&
    (sql.charCodeAt(at - 1) | 0x20) === 0x65 /* e */ &&
    (at < 2 || !isIdentifierCode(sql.charCodeAt(at - 2)))
  );
}

/**
 * Where the nested block comment whose content starts at `from` ends (the
 * index of its last `*\/`), or -1: each `/*` inside opens one more level,
 * as PostgreSQL and SQL Server read them. One pass.
 */
function nestedCommentEnd(sql: string, from: number): number {
  let depth = 1;
  for (let index = from; index < sql.length - 1; index++) {
    const code = sql.charCodeAt(index);
    const next = sql.charCodeAt(index + 1);
    if (code === 0x2f /* / */ && next === 0x2a /* * */) {
      depth++;
      index++;
    } else if (code === 0x2a /* * */ && next === 0x2f /* / */) {
      if (--depth === 0) return index;
      index++;
    }
  }
  return -1;
}

/**
 * A value as `dialect` reads it, in text order. Each character is passed a
 * bounded number of times: the search for the next special character
 * restarts past what was read; a quote, `/*` or `$tag$` without its end is
 * text from then on (no second search to the end: a database rejects it,
 * and blanking it would hide what follows).
 */
function readSql(
  sql: string,
  dialect: SqlDialect,
  onString?: (start: number, end: number) => void,
): string {
  const code = new PieceJoiner();
  let cursor = 0;
  /** Blanks from `from` to `to`, keeping the length. */
  const blank = (from: number, to: number) => {
    code.push(sql.slice(cursor, from));
    code.push(' '.repeat(to - from));
    cursor = to;
  };
  const special = dialect.special;
  const unclosed = new Set<number>();
  let blockCloses = true;
  let dollarCloses = true;
  let inBang = false;
  special.lastIndex = 0;
  // `test` moves `lastIndex` past the next special character; `at` is that
  // character, and setting `at` moves the search past what was read.
  for (let at = 0; special.test(sql); special.lastIndex = at + 1) {
    at = special.lastIndex - 1;
    const char = sql.charCodeAt(at);
    const next = sql.charCodeAt(at + 1);
    if (char === 0x2f /* / */) {
      if (next !== 0x2a /* * */ || !blockCloses) continue;
      const bang = sql.charCodeAt(at + 2) === 0x21 /* ! */ ? 3 : sqlMariaBang(sql, at) ? 4 : 0;
      if (dialect.bang && bang > 0) {
        // The version digits are not code: `/*!50000DROP` runs `DROP`.
        let end = at + bang;
        while (end < sql.length && isDigitCode(sql.charCodeAt(end))) end++;
        blank(at, end);
        inBang = true;
        at = end - 1;
        continue;
      }
      const close = dialect.nested ? nestedCommentEnd(sql, at + 2) : sql.indexOf('*/', at + 2);
      if (close === -1) {
        blockCloses = false;
        continue;
      }
      blank(at, close + 2);
      at = close + 1;
    } else if (char === 0x2a /* * */) {
      if (inBang && next === 0x2f /* / */) {
        blank(at, at + 2);
        inBang = false;
        at += 1;
      }
    } else if (char === 0x2d /* - */ || char === 0x23 /* # */) {
      if (char === 0x2d) {
        if (next !== 0x2d) continue;
        const after = sql.charCodeAt(at + 2);
        if (dialect.dashNeedsSpace && !(after <= 0x20 || after === 0x7f)) continue;
      }
      const newline = sql.indexOf('\n', at + 1);
      const end = newline === -1 ? sql.length : newline;
      blank(at, end);
      at = end - 1;
    } else if (char === 0x24 /* $ */) {
      if (!dollarCloses || (at > 0 && isIdentifierCode(sql.charCodeAt(at - 1)))) continue;
      dollarTag.lastIndex = at;
      const tag = dollarTag.exec(sql)?.[0];
      if (tag === undefined) continue;
      const close = sql.indexOf(tag, at + tag.length);
      if (close === -1) {
        dollarCloses = false;
        continue;
      }
      onString?.(at + tag.length, close);
      at = close + tag.length - 1;
    } else {
      // A quote this reading knows.
      if (unclosed.has(char)) continue;
      const closer = char === 0x5b /* [ */ ? 0x5d /* ] */ : char;
      let close = -1;
      if (
        dialect.backslash.includes(String.fromCharCode(char)) ||
        (dialect.escapeStrings && char === 0x27 && isEscapeStringPrefix(sql, at))
      ) {
        for (let index = at + 1; index < sql.length; index++) {
          const unit = sql.charCodeAt(index);
          if (unit === 0x5c /* backslash */) index++;
          else if (unit === closer) {
            close = index;
            break;
          }
        }
      } else close = sql.indexOf(String.fromCharCode(closer), at + 1);
      if (close === -1) {
        unclosed.add(char);
        continue;
      }
      onString?.(at + 1, close);
      at = close;
    }
  }
  if (cursor === 0) return sql;
  code.push(sql.slice(cursor));
  return code.join();
}

const sqlDrop =
  /\bdrop\s+(?:(?:temporary|temp|materialized|foreign|unlogged|external)\s+)?(table|database|schema|view|index|user|role|function|procedure|trigger|sequence|type|extension|tablespace|owned|event|server|domain|policy|rule)\b/i;
const sqlTruncate = /\btruncate\s+(?:table\s+)?[\w."`[\]]+/i;
// Replaces (drops) the table and its rows (MariaDB, Snowflake, DuckDB, BigQuery,
// Databricks); `CREATE OR REPLACE VIEW` / `FUNCTION` keep no data.
const sqlReplaceTable =
  /\bcreate\s+or\s+replace\s+(?:(?:temporary|temp|transient|global\s+temporary|local\s+temporary|external|secure)\s+)*table\b/i;
// Found anywhere in a statement (a DELETE may follow WITH, EXPLAIN ANALYZE,
// PREPARE ... AS, BEGIN or a parenthesis), outside the reading's strings.
const sqlAlterTable = /\balter\s+table\b/gi;
// Not what drops no data: `ALTER COLUMN c DROP DEFAULT`, `DROP NOT NULL`.
const sqlDropWord = /\bdrop\b(?!\s+(?:default|not\s+null|identity|expression)\b)/gi;
const sqlDeleteWord = /\bdelete\b/gi;
// Not `DO UPDATE SET` / `ON UPDATE SET NULL`: an upsert's or a key's, not a table's.
const sqlUpdateWord = /\bupdate\b(?!\s*set\b)/gi;
const sqlSetWord = /\bset\b/gi;
const sqlWhere = /\bwhere\b/gi;
// A MERGE clause, to its `AND` condition or its `THEN DELETE` / `THEN
// UPDATE SET` (a `THEN DELETE WHERE …` has a WHERE of its own).
const sqlMergeClause =
  /\bwhen\s+(not\s+)?matched(?:\s+by\s+(source|target))?\s+(?:(and)\b|then\s+(?:(delete)\b(\s+where\b)?|(update)\s+set\b))/gi;
// In an `UPDATE SET` clause, Oracle's `WHERE` (of the update) and `DELETE WHERE` (round 38).
const sqlClauseWhere = /(delete\s+)?where\b/iy;
// What follows the `THEN` that ends a clause's `AND` condition.
const sqlThenAction = /\s*(?:(delete)\b(\s+where\b)?|(update)\s+set\b)/iy;
const sqlCaseOrEnd = /\b(case|end|then)\b/gi;
const sqlUsingWord = /\busing\b/gi;
// A MERGE's start, to its target table (SQL Server's `TOP (n) [PERCENT]` before it).
const sqlMergeWord = /\bmerge\s+(?:top\s*\([^()]*\)\s*(?:percent\s+)?)?(?:into\s+)?/gi;
const sqlOnWord = /on\b/iy;
const sqlWhenMatched = /\bwhen\s+(?:not\s+)?matched\b/gi;

/**
 * Destructive SQL: DROP, TRUNCATE, ALTER ... DROP, DELETE or UPDATE without
 * a real WHERE, as `dialect` reads it (`any`: as every family does, and a
 * rule broken in one reading blocks).
 */
export function sqlViolation(
  value: string,
  dialect: SqlDialectName = 'any',
): RuleViolation | undefined {
  const backslashed = value.includes('\\');
  const read: ReadValue[] = [];
  if (dialect !== 'any') {
    const [own, ...modes] = dialectReadings[dialect];
    // Its other modes read a backslash otherwise; the WHEREs without one they read as the first did.
    const memos = backslashed ? conditionMemos() : undefined;
    const violation = readingViolation(value, own!, dialect, memos, read, backslashed);
    if (violation || !backslashed) return violation;
    for (const mode of modes) {
      const other = readingViolation(value, mode, dialect, memos, read, backslashed);
      if (other) return other;
    }
    return undefined;
  }
  const [standard, ...others] = sqlDialects;
  const differ = readingsDiffer.test(value);
  // Each WHERE that a later reading reads as this one did is evaluated once.
  const memos = differ ? conditionMemos() : undefined;
  const violation = readingViolation(value, standard!, 'any', memos, read, backslashed);
  if (violation) return violation;
  // Without these, every family reads the value as standard SQL does, but
  // for nesting: a flat reading (SQLite's) then reads it as all flat ones do.
  const readings = differ
    ? backslashed
      ? others
      : withoutBackslashModes
    : value.indexOf('/*', value.indexOf('/*') + 2) !== -1
      ? [sqlDialects[sqlDialects.length - 1]!]
      : [];
  for (const dialect of readings) {
    const other = readingViolation(value, dialect, 'any', memos, read, backslashed);
    if (other) return other;
  }
  return undefined;
}

/**
 * A value as one reading read it: its code (comments blanked) and its
 * strings and quoted names, flat (`start, end, …`). Two readings that read
 * a value alike (and whose backslashes escape alike, or that has none)
 * break the same rules: the second is not checked again.
 */
interface ReadValue {
  code: string;
  strings: number[];
  backslash: string;
}

function sameReading(a: ReadValue, b: ReadValue, backslashed: boolean): boolean {
  if (a.code !== b.code || a.strings.length !== b.strings.length) return false;
  if (backslashed && a.backslash !== b.backslash) return false;
  for (let i = 0; i < a.strings.length; i++) if (a.strings[i] !== b.strings[i]) return false;
  return true;
}

/**
 * A WHERE condition one reading evaluated, by where it starts: another
 * reading whose text there is the same to the statement's end (and whose
 * backslashes escape alike, or that has none) takes its answer instead of
 * reading it again (it still spends the characters of its own budget).
 */
interface ConditionMemo {
  end: number;
  /** The reading (its index in `ConditionMemos.codes`) whose text from `outerFrom` to `end` was evaluated. */
  reading: number;
  /** Where the statement before its WHERE (its tables and aliases) starts. */
  outerFrom: number;
  backslash: string;
  holds: boolean | undefined;
  read: number;
}

/**
 * The conditions the readings of one value evaluated, and what tells
 * whether two readings' codes hold the same text in a range without
 * reading it: for each pair of readings, the places where their codes
 * differ, and for each reading where its backslashes are (each found once,
 * in one pass over the code, when first asked). Comparing the text of each
 * WHERE to its statement's end was quadratic in a statement of many
 * WHEREs (parenthesized DELETEs without `;`): 1,648 ms at 214 KB.
 */
interface ConditionMemos {
  byStart: Map<number, ConditionMemo>;
  /** Each reading's code, by the index its budget names. */
  codes: string[];
  backslashes: Map<number, Int32Array>;
  /** By `a * readingSlots + b` for readings `a < b`. */
  differences: Map<number, Int32Array>;
}

const readingSlots = 64;

const conditionMemos = (): ConditionMemos => ({
  byStart: new Map(),
  codes: [],
  backslashes: new Map(),
  differences: new Map(),
});

/** The places (ascending) where `select` holds for code `i`. */
function placesWhere(length: number, select: (i: number) => boolean): Int32Array {
  const places: number[] = [];
  for (let i = 0; i < length; i++) if (select(i)) places.push(i);
  return Int32Array.from(places);
}

/** Whether some place of `places` (ascending) is in `[from, to)`. */
function placeWithin(places: Int32Array, from: number, to: number): boolean {
  let low = 0;
  let high = places.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (places[middle]! < from) low = middle + 1;
    else high = middle;
  }
  return low < places.length && places[low]! < to;
}

/**
 * Whether readings `a` and `b` hold the same code in `[from, to)`, and
 * whether it has a backslash (`-1`: they differ; `1`: same, with one; `0`:
 * same, without), in time logarithmic in the value: never a slice nor a
 * comparison of the range itself.
 */
function sameText(memos: ConditionMemos, a: number, b: number, from: number, to: number): number {
  if (a !== b) {
    const key = Math.min(a, b) * readingSlots + Math.max(a, b);
    let differ = memos.differences.get(key);
    if (differ === undefined) {
      const [x, y] = [memos.codes[a]!, memos.codes[b]!];
      differ = placesWhere(Math.max(x.length, y.length), i => x.charCodeAt(i) !== y.charCodeAt(i));
      memos.differences.set(key, differ);
    }
    if (placeWithin(differ, from, to)) return -1;
  }
  let backslashes = memos.backslashes.get(a);
  if (backslashes === undefined) {
    const code = memos.codes[a]!;
    backslashes = placesWhere(code.length, i => code.charCodeAt(i) === 0x5c);
    memos.backslashes.set(a, backslashes);
  }
  return placeWithin(backslashes, from, to) ? 1 : 0;
}

/** `conditionAlwaysHolds` for one reading's WHERE at `from`, through the readings' memos. */
function conditionHolds(
  sql: string,
  from: number,
  end: number,
  budget: ConditionBudget,
  outerFrom: number,
  statementFrom: number,
  withAt: number,
): boolean | undefined {
  const { memos, backslash, database, reading } = budget;
  const evaluate = () =>
    conditionAlwaysHolds(
      sql,
      from,
      end,
      budget,
      backslash,
      database,
      outerFrom,
      from - 5,
      statementFrom,
    );
  // After a WITH, a subquery may read a common table expression before
  // `outerFrom`, which the memo does not compare: evaluated in each reading.
  if (!memos || (withAt !== -1 && withAt < outerFrom)) return evaluate();
  const memo = memos.byStart.get(from);
  const same =
    memo !== undefined && memo.end === end && memo.outerFrom === outerFrom
      ? sameText(memos, memo.reading, reading, outerFrom, from) !== -1
        ? sameText(memos, memo.reading, reading, from, end)
        : -1
      : -1;
  // The same text, and backslashes escaping alike or none in it.
  if (same === 0 || (same === 1 && memo!.backslash === backslash)) {
    if (memo!.read > budget.left) {
      budget.left = -1;
      budget.limit = 'budget';
      return true;
    }
    budget.left -= memo!.read;
    return memo!.holds;
  }
  const left = budget.left;
  const holds = evaluate();
  if (budget.limit === undefined) {
    memos.byStart.set(from, {
      end,
      reading,
      outerFrom,
      backslash,
      holds,
      read: left - budget.left,
    });
  }
  return holds;
}

/**
 * What some family reads otherwise than standard SQL, nesting aside:
 * `` ` `` `[` `#` `\\` `$` `/*!` `/*M!`, `--x`.
 */
const readingsDiffer = /[`[#\\$]|\/\*[mM]?!|--[^\t\n\v\f\r ]/;

/**
 * The first rule one reading breaks. Statements are found in `code` (a `;`
 * in a string splits there too, so a DELETE cannot hide in what a reading
 * takes for a string); a DELETE, UPDATE, ALTER TABLE, DROP or WHERE counts
 * anywhere in its statement but inside strings (an UPDATE with
 * `note = 'where'` has none; `SELECT 'delete from t'` deletes nothing).
 */
function readingViolation(
  value: string,
  dialect: SqlDialect,
  database: SqlDialectName,
  memos: ConditionMemos | undefined,
  read: ReadValue[],
  backslashed: boolean,
): RuleViolation | undefined {
  const spans: number[] = [];
  const sql = readSql(value, dialect, (start, end) => spans.push(start, end));
  const reading: ReadValue = { code: sql, strings: spans, backslash: dialect.backslash };
  // Read as an earlier reading did (which broke no rule): nothing to check again.
  if (read.some(earlier => sameReading(earlier, reading, backslashed))) return undefined;
  read.push(reading);
  const drop = sqlDrop.exec(sql);
  if (drop) return { rule: 'sql.drop', detail: `DROP ${drop[1]!.toUpperCase()}` };
  if (sqlTruncate.test(sql)) return { rule: 'sql.truncate', detail: 'TRUNCATE' };
  if (sqlReplaceTable.test(sql)) return { rule: 'sql.drop', detail: 'CREATE OR REPLACE TABLE' };
  // Statement by statement, read in place: no array of statements nor a
  // copy of each (1 MB of short statements made an array past V8's
  // large-object size, fresh pages on every growth, and 3 MB of copies).
  // Each word is searched for once over the text (statements come in text
  // order); strings are found in the same pass as the code.
  const inString = (at: number) => {
    let low = 0;
    let high = (spans.length >> 1) - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (spans[2 * middle + 1]! <= at) low = middle + 1;
      else if (spans[2 * middle]! > at) high = middle - 1;
      else return true;
    }
    return false;
  };
  const alterAt = wordFinder(sql, sqlAlterTable, inString);
  const dropAt = wordFinder(sql, sqlDropWord, inString);
  const deleteAt = wordFinder(sql, sqlDeleteWord, inString);
  const updateAt = wordFinder(sql, sqlUpdateWord, inString);
  const setAt = wordFinder(sql, sqlSetWord, inString);
  const whereAt = wordFinder(sql, sqlWhere, inString);
  const parenAt = parenFinder(sql, inString);
  const mergeClauseAt = wordFinder(sql, sqlMergeClause, inString);
  // Each WHERE is read once, so conditions read over each other (a DELETE
  // one reading sees inside what another takes for a string) fail closed.
  const conditionBudget: ConditionBudget = {
    left: 2 * sql.length + 1_024,
    backslash: dialect.backslash,
    database,
    memos,
    reading: memos ? memos.codes.push(sql) - 1 : -1,
  };
  const without = (kind: 'delete' | 'update'): RuleViolation => ({
    rule: `sql.${kind}-without-where`,
    detail:
      conditionBudget.limit === undefined
        ? `${kind.toUpperCase()} without a WHERE clause`
        : `${kind.toUpperCase()} whose WHERE ${limitReasons[conditionBudget.limit]}`,
  });
  // The first WITH from a statement's start (in a string too: a bound, not a
  // reading), searched for past the last one found only: statements come in
  // text order, so the text is searched once (a search to the end from each
  // of 60,000 statements without a WITH was quadratic).
  let withNext = -2;
  const withAt = (from: number) => {
    if (withNext !== -1 && withNext < from) {
      sqlWithWord.lastIndex = from;
      withNext = sqlWithWord.test(sql) ? sqlWithWord.lastIndex - 4 : -1;
    }
    return withNext;
  };
  for (let from = 0; from <= sql.length; ) {
    const semicolon = sql.indexOf(';', from);
    const end = semicolon === -1 ? sql.length : semicolon;
    const alter = alterAt(from, end);
    if (alter !== -1 && dropAt(alter, end) !== -1) {
      return { rule: 'sql.alter-drop', detail: 'ALTER TABLE ... DROP' };
    }
    const merge = mergeViolation(sql, from, end, mergeClauseAt, conditionBudget, inString);
    if (merge) return without(merge);
    const violation = statementWithoutWhere(sql, from, end, conditionBudget, {
      deleteAt,
      updateAt,
      setAt,
      whereAt,
      parenAt,
      withAt,
    });
    if (violation) return without(violation);
    from = end + 1;
  }
  return undefined;
}

/** A letter, digit, `_` or `$`: part of a word. */
const wordCode = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) ||
  code === 0x5f ||
  code === 0x24;

/**
 * The MERGE clause of the statement `[from, end)` that deletes or updates
 * every row of its target, or undefined:
 * - `WHEN [NOT] MATCHED [BY SOURCE | TARGET] THEN DELETE` without an `AND`
 *   condition (round 21), or with one that holds for every row (round 37:
 *   `WHEN NOT MATCHED BY SOURCE AND 1=1 THEN DELETE` ran);
 * - `WHEN MATCHED THEN UPDATE SET` so, under an `ON` that holds for every
 *   row (round 36: `ON 1=1`);
 * - `WHEN NOT MATCHED BY SOURCE THEN UPDATE SET` so, under an `ON` true for
 *   no row, which leaves every target row unmatched (round 37: `ON 1=0`
 *   ran).
 * Each clause's `AND` is read as a WHERE is, up to its `THEN` (outside
 * parentheses, strings and `CASE … END`); `clauseAt` finds the clauses in
 * text order.
 */
function mergeViolation(
  sql: string,
  from: number,
  end: number,
  clauseAt: (from: number, end: number) => number,
  budget: ConditionBudget,
  inString: (at: number) => boolean,
): 'delete' | 'update' | undefined {
  const { backslash, database } = budget;
  let on: [number, number, number, number] | null | undefined;
  // What the ON is, each read once per statement (a MERGE of many clauses).
  let onHolds: boolean | undefined;
  let onFindsNone: boolean | undefined;
  let onNoTarget: boolean | undefined;
  /** The MERGE's target, USING and ON (`mergeOn`), found once. */
  const merge = (at: number) => {
    on ??= mergeOn(sql, from, at, inString) ?? null;
    return on;
  };
  let self: boolean | undefined;
  /** Whether the MERGE's source is its target and its ON matches each row with itself. */
  const onSelf = (at: number) => {
    const found = merge(at);
    if (found === null || found[0] === -1) return false;
    self ??= mergeMatchesItself(sql, found, backslash);
    return self;
  };
  /** Whether the ON leaves a clause acting on every target row (or on none): for NOT MATCHED BY SOURCE, true for no row. */
  const onEvery = (at: number, notMatched: boolean) => {
    const found = merge(at);
    if (found === null) return false;
    const [targetAt, usingAt, onFrom, onTo] = found;
    const read = [sql, onFrom, onTo, budget, backslash, database, from, onFrom - 2] as const;
    if (notMatched) onFindsNone ??= conditionFindsNoRow(...read);
    else onHolds ??= conditionAlwaysHolds(...read, from) === true;
    onNoTarget ??=
      targetAt !== -1 && mergeOnNamesNoTarget(sql, targetAt, usingAt, onFrom, onTo, backslash);
    return (notMatched ? onFindsNone : onHolds) || onNoTarget;
  };
  // Past each clause (its condition's words are not clauses).
  let next = from;
  for (let at = clauseAt(from, end); at !== -1; at = clauseAt(next, end)) {
    sqlMergeClause.lastIndex = at;
    const clause = sqlMergeClause.exec(sql)!;
    const bySource = clause[2]?.toLowerCase() === 'source';
    const notMatched = clause[1] !== undefined;
    let kind: 'delete' | 'update' | undefined = clause[4]
      ? 'delete'
      : clause[6]
        ? 'update'
        : undefined;
    next = sqlMergeClause.lastIndex;
    /** Past the clause's action (`THEN DELETE [WHERE]`, `THEN UPDATE SET`), and whether a WHERE ends it. */
    let actionEnd = next;
    let deleteWhere = clause[5] !== undefined;
    /** The clause's AND: none or one that holds for every row (`every`), one that names no target column (`alike`). */
    let condition: 'every' | 'alike' | 'restricts' = 'every';
    if (clause[3] !== undefined) {
      // `AND …`: to its THEN.
      const then = clauseThen(sql, next, end, inString);
      if (then === -1) return undefined;
      sqlThenAction.lastIndex = then + 4;
      const action = sqlThenAction.exec(sql);
      kind = action === null ? undefined : action[1] ? 'delete' : 'update';
      actionEnd = sqlThenAction.lastIndex;
      deleteWhere = action?.[2] !== undefined;
      if (kind !== undefined) {
        condition =
          conditionAlwaysHolds(sql, next, then, budget, backslash, database, from, at, from) ===
          true
            ? 'every'
            : mergeConditionAlike(sql, merge(at), next, then, backslash)
              ? 'alike'
              : 'restricts';
      }
      next = then + 4;
    }
    if (kind === undefined || condition === 'restricts') continue;
    // The WHEREs that end a clause (round 38): `THEN DELETE WHERE …`, and
    // Oracle's `THEN UPDATE SET … [WHERE …] [DELETE WHERE …]`, whose DELETE
    // acts on the rows the clause updates; one that restricts restricts the clause.
    const wheres = clauseWheres(sql, actionEnd, end, kind === 'delete' && deleteWhere, inString);
    const holds = (range: readonly [number, number] | undefined) =>
      range === undefined ||
      conditionAlwaysHolds(sql, range[0], range[1], budget, backslash, database, from, at, from) ===
        true;
    if (!holds(wheres.update)) continue;
    if (wheres.delete !== undefined && holds(wheres.delete)) {
      if (condition === 'every') return 'delete';
      if (onEvery(at, notMatched)) return 'delete';
    }
    if (kind === 'delete' && wheres.delete !== undefined) continue;
    // A DELETE without a condition of its own deletes every row it acts on (round 21).
    if (kind === 'delete' && condition === 'every') return kind;
    // Where the ON tells target rows apart, the clause's AND does too.
    if ((kind === 'delete' || !notMatched || bySource) && onEvery(at, notMatched)) return kind;
    // The target merged with itself, each row matching its own (round 38).
    if (kind === 'update' && !notMatched && condition === 'every' && onSelf(at)) return kind;
  }
  return undefined;
}

/**
 * The WHEREs that end a MERGE clause whose action ends at `from`: with
 * `deleting` (a `THEN DELETE WHERE`), its condition from `from`; else
 * Oracle's of an `UPDATE SET` list (`update`, to its `DELETE WHERE` or the
 * clause's end) and of its `DELETE WHERE` (`delete`). A clause ends at
 * the next `WHEN [NOT] MATCHED` or the statement's end; words inside
 * strings or parentheses are not its.
 */
function clauseWheres(
  sql: string,
  from: number,
  end: number,
  deleting: boolean,
  inString: (at: number) => boolean,
): { update?: [number, number]; delete?: [number, number] } {
  sqlWhenMatched.lastIndex = from;
  let when = sqlWhenMatched.exec(sql);
  while (when && when.index < end && inString(when.index)) when = sqlWhenMatched.exec(sql);
  const clauseEnd = when && when.index < end ? when.index : end;
  if (deleting) return { delete: [from, clauseEnd] };
  const found: { update?: [number, number]; delete?: [number, number] } = {};
  // One pass to the clause's end (a search to the value's end per clause was quadratic).
  for (let at = from, depth = 0; at < clauseEnd; at++) {
    const code = sql.charCodeAt(at);
    if (code === 0x28 /* ( */ || code === 0x29 /* ) */) {
      if (!inString(at)) depth += code === 0x28 ? 1 : -1;
      continue;
    }
    const lower = code | 0x20;
    if ((lower !== 0x77 /* w */ && lower !== 0x64) /* d */ || depth !== 0) continue;
    if (wordCode(sql.charCodeAt(at - 1))) continue;
    sqlClauseWhere.lastIndex = at;
    const word = sqlClauseWhere.exec(sql);
    if (word === null || sqlClauseWhere.lastIndex > clauseEnd || inString(at)) continue;
    if (word[1] !== undefined) {
      if (found.update !== undefined) found.update[1] = at;
      found.delete = [sqlClauseWhere.lastIndex, clauseEnd];
      return found;
    }
    found.update ??= [sqlClauseWhere.lastIndex, clauseEnd];
    at = sqlClauseWhere.lastIndex - 1;
  }
  return found;
}

/**
 * Whether a MERGE clause's AND `[from, to)` names no column of the target
 * (`AND s.flag = 1`): the same for each target row under an ON that is.
 */
function mergeConditionAlike(
  sql: string,
  merge: readonly [number, number, number, number] | null,
  from: number,
  to: number,
  backslash: string,
): boolean {
  if (merge === null || merge[0] === -1) return false;
  return mergeOnNamesNoTarget(sql, merge[0], merge[1], from, to, backslash);
}

/** The `THEN` that ends a MERGE clause's condition from `from`: outside strings, parentheses and `CASE … END`; -1 where none. */
function clauseThen(
  sql: string,
  from: number,
  end: number,
  inString: (at: number) => boolean,
): number {
  let cases = 0;
  let depth = 0;
  let paren = from;
  sqlCaseOrEnd.lastIndex = from;
  for (let word = sqlCaseOrEnd.exec(sql); word && word.index < end; word = sqlCaseOrEnd.exec(sql)) {
    if (inString(word.index)) continue;
    // The parentheses between the last word and this one.
    for (; paren < word.index; paren++) {
      const code = sql.charCodeAt(paren);
      if (!inString(paren)) depth += code === 0x28 ? 1 : code === 0x29 ? -1 : 0;
    }
    if (depth !== 0) continue;
    const lower = word[1]!.toLowerCase();
    if (lower === 'case') cases++;
    else if (lower === 'end') cases--;
    else if (cases <= 0) return word.index;
  }
  return -1;
}

/**
 * The MERGE in the statement at `from` whose clause is at `clause`: where
 * its target's name starts (-1: not found), its `USING`, and its `ON`, the
 * first outside parentheses and strings after `USING` up to the first
 * `WHEN [NOT] MATCHED`; or undefined.
 */
function mergeOn(
  sql: string,
  from: number,
  clause: number,
  inString: (at: number) => boolean,
): [number, number, number, number] | undefined {
  sqlUsingWord.lastIndex = from;
  let using = sqlUsingWord.exec(sql);
  while (using && inString(using.index)) using = sqlUsingWord.exec(sql);
  if (!using || using.index >= clause) return undefined;
  sqlMergeWord.lastIndex = from;
  let merge = sqlMergeWord.exec(sql);
  while (merge && inString(merge.index)) merge = sqlMergeWord.exec(sql);
  const targetAt = merge && merge.index < using.index ? sqlMergeWord.lastIndex : -1;
  let on = -1;
  for (let at = sqlUsingWord.lastIndex, depth = 0; at < clause; at++) {
    const code = sql.charCodeAt(at);
    if (inString(at)) continue;
    if (code === 0x28 /* ( */) depth++;
    else if (code === 0x29 /* ) */) depth--;
    else if (depth === 0 && (code | 0x20) === 0x6f /* o */ && !wordCode(sql.charCodeAt(at - 1))) {
      sqlOnWord.lastIndex = at;
      if (sqlOnWord.test(sql)) {
        on = sqlOnWord.lastIndex;
        break;
      }
    }
  }
  if (on === -1) return undefined;
  sqlWhenMatched.lastIndex = on;
  let when = sqlWhenMatched.exec(sql);
  while (when && inString(when.index)) when = sqlWhenMatched.exec(sql);
  if (!when || when.index > clause) return undefined;
  return [targetAt, using.index, on, when.index];
}

/** What the WHERE conditions of one reading may still read, and why one was not evaluated. */
interface ConditionBudget {
  left: number;
  limit?: ConditionLimit;
  /** The quotes inside which `\` escapes, in this reading. */
  backslash: string;
  /** The database the `dialect` option names, or `any`. */
  database: SqlDialectName;
  /** The conditions other readings of the value evaluated. */
  memos: ConditionMemos | undefined;
  /** This reading's index in `memos.codes`. */
  reading: number;
}

/** Why a WHERE was not evaluated (and counted as none: fail closed), for the reason. */
const limitReasons: Record<ConditionLimit, string> = {
  nesting: `nests more than ${maxConditionDepth} operators deep (not evaluated)`,
  budget: 'conditions overlap past the reading budget (not evaluated)',
  subqueries: `has a subquery ${maxSubqueryNesting + 1} deep whose WHERE holds for every row, for none or is not read, or a WHERE deeper still (not evaluated)`,
  scalar:
    "holds for every row where a scalar subquery of another table, which selects the row's own column, finds one row (that table's contents decide)",
  compound:
    'has a parenthesized query whose first branch is a parenthesized set operation (not evaluated)',
};

/** A DELETE or UPDATE at one depth of parentheses. */
interface SqlFrame {
  /** How many parentheses are open where it is. */
  depth: number;
  kind: 'delete' | 'update' | undefined;
  /** The frame's DELETE or UPDATE has its WHERE. */
  where: boolean;
  /** Where its DELETE or UPDATE starts. */
  kindAt: number;
}

/**
 * The DELETE or UPDATE of the statement `[from, end)` that has no real
 * WHERE of its own: none at its depth of parentheses and before they
 * close (`WITH d AS (DELETE FROM users RETURNING *) SELECT … WHERE …` has
 * the SELECT's), or one whose condition the WHERE evaluator
 * (`conditionAlwaysHolds`, the one reader of a condition) finds holds for
 * every row in some database (`WHERE id > 0 OR 1=1`, `WHERE (id = 3 OR (2
 * = 2))`, `WHERE id = id`). One pass: the events (DELETE, UPDATE, WHERE,
 * parentheses) come from the word finders in text order; a frame is kept
 * only for a DELETE or an UPDATE (other parentheses are a depth count).
 */
function statementWithoutWhere(
  sql: string,
  from: number,
  end: number,
  conditionBudget: ConditionBudget,
  at: Record<
    'deleteAt' | 'updateAt' | 'setAt' | 'whereAt' | 'parenAt' | 'withAt',
    (from: number, end: number) => number
  >,
): 'delete' | 'update' | undefined {
  const frames: SqlFrame[] = [{ depth: 0, kind: undefined, where: false, kindAt: -1 }];
  const withAt = at.withAt(from, end);
  let depth = 0;
  let deleteNext = -2;
  let updateNext = -2;
  for (let cursor = from; ; ) {
    // The next DELETE that deletes (FROM follows) and UPDATE with a SET after it.
    if (deleteNext < cursor && deleteNext !== -1) {
      deleteNext = at.deleteAt(cursor, end);
      while (deleteNext !== -1 && !deletesFrom(sql, deleteNext)) {
        deleteNext = at.deleteAt(deleteNext + 1, end);
      }
    }
    if (updateNext < cursor && updateNext !== -1) {
      updateNext = at.updateAt(cursor, end);
      if (updateNext !== -1 && at.setAt(updateNext, end) === -1) updateNext = -1;
    }
    const where = at.whereAt(cursor, end);
    const paren = at.parenAt(cursor, end);
    let next = end;
    if (deleteNext !== -1 && deleteNext < next) next = deleteNext;
    if (updateNext !== -1 && updateNext < next) next = updateNext;
    if (where !== -1 && where < next) next = where;
    if (paren !== -1 && paren < next) next = paren;
    if (next === end) break;
    let top = frames[frames.length - 1]!;
    const here = top.depth === depth;
    if (next === deleteNext || next === updateNext) {
      if (here && top.kind && !top.where) return top.kind;
      if (!here) {
        top = { depth, kind: undefined, where: false, kindAt: -1 };
        frames.push(top);
      }
      top.kind = next === deleteNext ? 'delete' : 'update';
      top.kindAt = next;
      top.where = false;
      cursor = next + 6;
    } else if (next === where) {
      if (here && top.kind && !top.where) {
        top.where = true;
        // A condition that holds for every row in some database (`1+1=2`,
        // `id = 3 OR (1=1 AND 2=2)`, `1='1'`, `id = id`).
        if (conditionHolds(sql, next + 5, end, conditionBudget, top.kindAt, from, withAt)) {
          return top.kind;
        }
      }
      cursor = next + 5;
    } else if (sql.charCodeAt(next) === 0x28 /* ( */) {
      depth++;
      cursor = next + 1;
    } else {
      // `)`: an unmatched one closes nothing.
      if (depth > 0) {
        if (here) {
          const closed = frames.pop()!;
          if (closed.kind && !closed.where) return closed.kind;
        }
        depth--;
      }
      cursor = next + 1;
    }
  }
  for (const open of frames) if (open.kind && !open.where) return open.kind;
  return undefined;
}

/** A WITH, found from a statement's start (`lastIndex`) to wherever it is. */
const sqlWithWord = /\bwith\b/gi;
// MySQL's modifiers, and SQL Server's `TOP (n) [PERCENT]` (round 37: `DELETE
// TOP (100) PERCENT FROM t` ran).
const sqlDeleteModifier =
  /(?:low_priority|quick|ignore)\b|top\s*(?:\([^()]*\)|\d+(?![\w$]))(?:\s*percent\b)?/iy;
/**
 * Sticky past DELETE: a table named without FROM (`DELETE users`, `DELETE
 * dbo.users u WHERE …`), up to the statement's end, `)`, its WHERE or SQL
 * Server's `OUTPUT` / `OPTION` / `WITH (…)`.
 */
const sqlDeleteTable =
  /((?:[a-z_][\w$#@]{0,127}(?![\w$#@])|"[^"]{0,64}"|\[[^\]]{0,64}\])(?:\s*\.\s*(?:[a-z_][\w$#@]{0,127}(?![\w$#@])|"[^"]{0,64}"|\[[^\]]{0,64}\])){0,3})(?:\s+(?:as\s+)?(?!(?:where|output|option|with)\b)[a-z_][\w$]*)?\s*(?:$|[;)]|(?:where|output|option|with)\b)/iy;
/** Words after DELETE that are no table: `ON DELETE CASCADE`, `GRANT DELETE ON t`, a trigger's `FOR DELETE AS`. */
const notDeleteTable = new Set(
  'cascade restrict set no on as or and from into to where output option with'.split(' '),
);
const sqlFromWord = /from\b/iy;

/**
 * Whether the `delete` at `at` is a DELETE statement's: FROM follows, after
 * MySQL's modifiers (`LOW_PRIORITY`, `QUICK`, `IGNORE`) and its table list
 * (`DELETE t1, t2 FROM ...`), not `ON DELETE CASCADE` or a trigger's
 * `AFTER DELETE ON`. A hand-written scan: the list is read once (a regex
 * over `a, b, ...` cost 1.6 s on 1 MB of `a,`).
 */
function deletesFrom(sql: string, at: number): boolean {
  let index = skipSpaces(sql, at + 6);
  if (index === at + 6) return false;
  for (;;) {
    sqlDeleteModifier.lastIndex = index;
    if (!sqlDeleteModifier.test(sql)) break;
    const after = skipSpaces(sql, sqlDeleteModifier.lastIndex);
    // A blank after each, or TOP's `)` (`DELETE TOP(10)FROM t`).
    if (after === sqlDeleteModifier.lastIndex && sql.charCodeAt(after - 1) !== 0x29) return false;
    index = after;
  }
  sqlFromWord.lastIndex = index;
  if (sqlFromWord.test(sql)) return true;
  // SQL Server's and Oracle's `DELETE t` (FROM is optional there): one
  // table, its alias, then the statement's end or its WHERE.
  sqlDeleteTable.lastIndex = index;
  const table = sqlDeleteTable.exec(sql);
  if (table !== null && !notDeleteTable.has(table[1]!.toLowerCase())) return true;
  // The table list: names (no blank, comma or `;`) joined by commas.
  for (;;) {
    const start = index;
    for (; index < sql.length; index++) {
      const code = sql.charCodeAt(index);
      if (isSpace(code) || code === 0x2c /* , */ || code === 0x3b /* ; */) break;
    }
    if (index === start) return false;
    const afterName = index;
    index = skipSpaces(sql, index);
    if (sql.charCodeAt(index) === 0x2c /* , */) {
      index = skipSpaces(sql, index + 1);
      continue;
    }
    sqlFromWord.lastIndex = index;
    return index > afterName && sqlFromWord.test(sql);
  }
}

/** The index of the first character at or after `from` that is not a blank. */
function skipSpaces(sql: string, from: number): number {
  let index = from;
  while (index < sql.length && isSpace(sql.charCodeAt(index))) index++;
  return index;
}

/**
 * Where `word` (a global regex) is next found outside the reading's strings
 * from `from` on, before `end`, or -1. Calls come with `from` never
 * decreasing but for a retry past a match, so the match found last is kept
 * and each search goes on from where the last one stopped: one pass over
 * the text per word.
 */
function wordFinder(
  sql: string,
  word: RegExp,
  inString: (at: number) => boolean,
): (from: number, end: number) => number {
  let next = -2; // -2: not searched yet; -1: none left
  return (from, end) => {
    if (next !== -1 && next < from) {
      word.lastIndex = from;
      let found = word.exec(sql);
      while (found && inString(found.index)) found = word.exec(sql);
      next = found ? found.index : -1;
    }
    return next !== -1 && next < end ? next : -1;
  };
}

/**
 * `wordFinder` for `(` and `)`: a loop over the character codes (a regex
 * `exec` per parenthesis cost 0.5 µs each, 1 MB of `(` 0.5 s).
 */
function parenFinder(
  sql: string,
  inString: (at: number) => boolean,
): (from: number, end: number) => number {
  let next = -2;
  return (from, end) => {
    if (next !== -1 && next < from) {
      next = -1;
      for (let index = from; index < sql.length; index++) {
        const code = sql.charCodeAt(index);
        if ((code === 0x28 || code === 0x29) && !inString(index)) {
          next = index;
          break;
        }
      }
    }
    return next !== -1 && next < end ? next : -1;
  };
}

// Blanks as JavaScript's `\s` reads them (the rules' regexes use `\s`): a
// no-break or ideographic space between `DELETE` and `FROM` is still one.
const isSpace = isJsSpace;
// Characters that end a command: the rest of the line is another command.
const isCommandEnd = (code: number) =>
  code === 0x3b /* ; */ || code === 0x26 /* & */ || code === 0x7c /* | */ || code === 0x0a;
const isWordCode = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f;

const rmTargets = new Set([
  '/',
  '/*',
  '*',
  ...['~', '$HOME', '.'].flatMap(base => [base, `${base}/`, `${base}*`, `${base}/*`]),
]);
const recursiveFlag = /^-(?:[a-zA-Z]*[rR]|-recursive$)/;

/**
 * The first `rm` that is recursive (`-r`, `-R`, `-rf`, `--recursive`) and
 * names `/`, `~`, `$HOME`, `.` or `*` (optionally with `/` and `*`). A
 * hand-written scan rather than a regex over repeated flags: each `rm`
 * reads its own words up to the end of its command, and the next search
 * starts after them, so every character is read a bounded number of times.
 */
function recursiveRm(value: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = value.indexOf('rm', from);
    if (at === -1) return undefined;
    from = at + 2;
    if ((at > 0 && isWordCode(value.charCodeAt(at - 1))) || !isSpace(value.charCodeAt(at + 2))) {
      continue;
    }
    const flags: string[] = [];
    let target: string | undefined;
    let index = at + 2;
    while (index < value.length) {
      const code = value.charCodeAt(index);
      if (isCommandEnd(code)) break;
      if (isSpace(code)) {
        index++;
        continue;
      }
      const wordStart = index;
      while (index < value.length) {
        const inner = value.charCodeAt(index);
        if (isSpace(inner) || isCommandEnd(inner)) break;
        index++;
      }
      const word = value.slice(wordStart, index);
      if (word.startsWith('-')) {
        if (flags.length < 16) flags.push(word.slice(0, 32));
      } else if (target === undefined && rmTargets.has(word)) target = word;
    }
    from = Math.max(from, index);
    if (target !== undefined && flags.some(flag => recursiveFlag.test(flag))) {
      return `rm ${flags.join(' ')} ${target}`;
    }
  }
}

/**
 * True when a match of `scan`'s `first` group (`curl`, `dd `) is followed
 * within `maxGap` characters, with no command end (`end` group) between, by
 * a match of its last alternative that `isFollowUp` accepts. One pass of one
 * regex plus an anchored (sticky) match at each candidate, so the cost is
 * linear however many `curl` or `|` the value holds (a bounded repetition
 * such as `[^|]{0,500}` would re-read up to 500 characters per `curl`).
 */
function followedOnSameCommand(
  value: string,
  findFirst: RegExp,
  scan: RegExp,
  isFollowUp: (match: RegExpExecArray) => boolean,
  maxGap: number,
): boolean {
  // Only `findFirst` runs while no download is pending, so a text of a
  // million newlines or pipes is one regex pass, not a million matches.
  let lastStart = -1;
  let position = 0;
  for (;;) {
    const pattern = lastStart === -1 ? findFirst : scan;
    pattern.lastIndex = position;
    const match = pattern.exec(value);
    if (match === null) return false;
    position = match.index + match[0].length;
    if (pattern === findFirst || match.groups?.first !== undefined) {
      lastStart = position;
    } else if (match.groups?.end !== undefined) {
      lastStart = -1;
    } else if (match.index - lastStart <= maxGap && isFollowUp(match)) {
      return true;
    }
    // Past the gap nothing can follow this download any more.
    if (lastStart !== -1 && position - lastStart > maxGap) lastStart = -1;
  }
}

const download = /\b(?:curl|wget|fetch)\b/g;
const pipeScan = /(?<first>\b(?:curl|wget|fetch)\b)|(?<end>[;&\n])|\|/g;
const interpreterAfterPipe = /\s*(?:sudo\s+)?(?:(?:ba|z|k|da)?sh|python[23]?|perl|ruby|node)\b/y;
const ddCommand = /\bdd\s/g;
const ddScan = /(?<first>\bdd\s)|(?<end>[;|&\n])|\bof=\/dev\/(?:sd|nvme|hd|disk|xvd)/g;
const forkBomb = /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/;
const diskWrite = /\bmkfs(?:\.\w+)?\s|>\s*\/dev\/sd[a-z]/;
const chmodRoot = /\bchmod\s+(?:-R\s+)?(?:777|a\+rwx)\s+\/(?=$|\s)/;

/** Destructive shell: recursive rm of /, ~ or *, curl | sh, fork bombs, disk wipes, chmod 777 /. */
export function shellViolation(value: string): RuleViolation | undefined {
  const rm = recursiveRm(value);
  if (rm !== undefined) return { rule: 'shell.rm-recursive', detail: rm };
  const pipesToShell = followedOnSameCommand(
    value,
    download,
    pipeScan,
    pipe => {
      interpreterAfterPipe.lastIndex = pipe.index + 1;
      return interpreterAfterPipe.test(value);
    },
    500,
  );
  if (pipesToShell) {
    return { rule: 'shell.pipe-to-shell', detail: 'download piped into an interpreter' };
  }
  if (forkBomb.test(value)) return { rule: 'shell.fork-bomb', detail: 'fork bomb' };
  if (diskWrite.test(value) || followedOnSameCommand(value, ddCommand, ddScan, () => true, 200)) {
    return { rule: 'shell.disk-wipe', detail: 'writes a disk device' };
  }
  if (chmodRoot.test(value)) return { rule: 'shell.chmod-root', detail: 'chmod 777 /' };
  return undefined;
}

// Any length: a cap here would let a long enough traversal pass unchecked.
const singlePath = /^\S+$/;
const traversal = /(?:^|[\\/]|%2f|%5c)(?:\.|%2e){2}(?:[\\/]|%2f|%5c|$)/i;
// POSIX, home, drive letter, or UNC (`\\server\share`).
const absolutePath = /^(?:\/|~\/|[a-zA-Z]:[\\/]|\\\\)/;
const lineBreak = /[\r\n]/;

/** Resolves `.` and `..` segments of an absolute path, with forward slashes. */
function normalizePath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const drive = /^[a-zA-Z]:/.test(path) ? '' : '/';
  return drive + segments.join('/');
}

/**
 * Path values (one token without spaces, or an absolute path on one line,
 * spaces and all: `/home/alice/My Documents`): `..` traversal, and when
 * `roots` are given, absolute paths outside every root.
 */
export function pathViolation(value: string, roots: readonly string[]): RuleViolation | undefined {
  // A space does not make an absolute path prose: `/etc/cron.d/evil job` is a file.
  const absolute = absolutePath.test(value) && !lineBreak.test(value);
  if (!absolute && !singlePath.test(value)) return undefined;
  // Details never quote the value: a path can itself be sensitive (a home
  // directory, a token in a file name), and records travel to logs and clients.
  if (traversal.test(value)) return { rule: 'path.traversal', detail: 'climbs out with ..' };
  if (roots.length > 0 && absolutePath.test(value)) {
    const path = normalizePath(value);
    const inside = roots.some(root => {
      const base = normalizePath(root).replace(/\/$/, '');
      return path === base || path.startsWith(`${base}/`);
    });
    if (!inside) {
      return { rule: 'path.outside-root', detail: `outside the roots ${roots.join(', ')}` };
    }
  }
  return undefined;
}
