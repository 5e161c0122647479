/**
 * Speed of the named-entity tagger behind `pii`'s PERSON, STREET_ADDRESS,
 * LOCATION and ORGANIZATION (docs/pii-ner-model.md), in CPU time of this
 * process (the machine may be shared), each beside `findPii` with its default
 * pattern types on the same text in the same run.
 *
 *   npx tsx bench/ner.ts
 *
 * 1. Load: importing the module and decoding the model on first use.
 * 2. MB/s once loaded, best and median of 5 after a warm-up (the timed
 *    works taking turns, so a changing load slows them alike), on real text: the dev
 *    sets' texts concatenated in file order (`../shared/datasets/*.dev.jsonl`,
 *    read at bench time, never copied; `DATASETS_DIR` overrides the path) and
 *    the first 2 MB of the English prose corpus (`../shared/corpora`,
 *    `CORPORA_DIR`); and the same including the load, for one call on 1 MB.
 *    Target: >= 5 MB/s once loaded.
 * 3. Adversarial 1 MB inputs (repeated capitalised pairs, address-like runs,
 *    initials, one 1 MB word, digits) relative to 1 MB of the dev text, the
 *    two taking turns (median of 3 each).
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

/** Best and median CPU milliseconds of a piece of work. */
interface Timing {
  best: number;
  median: number;
}

/**
 * CPU milliseconds of each of `works`, best and median of `runs` calls
 * after one warm-up call each, the works taking turns (round 43: a load
 * that changes during the bench slows them alike, so their ratios hold).
 */
function timeAll(works: ReadonlyArray<() => unknown>, runs = 5): Timing[] {
  for (const work of works) work();
  const times = works.map((): number[] => []);
  for (let run = 0; run < runs; run++) {
    works.forEach((work, index) => {
      const started = cpuMs();
      work();
      times[index]!.push(cpuMs() - started);
    });
  }
  return times.map(list => {
    list.sort((first, second) => first - second);
    return { best: list[0]!, median: list[Math.floor(list.length / 2)]! };
  });
}

/** `mb` megabytes in `ms` CPU milliseconds, as MB/s. */
function rate(mb: number, ms: number): string {
  return (mb / (ms / 1000)).toFixed(2);
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
  console.log('\n## NER tagger (CPU time of this process: best / median of 5, taking turns)\n');
  console.log(`load (import + decode on first use): ${loadMs.toFixed(0)} ms\n`);
  console.log(
    '| text | tagger MB/s | findPii defaults MB/s | ratio | findPii defaults + 4 NER types MB/s |',
  );
  console.log('|---|---:|---:|---:|---:|');
  const nerTypes = ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'] as const;
  const withNer = { entities: [...defaultPiiEntities, ...nerTypes] };
  let devRate = '';
  for (const [name, text] of texts) {
    const mb = text.length / MB;
    const [tagger, pii, both] = timeAll([
      () => findNamedEntities(text),
      () => findPii(text),
      () => findPii(text, withNer),
    ]);
    const pair = (timing: Timing) => `${rate(mb, timing.best)} / ${rate(mb, timing.median)}`;
    if (text === dev) devRate = pair(tagger!);
    console.log(
      `| ${name} | ${pair(tagger!)} | ${pair(pii!)} | ${(tagger!.median / pii!.median).toFixed(1)}x | ${pair(both!)} |`,
    );
  }
  const [oneMb] = timeAll([() => findNamedEntities(firstMb)]);
  console.log(
    `\nonce loaded: ${devRate} MB/s (best / median) on the dev sets (target >= 5 MB/s); ` +
      `one call on the first 1 MB including the load: ${rate(firstMb.length / MB, loadMs + oneMb!.median)} MB/s`,
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
  // Each input takes turns with 1 MB of the dev text: the ratio of their medians.
  let worst = 0;
  console.log('\nadversarial 1 MB inputs, time relative to 1 MB of the dev text (target <= 5x):');
  for (const [name, text] of hostile) {
    const [ordinary, adversarial] = timeAll(
      [() => findNamedEntities(firstMb), () => findNamedEntities(text)],
      3,
    );
    const ratio = adversarial!.median / ordinary!.median;
    worst = Math.max(worst, ratio);
    console.log(`  ${name.padEnd(34)} ${ratio.toFixed(2)}x`);
  }
  console.log(`worst adversarial ratio: ${worst.toFixed(2)}x`);
}
