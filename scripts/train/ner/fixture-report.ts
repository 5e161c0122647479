/**
 * The shipped tagger (`findNamedEntities`: the committed model with its span
 * rules) on a hand-written fixture: exact / overlap / character P, R, F1 per
 * type, then the errors by class. Rows are shown only with NER_EXAMPLES=n
 * (default 0: a blind set is described by categories, never by its rows).
 *
 *   npx tsx scripts/train/ner/fixture-report.ts [test/fixtures/ner-sentences-2.jsonl]
 */
import { resolve } from 'node:path';
import { findNamedEntities } from '../../../src/guards/pii/ner/find-named-entities';
import type { NerSpan } from '../../../src/guards/pii/ner/tagger';
import { fixtureRows } from './data';
import { errorReport } from './errors';
import { emptyTallies, table, tally } from './evaluate';

const root = resolve(import.meta.dirname, '../../..');
const path = resolve(root, process.argv[2] ?? 'test/fixtures/ner-sentences-2.jsonl');
const rows = fixtureRows(path);
const tallies = emptyTallies();
const predictions = new Map<string, NerSpan[]>();
const sequences = rows.map((row, index) => {
  const id = `fixture-${index + 1}`;
  const spans = findNamedEntities(row.text);
  predictions.set(id, spans);
  tally(tallies, row.text, spans, row.spans);
  return { id, group: 'fixture', text: row.text, spans: row.spans };
});
console.log(`## ${path.slice(root.length + 1)} (${rows.length} sentences), shipped model\n`);
console.log(`${table(tallies)}\n`);
console.log(errorReport(sequences, predictions, Number(process.env.NER_EXAMPLES ?? 0)));
