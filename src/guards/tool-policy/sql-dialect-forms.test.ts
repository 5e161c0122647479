import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configIssuesOf, notShownString } from '../../../test/helpers';
import { runSqlCalls } from '../../../test/helpers/sql-calls';
import { buildGuardrailsConfig } from '../../config/load-guardrails-config';
import type { SqlDialectName } from './constant-condition';
import { toolPolicy } from './tool-policy';

// Round 24: the WHERE evaluator read MySQL's "…" strings as names, read no
// row, ANY / ALL, ARRAY[…], INTERVAL 1 DAY, CAST(… AS …), CONVERT(type, …)
// or COLLATE, and took a function missing from its list of built-ins for a
// column: each a DELETE or UPDATE of every row that ran.

/** Each query as a guarded `runSql` call: what ran, and each call's record (without its duration) or 'ok'. */
async function run(queries: readonly string[], dialect?: SqlDialectName) {
  const { ran, outputs } = await runSqlCalls(queries, 'sql', dialect ? { dialect } : undefined);
  const records = outputs.map(output => {
    if (typeof output === 'string' || output.status !== 'blocked') return output;
    const { durationMs: _, ...record } = output.guardrail!;
    return record;
  });
  return { ran, records };
}

const blocked = (index: number, kind: 'delete' | 'update') => ({
  guardrail: 'tool-policy',
  kind: 'tool_input',
  status: 'blocked',
  message: 'This tool call is not allowed by the tool policy.',
  reason: `tool "runSql" argument "sql" broke rule sql.${kind}-without-where (${kind.toUpperCase()} without a WHERE clause)`,
  severity: 'critical',
  info: { tool: 'runSql', path: 'sql', rule: `sql.${kind}-without-where` },
  toolName: 'runSql',
  toolCallId: `c${index}`,
});

const kindOf = (query: string) => (query.startsWith('UPDATE') ? 'update' : 'delete');

