/**
 * Linear cost of `toolPolicy`'s SQL reader on shapes that were quadratic:
 * each shape at 128 KB and at 512 KB (four times the text), the CPU time of
 * the cheapest of a few calls of `sqlViolation` (default `dialect: 'any'`)
 * in this process, and their ratio. Linear is about 4; the check fails
 * (exit 1) past 10, where quadratic is about 16. A ratio of two sizes in one
 * process, so a loaded machine moves both sides alike.
 *
 *   npx tsx bench/tool-policy-sql.ts
 *
 * Round 34: a statement of parenthesized DELETEs with a WHERE each and no
 * `;`, with a backtick-quoted name inside (so the readings differ and share
 * their evaluations): each WHERE's shared answer was checked by comparing
 * the two readings' text from it to the statement's end, and each
 * condition looked for a `$` to the value's end.
 *
 * Round 35: the readers of a scalar subquery's select item, a common
 * table's query and the statement's table list (a self-join); the last is
 * read again for each WHERE, so statements nested in one another's SET
 * were quadratic until charged to the reading budget.
 *
 * Round 36: a parenthesized query found by its first branch's `)` (once for
 * the `(`s around it), EXISTS of branches without a table, calls of one
 * argument written again and again, MERGE's ON read for a WHEN MATCHED
 * THEN UPDATE.
 *
 * Round 38: casts, CASEs and IFs for COALESCE, functions never negative,
 * numbers past 2^53 (exact digits), subqueries the same for every row
 * named by their text, IN of the target under a row limit or a join (each
 * join's ON read once), MERGE of the target with itself and the WHEREs
 * that end a MERGE clause (Oracle's UPDATE SET list read once).
 *
 * Round 37: MERGE clauses' AND conditions (each read to its THEN), one
 * MERGE of many clauses under a long ON (the ON read once per statement,
 * not once per clause), calls that are their first argument, IN lists and
 * ranges as conditions on a column, IN of the target under a WHERE that
 * holds, EXISTS of a branch without a table around another EXISTS.
 */
import { sqlViolation } from '../src/guards/tool-policy/argument-rules';

const KB = 1_024;
const RUNS = Number(process.env.SQL_BENCH_RUNS ?? 5);
const LIMIT = 10;

/** `unit` repeated to `size` characters, with `middle` halfway. */
function around(unit: string, middle: string, size: number): string {
  const half = unit.repeat(Math.ceil(size / 2 / unit.length));
  return half + middle + half;
}

/** A DELETE whose WHERE is `unit` repeated to `size` characters, then `1=0`. */
const where = (unit: string) => (size: number) =>
  `DELETE FROM t WHERE ${around(unit, '', size)}1=0`;

