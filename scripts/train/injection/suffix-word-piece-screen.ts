/**
 * Round 49 (hD, issue 15): the screen of the word-piece suffix gate
 * (`suffix-word-piece-gate.ts`, variant F; no model, no training).
 *
 * Pass rule (round 46's, unchanged, written before the run): on every
 * benign source (label 0; direct and indirect corpora and dev sets,
 * harmful.jsonl's negatives by kind, the synthetic hand-written rows) the
 * gate (round 46's gate, `adversarialSuffixStart`, or variant F's
 * word-piece gate) opens on at most 0.5% of its rows (a source of fewer than
 * 200 rows: at most 1 row). Otherwise not trained.
 *
 *   nice -n 10 npx tsx scripts/train/injection/suffix-word-piece-screen.ts
 */

import { dominantScript } from '../../../src/guards/harmful-content/script';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import { adversarialSuffixStart } from '../../../src/guards/prompt-injection/suffix-gate';
import { wordPieceSuffixStart } from '../../../src/guards/prompt-injection/suffix-word-piece-gate';
import type { DataPaths } from '../injection-data';
import { screenRows } from './suffix-one-script-screen';
import { WordSet } from './word-pieces';
import { vocabularyHashes } from './word-vocabulary';

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths: DataPaths = { corpora: '../shared/corpora', datasets: '../shared/datasets' };
  const rows = screenRows(paths);
  const vocabulary = new WordSet(vocabularyHashes(paths));
  console.log(`vocabulary ${vocabulary.size} hashes`);
  const counts = new Map<string, { rows: number; old: number; f: number; only: number }>();
  for (const row of rows) {
    const adaptive = row.group === 'direct:tml-epfl/llm-adaptive-attacks';
    const key = `${row.label}\t${row.group}${adaptive ? ` ${row.family}` : ''}`;
    const count = counts.get(key) ?? { rows: 0, old: 0, f: 0, only: 0 };
    const folded = foldText(row.text);
    count.rows++;
    const old = adversarialSuffixStart(folded) >= 0;
    const latin = dominantScript(folded) === 'latin';
    const pieces = wordPieceSuffixStart(folded, vocabulary, latin) >= 0;
    if (old) count.old++;
    if (old || pieces) count.f++;
    if (pieces && !old) count.only++;
    counts.set(key, count);
  }
  const fails: string[] = [];
  console.log('label\tsource\trows\tround46 gate\tF\tF only');
  for (const [key, count] of [...counts].sort()) {
    console.log(`${key}\t${count.rows}\t${count.old}\t${count.f}\t${count.only}`);
    if (!key.startsWith('0\t')) continue;
    const allowed = count.rows < 200 ? 1 : 0.005 * count.rows;
    if (count.f > allowed) fails.push(`${key.slice(2)} ${count.f}/${count.rows}`);
  }
  console.log(`F ${fails.length === 0 ? 'passes' : `fails: ${fails.join(', ')}`}`);
}
