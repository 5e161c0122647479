/**
 * Speed of the NER tagger on real text, against findPii's pattern entities
 * in the same run (a ratio survives a busy machine; MB/s alone does not).
 *
 *   npx tsx scripts/train/ner/speed.ts [--datasets DIR] [--corpora DIR]
 *
 * Texts: the dev sets' `text` fields concatenated in file order, and the
 * first 2 MB of the English prose corpus. Median of 5 runs after a warm-up.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findPii } from '../../../src/guards/pii/find-pii-bundled';
import { findNamedEntities } from '../../../src/guards/pii/ner/find-named-entities';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

const root = resolve(import.meta.dirname, '../../..');
const datasets = resolve(argument('--datasets', join(root, '../shared/datasets')));
const corpora = resolve(argument('--corpora', join(root, '../shared/corpora')));

const devText = readdirSync(datasets)
  .filter(name => name.endsWith('.dev.jsonl'))
  .sort()
  .flatMap(name =>
    readFileSync(join(datasets, name), 'utf8')
      .split('\n')
      .filter(line => line.trim())
      .map(line => (JSON.parse(line) as { text: string }).text),
  )
  .join('\n');
const prose = readFileSync(join(corpora, 'english_text.txt'), 'utf8').slice(0, 2_000_000);

function megabytesPerSecond(run: () => unknown, text: string): number {
  run();
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return text.length / 1e6 / (times[2]! / 1000);
}

for (const [name, text] of [
  ['dev sets', devText],
  ['English prose', prose],
] as const) {
  const tagger = megabytesPerSecond(() => findNamedEntities(text), text);
  const patterns = megabytesPerSecond(() => findPii(text), text);
  const both = megabytesPerSecond(() => findPii(text, { entities: 'all' }), text);
  console.log(
    `${name} (${(text.length / 1e6).toFixed(2)} MB): tagger ${tagger.toFixed(2)} MB/s, ` +
      `findPii defaults ${patterns.toFixed(1)} MB/s (${(patterns / tagger).toFixed(1)}x the tagger), ` +
      `findPii 'all' ${both.toFixed(2)} MB/s`,
  );
}
