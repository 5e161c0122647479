/**
 * Speed of the named-entity tagger behind `pii`'s PERSON, STREET_ADDRESS,
 * LOCATION and ORGANIZATION (docs/pii-ner-model.md), in CPU time of this
 * process (the machine may be shared), each beside `findPii` with its default
 * pattern types on the same text in the same run.
 *
 *   npx tsx bench/ner.ts
 *
 * 1. Load: importing the module and decoding the model on first use.
 * 2. MB/s once loaded, median of 5 after a warm-up, on real text: the dev
 *    sets' texts concatenated in file order (`../shared/datasets/*.dev.jsonl`,
 *    read at bench time, never copied; `DATASETS_DIR` overrides the path) and
 *    the first 2 MB of the English prose corpus (`../shared/corpora`,
 *    `CORPORA_DIR`); and the same including the load, for one call on 1 MB.
 *    Target: >= 5 MB/s once loaded.
 * 3. Adversarial 1 MB inputs (repeated capitalised pairs, address-like runs,
 *    initials, one 1 MB word, digits) relative to 1 MB of the dev text.
 *    Target: <= 5x.
 * Skipped (with a line saying so) when the datasets are not there.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devSetTexts } from './dev-text';

const MB = 1_000_000;
const shared = join(import.meta.dirname, '..', '..', 'shared');
const datasets = process.env.DATASETS_DIR ?? join(shared, 'datasets');
const corpora = process.env.CORPORA_DIR ?? join(shared, 'corpora');

/** Milliseconds of CPU this process has used (not inflated by other work on the machine). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Median CPU milliseconds of `runs` calls of `work` after one warm-up call. */
function timeIt(work: () => unknown, runs = 5): number {
  work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = cpuMs();
    work();
    times.push(cpuMs() - started);
  }
  times.sort((first, second) => first - second);
  return times[Math.floor(times.length / 2)]!;
}

function devText(): string | undefined {
  return devSetTexts(datasets)?.join('\n');
}

const dev = devText();
if (dev === undefined) {
  console.log('\n## NER tagger\n\n../shared/datasets not found (set DATASETS_DIR); skipped');
} else {
  const loadStarted = cpuMs();
  const { findNamedEntities } = await import('../src/guards/pii/ner/find-named-entities');
  findNamedEntities('Grace Okafor');
  const loadMs = cpuMs() - loadStarted;
  // Imported after the load was timed: findPii imports the tagger's module too.
  const { defaultPiiEntities } = await import('../src/guards/pii/find-pii');
  const { findPii } = await import('../src/guards/pii/find-pii-bundled');

  const firstMb = dev.slice(0, MB);
  const prosePath = join(corpora, 'english_text.txt');
  const texts: Array<[string, string]> = [
    [`dev sets, all (${(dev.length / MB).toFixed(2)} MB)`, dev],
  ];
  if (existsSync(prosePath)) {
    const prose = readFileSync(prosePath, 'utf8').slice(0, 2 * MB);
    texts.push([`English prose (${(prose.length / MB).toFixed(2)} MB)`, prose]);
  }
  console.log('\n## NER tagger (CPU time, median of 5)\n');
  console.log(`load (import + decode on first use): ${loadMs.toFixed(0)} ms\n`);
  console.log(
    '| text | tagger MB/s | findPii defaults MB/s | ratio | findPii defaults + 4 NER types MB/s |',
  );
  console.log('|---|---:|---:|---:|---:|');
  const nerTypes = ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'] as const;
  const withNer = { entities: [...defaultPiiEntities, ...nerTypes] };
  let devRate = 0;
  for (const [name, text] of texts) {
    const mb = text.length / MB;
    const taggerMs = timeIt(() => findNamedEntities(text));
    const piiMs = timeIt(() => findPii(text));
    const bothMs = timeIt(() => findPii(text, withNer));
    if (text === dev) devRate = mb / (taggerMs / 1000);
    console.log(
      `| ${name} | ${(mb / (taggerMs / 1000)).toFixed(2)} | ${(mb / (piiMs / 1000)).toFixed(1)} | ${(taggerMs / piiMs).toFixed(1)}x | ${(mb / (bothMs / 1000)).toFixed(2)} |`,
    );
  }
  const oneMbMs = timeIt(() => findNamedEntities(firstMb));
  console.log(
    `\nonce loaded: ${devRate.toFixed(2)} MB/s on the dev sets (target >= 5 MB/s); ` +
      `one call on the first 1 MB including the load: ${(firstMb.length / MB / ((loadMs + oneMbMs) / 1000)).toFixed(2)} MB/s`,
  );

  const repeat = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  const hostile: Array<[string, string]> = [
    ['capitalised pairs "Aa Bb. "', repeat('Aa Bb. ')],
    ['address-like "1 Main Street, "', repeat('1 Main Street, ')],
    ['initials "J. "', repeat('J. ')],
    ['names "Grace Okafor "', repeat('Grace Okafor ')],
    ['one 1 MB word', 'a'.repeat(MB)],
    ['digit groups "1234 "', repeat('1234 ')],
  ];
  const ordinaryMs = timeIt(() => findNamedEntities(firstMb), 3);
  let worst = 0;
  console.log('\nadversarial 1 MB inputs, time relative to 1 MB of the dev text (target <= 5x):');
  for (const [name, text] of hostile) {
    const ratio = timeIt(() => findNamedEntities(text), 3) / ordinaryMs;
    worst = Math.max(worst, ratio);
    console.log(`  ${name.padEnd(34)} ${ratio.toFixed(2)}x`);
  }
  console.log(`worst adversarial ratio: ${worst.toFixed(2)}x`);
}