const shapes: Record<string, (size: number) => string> = {
  'parenthesized DELETEs, a backtick name inside': size =>
    around('(DELETE FROM t WHERE id = 1) ', '`x`', size),
  'parenthesized DELETEs and commas, a backtick name inside': size =>
    around('(DELETE FROM t WHERE id = 1), ', '`x`', size),
  'parenthesized DELETEs, a backtick at the end': size =>
    `${around('(DELETE FROM t WHERE id = 1) ', '', size)}\``,
  'DELETE statements, a backtick at the end': size =>
    `${around('(DELETE FROM t WHERE id = 1); ', '', size)}\``,
  // Round 35's readers: a scalar subquery's select item, a common table's
  // query, the statement's table list (read again for each WHERE of column
  // pairs), UPDATEs nested in one another's SET (past the budget: blocked).
  'scalar subqueries of the outer column': size =>
    `DELETE FROM t WHERE ${around('id = (SELECT t.id FROM s WHERE s.b = t.b) AND ', '', size)}1=0`,
  'EXISTS over a common table of the target': size =>
    `WITH c AS (SELECT * FROM t) DELETE FROM t WHERE ${around('EXISTS (SELECT 1 FROM c WHERE c.id = t.id AND c.a = 1) AND ', '', size)}1=0`,
  'DELETEs joining the target with itself': size =>
    around('(DELETE FROM t USING t x WHERE x.id = t.id AND x.a = 1) ', '', size),
  'UPDATEs nested in SET, WHEREs of column pairs': size => {
    const depth = Math.floor(size / 40);
    return `${'UPDATE t SET a = ('.repeat(depth)}SELECT 1${' WHERE x.id = t.id)'.repeat(depth)}`;
  },
  // Round 36: parenthesized first branches (each query's `)` found once for
  // the `(`s around it), EXISTS of a branch without a table (its WHERE
  // read as the outer row's), calls of one argument again and again.
  'scalar subqueries with a parenthesized first branch': size =>
    `DELETE FROM t WHERE ${around('id = ((SELECT a FROM v WHERE 1=0) UNION (SELECT t.id)) AND ', '', size)}1=0`,
  'groups around a subquery, 200 deep': size =>
    `DELETE FROM t WHERE ${'('.repeat(200)}SELECT a FROM v WHERE ${around('v.x = 1 AND ', '', size)}1=1)${' + 1)'.repeat(199)} = id`,
  'EXISTS of branches without a table': size =>
    `DELETE FROM t WHERE ${around('EXISTS (SELECT 1 WHERE id = 5 AND x = 1) AND ', '', size)}1=0`,
  'COALESCE of one column again and again': size =>
    `DELETE FROM t WHERE COALESCE(${around('id, ', '', size)}id) = id + 1`,
  'MERGE statements, WHEN MATCHED THEN UPDATE': size =>
    around(
      'MERGE INTO t USING s ON t.id = s.id AND s.a = (1) WHEN MATCHED THEN UPDATE SET x = 1; ',
      '',
      size,
    ),
  'one MERGE, its ON a long condition': size =>
    `MERGE INTO t USING s ON ${around('t.id = s.id AND ', '', size)}1=1 WHEN MATCHED THEN UPDATE SET x = 1`,
  // Round 37.
  'MERGE statements, clauses with AND conditions': size =>
    around(
      'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND t.a = 1 THEN DELETE WHEN NOT MATCHED BY SOURCE AND CASE WHEN t.b = 1 THEN 1 END = 1 THEN UPDATE SET x = 1; ',
      '',
      size,
    ),
  'one MERGE, a long ON and many clauses': size =>
    `MERGE INTO t USING s ON ${around('t.id = s.id AND ', '', size / 2)}1=1 ${around(
      'WHEN NOT MATCHED BY SOURCE THEN UPDATE SET x = 1 WHEN MATCHED AND t.a = 1 THEN UPDATE SET x = 2 ',
      '',
      size / 2,
    )}`,
  'calls that are their first argument': size =>
    `DELETE FROM t WHERE ${around('COALESCE(id, 0) = id + 1 AND GREATEST(a, 5) <= a AND ', '', size)}1=0`,
  'IN lists and ranges ORed': size =>
    `DELETE FROM t WHERE ${around('id IN (1, 2, 3) OR a NOT BETWEEN 1 AND 5 OR ', '', size)}1=0`,
  'IN of the target under a WHERE': size =>
    `DELETE FROM t WHERE ${around('id IN (SELECT id FROM t WHERE 1=1 ORDER BY id LIMIT 5) AND ', '', size)}1=0`,
  'EXISTS without a table around EXISTS': size =>
    `DELETE FROM t WHERE ${around('EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 FROM s WHERE s.a = t.id)) AND ', '', size)}1=0`,
  // Round 38 (`where`: a DELETE whose WHERE is `unit` again and again).
  'casts, CASEs for COALESCE, functions never negative': where(
    'COALESCE(id, 0) = a::int AND CASE WHEN id IS NULL THEN 0 ELSE CAST(a AS int) END = id AND abs(id) > 0 AND IIF(b IS NULL, 0, b) = a AND ',
  ),
  'numbers past 2^53': where('id > 9223372036854775808 OR a <= 18446744073709551616.5 OR '),
  'subqueries the same for every row, written twice': where(
    'id = (SELECT max(id) FROM t) OR a <> (SELECT max(id) FROM t) OR ',
  ),
  'IN of the target under a limit or a join': where(
    'id IN (SELECT x.id FROM t x JOIN s ON s.a = x.a LIMIT 1000000000) AND id IN (SELECT a.id FROM t a JOIN t b ON a.id < b.id) AND ',
  ),
  'MERGE statements of the target with itself, Oracle DELETE WHERE': size =>
    around(
      'MERGE INTO t t2 USING t ON t2.id = t.id AND t.a = 1 WHEN MATCHED THEN UPDATE SET x = 1 WHERE t2.b = 2 DELETE WHERE t2.c = 3; ',
      '',
      size,
    ),
  'one MERGE, a long Oracle UPDATE SET list': size =>
    `MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET ${around('x = (SELECT 1 FROM u WHERE u.a = 1), ', '', size)}y = 1 DELETE WHERE t.a = 1`,
};

function fastest(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run++) {
    const started = process.cpuUsage();
    sqlViolation(text);
    const { user, system } = process.cpuUsage(started);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

console.log('\n## toolPolicy SQL: cost at 128 KB and 512 KB (CPU, cheapest of runs)\n');
console.log('| shape | 128 KB | 512 KB | ratio (linear ≈ 4) |');
console.log('|---|--:|--:|--:|');
for (const [name, make] of Object.entries(shapes)) {
  const small = make(128 * KB);
  const large = make(512 * KB);
  fastest(small);
  const smallMs = fastest(small);
  const largeMs = fastest(large);
  // A floor of 1 ms keeps a timer's granularity from making the ratio.
  const ratio = largeMs / Math.max(smallMs, 1);
  console.log(
    `| ${name} | ${smallMs.toFixed(1)} ms | ${largeMs.toFixed(1)} ms | ${ratio.toFixed(1)}x${ratio > LIMIT ? ' (over 10)' : ''} |`,
  );
  if (ratio > LIMIT) process.exitCode = 1;
}
