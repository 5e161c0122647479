import { describe, expect, it } from 'vitest';
import { runSqlCalls } from '../../../test/helpers/sql-calls';

// The sql rules read a DELETE or UPDATE only at a statement's start, in one
// shape (`DELETE FROM t`, `UPDATE t SET`), and DROP / ALTER ... DROP in one
// shape each: the model (or whoever writes its prompt) wrote the same
// statements in forms every database runs.

/** Each query as a guarded `runSql` call: what ran, and each block's rule ('ok' where it ran). */
async function run(queries: readonly string[]) {
  const { ran, outputs } = await runSqlCalls(queries);
  const rules = outputs.map(output =>
    typeof output !== 'string' && output.status === 'blocked'
      ? (output.guardrail?.info as { rule?: string } | undefined)?.rule
      : output,
  );
  return { ran, rules };
}

describe('toolPolicy sql: statements in the forms databases run', () => {
  it('blocks a DELETE or UPDATE without WHERE after WITH, EXPLAIN ANALYZE, PREPARE, DO $$ or a parenthesis, and in MySQL/PostgreSQL forms', async () => {
    const deletes = [
      'WITH x AS (SELECT 1) DELETE FROM users',
      'EXPLAIN ANALYZE DELETE FROM users',
      'PREPARE p AS DELETE FROM users; EXECUTE p',
      'DO $$BEGIN DELETE FROM users; END$$',
      '(DELETE FROM users)',
      'DELETE IGNORE FROM users',
      'DELETE LOW_PRIORITY QUICK FROM users',
      'DELETE u FROM users u',
      'DELETE FROM users WHERE 2=2',
    ];
    const updates = [
      'UPDATE users AS u SET admin = 1',
      'UPDATE users u SET admin = 1',
      'UPDATE LOW_PRIORITY users SET admin = 1',
      'UPDATE ONLY users SET admin = 1',
      'UPDATE a, b SET a.admin = 1',
      'UPDATE`users`SET admin = 1',
      "UPDATE users SET admin = 1 WHERE'1'='1'",
    ];
    const { ran, rules } = await run([...deletes, ...updates]);
    expect(ran).toEqual([]);
    expect(rules).toEqual([
      ...deletes.map(() => 'sql.delete-without-where'),
      ...updates.map(() => 'sql.update-without-where'),
    ]);
  });

  it('blocks DROP and ALTER TABLE ... DROP in their other forms', async () => {
    const { ran, rules } = await run([
      'DROP TEMPORARY TABLE sessions',
      'DROP MATERIALIZED VIEW monthly',
      'DROP SEQUENCE users_id_seq',
      'DROP EXTENSION pgcrypto',
      'ALTER TABLE IF EXISTS users DROP COLUMN email',
      'ALTER TABLE ONLY users DROP COLUMN email',
      'ALTER TABLE users ADD COLUMN x int, DROP COLUMN email',
    ]);
    expect(ran).toEqual([]);
    expect(rules).toEqual([...Array(4).fill('sql.drop'), ...Array(3).fill('sql.alter-drop')]);
  });

  it('still runs what only looks alike: words in strings, upserts, keys, locks, a real WHERE', async () => {
    const queries = [
      "SELECT 'delete from users'",
      "INSERT INTO notes VALUES ('update users set x = 1')",
      'INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 2',
      'INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 2',
      'CREATE TABLE t (a int REFERENCES u ON DELETE CASCADE ON UPDATE SET NULL)',
      'SELECT * FROM jobs FOR UPDATE SKIP LOCKED',
      'ALTER TABLE t ALTER COLUMN c DROP DEFAULT',
      'ALTER TABLE t ADD COLUMN drop_date date',
      'WITH x AS (SELECT 1) DELETE FROM users WHERE id = 5',
      'UPDATE users AS u SET admin = 0 WHERE u.id = 5',
      'SELECT deleted_at, last_update FROM t',
    ];
    const { ran, rules } = await run(queries);
    expect(ran).toEqual(queries);
    expect(rules).toEqual(queries.map(() => 'ok'));
  });

  it("blocks a MERGE that deletes every match, a CTE DELETE whose WHERE is the outer query's, and an always-true WHERE", async () => {
    const deletes = [
      'MERGE INTO users u USING banned b ON u.id = b.id WHEN MATCHED THEN DELETE',
      'MERGE users AS t USING (SELECT 1 AS x) s ON 1=1 WHEN MATCHED THEN DELETE;',
      'MERGE INTO users t USING src s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE',
      'WITH d AS (DELETE FROM users RETURNING *) SELECT * FROM d WHERE d.id > 0',
      'WITH a AS (DELETE FROM logs WHERE id = 1 RETURNING *), b AS (DELETE FROM users RETURNING *) SELECT 1',
      'DELETE FROM users USING (SELECT id FROM banned WHERE id > 0) b',
      'DELETE FROM users WHERE id > 0 OR 1=1',
      "DELETE FROM users WHERE name = 'x' OR 'a'='a' RETURNING *",
      'DELETE FROM users WHERE (id = 3 OR (2 = 2))',
      'DELETE FROM users WHERE id = 3 || 1',
      'DELETE FROM users WHERE 1 IS NOT NULL',
      'DELETE FROM users WHERE id = id',
    ];
    const updates = [
      'UPDATE users SET admin = 1 WHERE id = 5 or true',
      'UPDATE users SET admin = (SELECT 1 FROM roles WHERE roles.id = 2)',
      'UPDATE users SET admin = 1 WHERE (1=1) ORDER BY id LIMIT 10',
    ];
    const { ran, rules } = await run([...deletes, ...updates]);
    expect(ran).toEqual([]);
    expect(rules).toEqual([
      ...deletes.map(() => 'sql.delete-without-where'),
      ...updates.map(() => 'sql.update-without-where'),
    ]);
  });

  it('still runs a MERGE with a condition, a CTE DELETE with its own WHERE and WHEREs that filter', async () => {
    const queries = [
      'MERGE INTO users u USING banned b ON u.id = b.id WHEN MATCHED AND b.until < now() THEN DELETE',
      'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)',
      'MERGE INTO t USING s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.v DELETE WHERE t.v IS NULL',
      'WITH d AS (DELETE FROM users WHERE id = 3 RETURNING *) SELECT * FROM d WHERE true',
      'DELETE FROM users WHERE id = 1 OR id = 2',
      'DELETE FROM users WHERE (id = 1 OR 1=1) AND id = 3',
      'DELETE FROM users WHERE 1=1 AND id = 3',
      'DELETE FROM sessions WHERE expires_at IS NOT NULL',
      "UPDATE users SET note = 'or 1=1' WHERE id = 1",
      'UPDATE users SET admin = 0 WHERE id IN (SELECT id FROM x WHERE 1=1)',
      "DELETE FROM users WHERE id = 11 OR '1=1' = 'x'",
    ];
    const { ran, rules } = await run(queries);
    expect(ran).toEqual(queries);
    expect(rules).toEqual(queries.map(() => 'ok'));
  });

  it('blocks CREATE OR REPLACE TABLE, keywords split by Unicode spaces and comparisons of literals that always hold', async () => {
    const drops = [
      'CREATE OR REPLACE TABLE users (id int)',
      'create or replace transient table users as select 1',
      'CREATE\u00A0OR\u2003REPLACE TABLE users (id int)',
    ];
    const deletes = [
      'DELETE\u00A0FROM users',
      'DELETE\u3000FROM users',
      'DELETE IGNORE\u2009FROM users',
      'DELETE FROM users WHERE 1<>2',
      'DELETE FROM users WHERE 1.0=1.0',
      'DELETE FROM users WHERE 1 = 1 AND 2 = 2',
      'DELETE FROM users WHERE id = 4 OR 2 > 1',
      "DELETE FROM users WHERE 'a' != 'b'",
      'DELETE FROM users WHERE 1 <=> 1',
      'DELETE FROM users WHERE 0.5 < 2 AND true',
    ];
    const updates = [
      'UPDATE users\u00A0SET admin = 1',
      'UPDATE users SET admin = 1 WHERE 3 >= 03.0',
    ];
    const { ran, rules } = await run([...drops, ...deletes, ...updates]);
    expect(ran).toEqual([]);
    expect(rules).toEqual([
      ...drops.map(() => 'sql.drop'),
      ...deletes.map(() => 'sql.delete-without-where'),
      ...updates.map(() => 'sql.update-without-where'),
    ]);
  });

  it('still runs CREATE OR REPLACE VIEW, comparisons that fail and conjunctions with a real filter', async () => {
    const queries = [
      'CREATE OR REPLACE VIEW v AS SELECT 1',
      'CREATE OR REPLACE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql',
      'CREATE TABLE IF NOT EXISTS users (id int)',
      'DELETE FROM users WHERE 1<>1',
      'DELETE FROM users WHERE 1.0=1.5',
      'DELETE FROM users WHERE 1 = 1 AND id = 2',
      'DELETE FROM users WHERE 2 < 1 OR id = 3',
      "DELETE FROM users WHERE 'a' <> 'a'",
      'DELETE\u00A0FROM users WHERE id = 7',
      'UPDATE users SET admin = 0 WHERE 1 = 1 AND 2 = 2 AND id = 9',
    ];
    const { ran, rules } = await run(queries);
    expect(ran).toEqual(queries);
    expect(rules).toEqual(queries.map(() => 'ok'));
  });

  it('blocks a WHERE whose condition is constant and holds: literals, operators and parentheses evaluated, with or without columns beside', async () => {
    const deletes = [
      "DELETE FROM users WHERE 1='1'",
      'DELETE FROM users WHERE (1=1) AND (2=2)',
      'DELETE FROM users WHERE 1+1=2',
      'DELETE FROM users WHERE NOT (1=0)',
      'DELETE FROM users WHERE ((2*3 = 6)) RETURNING id',
      'DELETE FROM users WHERE -(-1) >= 1 AND 7 % 2 = 1',
      'DELETE FROM users WHERE NULL IS NULL',
      'DELETE FROM users WHERE (1 = 1) IS TRUE',
      "DELETE FROM users WHERE 1 = '1abc'",
      "DELETE FROM users WHERE 'yes'",
      'DELETE FROM users WHERE 1 XOR 0',
      'DELETE FROM users WHERE 0.1 + 0.2 = 0.3',
      'DELETE FROM users WHERE id = 3 OR (1=1 AND 2=2)',
      'DELETE FROM users WHERE id = 3 OR NOT FALSE',
      'DELETE FROM users WHERE 1::int = 1',
      'WITH d AS (DELETE FROM users WHERE 1+1=2 RETURNING id) SELECT * FROM d',
    ];
    const updates = ['UPDATE users SET admin = 1 WHERE (1=1) AND (2=2) AND (3=3)'];
    const { ran, rules } = await run([...deletes, ...updates]);
    expect(ran).toEqual([]);
    expect(rules).toEqual([
      ...deletes.map(() => 'sql.delete-without-where'),
      ...updates.map(() => 'sql.update-without-where'),
    ]);
  });

  it('still runs WHEREs that read a column or a parameter, and constant ones that never hold', async () => {
    const queries = [
      'DELETE FROM users WHERE id = 1',
      "DELETE FROM users WHERE a = '1'",
      'DELETE FROM users WHERE 1=0',
      'DELETE FROM users WHERE (1=1) AND (id=2)',
      'DELETE FROM users WHERE 1+1=3 OR id = 4',
      'DELETE FROM users WHERE NOT (1=1)',
      'DELETE FROM users WHERE 1 IS NULL',
      "DELETE FROM users WHERE 'abc'",
      'DELETE FROM users WHERE id = ? AND 1=1',
      'DELETE FROM users WHERE id = $1',
      'DELETE FROM users WHERE lower(email) = :email',
      "DELETE FROM users WHERE name = first || ' ' || last",
      "DELETE FROM users WHERE created < now() - interval '30 days'",
      'DELETE FROM users WHERE id IN (1, 2, 3)',
      'DELETE FROM users WHERE id = (SELECT max(id) FROM users)',
      'UPDATE users SET admin = 0 WHERE "Id" = 9 AND 2 = 2',
    ];
    const { ran, rules } = await run(queries);
    expect(ran).toEqual(queries);
    expect(rules).toEqual(queries.map(() => 'ok'));
  });
});