describe('toolPolicy sql (round 24): dialect, rows, ANY / ALL, casts, intervals, functions of constants', () => {
  it('blocks constant WHEREs the evaluator did not read, in the default dialect', async () => {
    const queries = [
      // MySQL: two different strings.
      'DELETE FROM users WHERE "a" <> "b"',
      'DELETE FROM users WHERE id = 3 OR "x" = \'x\'',
      // Rows.
      'DELETE FROM users WHERE (1, 2) = (1, 2)',
      'DELETE FROM users WHERE ROW(1, 2) = ROW(1, 2)',
      'DELETE FROM users WHERE (1, 2) <> (1, 3)',
      'DELETE FROM users WHERE (1, 2) IN ((3, 4), (1, 2))',
      // ANY / SOME / ALL of an array.
      'DELETE FROM users WHERE 1 = ANY(ARRAY[1])',
      'DELETE FROM users WHERE 1 = SOME (ARRAY[2, 1])',
      'DELETE FROM users WHERE 1 <> ALL(ARRAY[2, 3])',
      'DELETE FROM users WHERE 1 = ANY(ARRAY[[1, 2], [3]]) OR id = 3',
      "DELETE FROM users WHERE 1 = ANY('{1}'::int[])",
      // Intervals.
      'DELETE FROM users WHERE current_date - INTERVAL 1 DAY < current_date',
      'DELETE FROM users WHERE id = 3 OR now() > now() - INTERVAL 1 + 1 DAY',
      "DELETE FROM users WHERE INTERVAL '1' YEAR TO MONTH IS NOT NULL",
      // Casts.
      "DELETE FROM users WHERE CAST('1' AS int) = 1",
      'DELETE FROM users WHERE TRY_CAST(1 AS varchar(10)) IS NOT NULL',
      'DELETE FROM users WHERE CONVERT(int, 1) = 1',
      'DELETE FROM users WHERE CONVERT(varchar(10), 1) IS NOT NULL',
      "DELETE FROM users WHERE CONVERT('a' USING utf8mb4) = 'a'",
      'DELETE FROM users WHERE 1::numeric(10, 2) IS NOT NULL',
      "DELETE FROM users WHERE '1'::double precision = 1",
      // COLLATE.
      "DELETE FROM users WHERE 'a' COLLATE \"C\" = 'a'",
      "DELETE FROM users WHERE 'a' = 'a' COLLATE utf8mb4_bin",
      // Functions of constants, listed as built-ins or not: one value for every row.
      "DELETE FROM users WHERE json_build_object('a', 1) IS NOT NULL",
      'DELETE FROM users WHERE gcd(4, 6) = 2',
      'DELETE FROM users WHERE id = 5 OR is_admin()',
      'DELETE FROM users WHERE id = 5 OR app.can_purge(42)',
      // Already blocked, pinned: NOT NOT, IS DISTINCT FROM, COALESCE, IIF, EXISTS of no table.
      'DELETE FROM users WHERE NOT NOT 1 = 1',
      'DELETE FROM users WHERE 1 IS DISTINCT FROM 2',
      'DELETE FROM users WHERE COALESCE(NULL, 1) = 1',
      'DELETE FROM users WHERE NULLIF(1, 2) = 1',
      'DELETE FROM users WHERE IIF(1 = 1, 1, 0) = 1',
      'DELETE FROM users WHERE EXISTS (SELECT 1)',
      'UPDATE users SET admin = 1 WHERE (1, 2) = (1, 2)',
      'UPDATE users SET admin = 1 WHERE "on" = "on"',
    ];
    const { ran, records } = await run(queries);
    expect(ran).toEqual([]);
    expect(records).toEqual(queries.map((query, index) => blocked(index, kindOf(query))));
  });

  it('keeps running ordinary statements: columns, parameters, comments, strings with SQL words', async () => {
    const queries = [
      'DELETE FROM users WHERE id = $1',
      'DELETE FROM users WHERE id = ?',
      'DELETE FROM users WHERE id = :id',
      'DELETE FROM users WHERE id = @id',
      'DELETE FROM users WHERE id = 1 -- or 1=1',
      'DELETE FROM users WHERE id = 1 /* or 1=1 */',
      "DELETE FROM users WHERE note = 'or 1=1'",
      "DELETE FROM users WHERE note = 'delete from users where 1=1'",
      'DELETE FROM users WHERE (a, b) = (1, 2)',
      'DELETE FROM users WHERE (a, b) IN ((1, 2), (3, 4))',
      'DELETE FROM users WHERE ROW(a, b) = ROW(1, 2)',
      'DELETE FROM users WHERE id = ANY($1)',
      'DELETE FROM users WHERE id = ANY(ARRAY[1, 2, 3])',
      'DELETE FROM users WHERE id <> ALL(SELECT user_id FROM keep)',
      "DELETE FROM sessions WHERE created < now() - INTERVAL '30 days'",
      'DELETE FROM sessions WHERE created < now() - INTERVAL 30 DAY',
      'DELETE FROM sessions WHERE interval = 5',
      'DELETE FROM users WHERE id = CAST(? AS int)',
      'DELETE FROM users WHERE CAST(id AS text) = $1',
      'DELETE FROM users WHERE CONVERT(int, id) = 1',
      'DELETE FROM users WHERE id::text = $1',
      'DELETE FROM users WHERE name = \'x\' COLLATE "C"',
      'DELETE FROM users WHERE COALESCE(deleted, false)',
      'DELETE FROM users WHERE lower(email) = $1',
      'DELETE FROM users WHERE "userId" = $1',
      'DELETE FROM users WHERE id = 5 AND is_admin()',
      "UPDATE users SET name = 'x' WHERE id = 1 AND tags && ARRAY['a']",
    ];
    const { ran, records } = await run(queries);
    expect(ran).toEqual(queries);
    expect(records).toEqual(queries.map(() => 'ok'));
  });

  it('reads "…" as each database does: a string in MySQL (and by default), a name in PostgreSQL', async () => {
    const queries = [
      'DELETE FROM users WHERE "a" <> "b"',
      'DELETE FROM orders WHERE "status" <> \'archived\'',
      'DELETE FROM users WHERE "deletedAt" IS NOT NULL',
      // MySQL: id = 3 OR 1, every row; PostgreSQL: id = '31'.
      'DELETE FROM users WHERE id = 3 || 1',
      // A comment in PostgreSQL; MySQL runs the DROP.
      'SELECT 1 /*!50000DROP TABLE users*/',
    ];
    const verdicts: Record<SqlDialectName, string[]> = {} as never;
    for (const dialect of ['any', 'mysql', 'postgres', 'sqlite', 'mssql'] as const) {
      const { ran } = await run(queries, dialect);
      verdicts[dialect] = queries.map(query => (ran.includes(query) ? 'runs' : 'blocked'));
    }
    expect(verdicts).toEqual({
      any: ['blocked', 'blocked', 'blocked', 'blocked', 'blocked'],
      mysql: ['blocked', 'blocked', 'blocked', 'blocked', 'blocked'],
      postgres: ['runs', 'runs', 'runs', 'runs', 'runs'],
      // SQLite reads a "…" that names no column as a string; SQL Server with QUOTED_IDENTIFIER OFF.
      sqlite: ['blocked', 'blocked', 'blocked', 'runs', 'runs'],
      mssql: ['blocked', 'blocked', 'blocked', 'runs', 'runs'],
    });
  });

  it('reads on after an operator it does not know: the next top-level OR that holds still counts', async () => {
    const deletes = [
      'DELETE FROM users WHERE a @> b OR 1+1=2',
      "DELETE FROM users WHERE data->>'x' = 'y' OR 2 > 1 + 0",
      "DELETE FROM users WHERE tags ?| array['x'] OR (2 = 1 + 1)",
      'DELETE FROM users WHERE doc @@ q AND id = 3 OR 5 BETWEEN 1 AND 9',
      'DELETE FROM users WHERE a @> b OR b @> c OR 2+2=4 RETURNING *',
    ];
    const runs = [
      'DELETE FROM users WHERE (a @> b OR 1=1) AND id = 3',
      'DELETE FROM users WHERE NOT (a @> b OR 1=1)',
      'DELETE FROM users WHERE f(a @> b OR 1=1) = 0',
      "DELETE FROM users WHERE a @> b OR note = 'x OR 1=1'",
      'DELETE FROM users WHERE CASE WHEN a @> b OR 1=1 THEN 0 ELSE 0 END = 1',
      "DELETE FROM users WHERE data->>'x' = $1 OR id = 2",
    ];
    const { ran, records } = await run([...deletes, ...runs]);
    expect(ran).toEqual(runs);
    expect(records).toEqual([
      ...deletes.map((_, index) => blocked(index, 'delete')),
      ...runs.map(() => 'ok'),
    ]);
  });

  it('takes dialect from code and config files, and refuses a database it does not know', async () => {
    const { guardTools } = buildGuardrailsConfig({
      tool_input: [{ type: 'tool-policy', dialect: 'postgres' }],
    });
    const ran: string[] = [];
    const tools = guardTools({
      runSql: tool({
        inputSchema: z.object({ sql: z.string() }),
        execute: async ({ sql }) => {
          ran.push(sql);
          return 'ok';
        },
      }),
    });
    const options = { toolCallId: 'c0', messages: [], context: {} };
    await tools.runSql.execute!({ sql: 'DELETE FROM users WHERE "a" <> "b"' }, options);
    const blockedCall = await tools.runSql.execute!({ sql: 'DELETE FROM users' }, options);
    expect(ran).toEqual(['DELETE FROM users WHERE "a" <> "b"']);
    expect(blockedCall).toMatchObject({ status: 'blocked' });
    expect(configIssuesOf(() => toolPolicy({ dialect: 'oracle' as never }))).toEqual([
      {
        path: 'tool-policy.dialect',
        value: notShownString('oracle'),
        expected: "'postgres', 'mysql', 'sqlite', 'mssql' or 'any'",
      },
    ]);
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({ tool_input: [{ type: 'tool-policy', dialect: 'oracle' }] }),
      ).map(issue => issue.path),
    ).toEqual(['tool_input[0].dialect']);
  });
});
