/**
 * Near-duplicate overlap between the payloads of the composed rows
 * (harmful.jsonl) and the direct-mode attack sources: for each attack
 * source, how many of its rows contain (≥ 80% of the 5-token shingles of) a
 * harmful payload, and how many of those payloads come from a repository
 * other than the source itself (these would leak into a left-out source's
 * training data if origins were only the payload's own repository; the
 * trainer also leaves them out, see compose.ts). Prints a markdown table
 * and a few composed rows per family.
 *
 *   npx tsx scripts/train/compose/overlap.ts [--samples]
 */
import { syntheticRows } from '../augment';
import { type DataPaths, directRows, englishParagraphs } from '../injection-data';
import { composedRows, containment, loadPayloads, suffixWords } from './compose';

const paths: DataPaths = { corpora: '../shared/corpora', datasets: '../shared/datasets' };
const rows = [...directRows(paths), ...syntheticRows()];
const payloads = loadPayloads(paths, rows);
const harmful = payloads.filter(p => p.label === 1);
const attacks = rows.filter(row => row.label === 1);
const { payloadsOfRow } = containment(
  harmful.map(p => p.text),
  attacks,
);
const bySource = new Map<
  string,
  { rows: number; any: number; foreign: number; crossSource: number }
>();
for (const [index, row] of attacks.entries()) {
  const entry = bySource.get(row.group) ?? { rows: 0, any: 0, foreign: 0, crossSource: 0 };
  entry.rows++;
  const contained = payloadsOfRow[index]!;
  if (contained.length > 0) entry.any++;
  if (contained.some(p => !harmful[p]!.repositories.includes(row.group))) entry.foreign++;
  // The same payload also sits inside a row of another attack source (a near-duplicate
  // between sources that every model, composed rows or not, trains on when one is left out).
  if (contained.some(p => harmful[p]!.containedIn.some(group => group !== row.group))) {
    entry.crossSource++;
  }
  bySource.set(row.group, entry);
}
console.log(
  `${payloads.length} payloads (${harmful.length} harmful, ${payloads.length - harmful.length} benign)\n`,
);
console.log(
  '| attack source | rows | contain a harmful payload | … from another repository | … also inside another attack source |',
);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [group, entry] of [...bySource].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const share = (n: number) => `${n} (${(n / entry.rows).toFixed(3)})`;
  console.log(
    `| ${group} | ${entry.rows} | ${share(entry.any)} | ${share(entry.foreign)} | ${share(entry.crossSource)} |`,
  );
}
const originCount = new Map<string, number>();
for (const p of harmful) {
  for (const group of p.containedIn) originCount.set(group, (originCount.get(group) ?? 0) + 1);
}
console.log('\nharmful payloads contained in rows of each direct source (left out with it):');
for (const [group, count] of [...originCount].sort(([a], [b]) => (a < b ? -1 : 1))) {
  console.log(`  ${group}: ${count}`);
}
if (process.argv.includes('--samples')) {
  const composed = composedRows(payloads, suffixWords(englishParagraphs(paths)));
  const shown = new Map<string, number>();
  for (const row of composed) {
    const key = `${row.label} ${row.family}`;
    if ((shown.get(key) ?? 0) >= 2) continue;
    shown.set(key, (shown.get(key) ?? 0) + 1);
    console.log(`\n[${key}] origins ${row.origins?.join(', ')}\n${row.text.slice(0, 400)}`);
  }
}