// Round 30: SQL Server and Oracle run `DELETE t` (FROM is optional there);
// it was not read as a DELETE, so `DELETE users` ran.
describe('toolPolicy sql (round 30): DELETE without FROM', () => {
  it('blocks SQL Server and Oracle deletes that name their table without FROM', async () => {
    const queries = [
      'DELETE users',
      'DELETE dbo.users WHERE 1=1',
      'DELETE [dbo].[users] u WHERE 1 = 1',
      'DELETE "users" OUTPUT deleted.id',
      'SELECT 1; DELETE t',
    ];
    const { ran, rules } = await run(queries);
    expect(ran).toEqual([]);
    expect(rules).toEqual(queries.map(() => 'sql.delete-without-where'));
  });

  it('runs a filtered one, and DELETE in DDL, grants and triggers', async () => {
    const queries = [
      'DELETE users WHERE id = 3',
      'ALTER TABLE a ADD FOREIGN KEY (b) REFERENCES c (d) ON DELETE CASCADE',
      'ALTER TABLE a ADD FOREIGN KEY (b) REFERENCES c (d) ON DELETE SET NULL;',
      'GRANT SELECT, DELETE ON users TO bob',
      'CREATE TRIGGER x ON t FOR DELETE AS SELECT 1',
    ];
    const { ran, rules } = await run(queries);
    expect(ran).toEqual(queries);
    expect(rules).toEqual(queries.map(() => 'ok'));
  });
});
