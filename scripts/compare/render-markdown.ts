/** docs/benchmarks.md: machine, targets, detection-quality tables, speed, peer notes. */
import { existsSync, readFileSync } from 'node:fs';
import { arch, cpus, platform, release, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { tasks as allTasks, installedVersion, type Task } from '../../bench/peers/adapter';
import { emptyConfusion, rates } from '../../src/cli/scoring';
import { renderLosoFile } from '../train/loso-report';
import { type HarmfulLosoRow, renderHarmfulLoso } from '../train/train-harmful';
import { inOurTypes, notNer, num, ourTypes, piiAggregate, rowName, statusNote } from './aggregate';
import {
  type BenchSummaries,
  type DetectorResult,
  nerTypes,
  repoRoot,
  type SystemReport,
  taskTitles,
} from './report';

export function renderPii(results: DetectorResult[]): string[] {
  const lines: string[] = [];
  const ok = results.filter(result => result.status !== 'error');
  lines.push(
    '| system | scope | tp | fp | fn | precision | recall | F1 | texts flagged among texts without PII (FPR) | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const result of ok) {
    for (const [scope, filter] of [
      ['our 12 pattern types', inOurTypes],
      ['all non-NER gold types', notNer],
    ] as const) {
      const a = piiAggregate(result, filter);
      lines.push(
        `| ${rowName(result)} | ${scope} | ${a.truePositives} | ${a.falsePositives} | ${a.falseNegatives} | ${num(a.precision)} | ${num(a.recall)} | ${num(a.f1)} | ${num(rates(result.overall.confusion).falsePositiveRate)} | ${num(result.overall.p50Ms, 3)} | ${num(result.overall.p95Ms, 3)} |`,
      );
    }
  }
  const types = new Set<string>();
  for (const result of ok) for (const type of Object.keys(result.entities ?? {})) types.add(type);
  const sortedTypes = [...types].sort((a, b) => {
    const rank = (t: string) => (ourTypes.has(t) ? 0 : nerTypes.has(t) ? 2 : 1);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  lines.push(
    '',
    'Per entity type: F1 (precision / recall), with tp/fp/fn. A type only a peer reports shows its false positives; NER types (PERSON, GPE, ...) are listed last; ours are in sample there (the tagger is trained on this split: its cross-validated numbers are in docs/pii-ner-model.md).',
    '',
    `| entity | ${ok.map(rowName).join(' | ')} |`,
    `|---|${ok.map(() => '---|').join('')}`,
  );
  for (const type of sortedTypes) {
    const cells = ok.map(result => {
      const c = result.entities?.[type];
      if (!c) return '-';
      const r = rates(c);
      return `${num(r.f1, 2)} (${num(r.precision, 2)} / ${num(r.recall, 2)}) ${c.truePositives}/${c.falsePositives}/${c.falseNegatives}`;
    });
    lines.push(`| ${type}${nerTypes.has(type) ? ' (NER)' : ''} | ${cells.join(' | ')} |`);
  }
  return lines;
}

export function renderRowLevel(results: DetectorResult[]): string[] {
  const lines: string[] = [
    '| set | system | rows | pos / neg | precision | recall | F1 | FPR | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const ok = results.filter(result => result.status !== 'error');
  const setNames = [...new Set(ok.flatMap(result => result.sets.map(set => set.set)))];
  for (const setName of [...setNames, 'all rows']) {
    for (const result of ok) {
      const set =
        setName === 'all rows' ? result.overall : result.sets.find(s => s.set === setName);
      if (!set) continue;
      const c = set.confusion;
      const r = rates(c);
      const name = setName === 'all rows' ? '**all rows**' : setName;
      lines.push(
        `| ${name} | ${rowName(result)} | ${set.rows} | ${c.truePositives + c.falseNegatives} / ${c.falsePositives + c.trueNegatives} | ${num(r.precision)} | ${num(r.recall)} | ${num(r.f1)} | ${num(r.falsePositiveRate)} | ${num(set.p50Ms, 3)} | ${num(set.p95Ms, 3)} |`,
      );
    }
  }
  return lines;
}

export function renderTargets(reports: SystemReport[], bench: BenchSummaries): string[] {
  const lines = ['| target | measured | met |', '|---|---|---|'];
  const verdict = (met: boolean | undefined) =>
    met === undefined ? 'not measured' : met ? 'yes' : '**no**';
  for (const operation of ['doGenerate', 'doStream (1,000 deltas)']) {
    const row = bench.overhead?.find(
      r => r.operation === operation && r.variant === 'guardrails(), no guardrails',
    );
    const bare = bench.overhead?.find(r => r.operation === operation && r.variant === 'bare model');
    lines.push(
      `| no-guardrail overhead, ${operation}: ratio <= 1.05 | ${row && bare ? `${row.ratioToBare.toFixed(2)} (${row.p50Microseconds.toFixed(1)} µs vs ${bare.p50Microseconds.toFixed(1)} µs bare)` : '-'} | ${verdict(row ? row.ratioToBare <= 1.05 : undefined)} |`,
    );
  }
  // Speed and F1 of PII + secrets.
  const chainRows = bench.chains?.rows.filter(r => r.task === 'PII + secrets' && !r.error) ?? [];
  const ourChain = chainRows.find(r => r.system === 'ai-guardrails');
  const all = reports.flatMap(report => report.results);
  const f1Of = (system: string, task: Task) => {
    const result = all.find(r => r.system === system && r.task === task && r.status !== 'error');
    if (!result) return null;
    return task === 'pii'
      ? piiAggregate(result, inOurTypes).f1
      : rates(result.overall.confusion).f1;
  };
  const full = chainRows.filter(
    r => r.system !== 'ai-guardrails' && !r.what.includes('no secret detector'),
  );
  const partial = chainRows.filter(
    r => r.system !== 'ai-guardrails' && r.what.includes('no secret detector'),
  );
  const fastest = (rows: typeof chainRows) =>
    rows.reduce<(typeof chainRows)[number] | undefined>(
      (best, r) => ((r.megabytesPerSecond ?? 0) > (best?.megabytesPerSecond ?? 0) ? r : best),
      undefined,
    );
  for (const [label, peer] of [
    ['fastest peer with PII and secret detectors', fastest(full)],
    ['fastest peer with a PII detector only', fastest(partial)],
  ] as const) {
    if (!peer || !ourChain?.megabytesPerSecond || !peer.megabytesPerSecond) continue;
    const speedup = ourChain.megabytesPerSecond / peer.megabytesPerSecond;
    const ourPii = f1Of('ai-guardrails', 'pii');
    const peerPii = f1Of(peer.system, 'pii');
    const ourSecrets = f1Of('ai-guardrails', 'secrets');
    const peerSecrets = f1Of(peer.system, 'secrets');
    const f1Higher =
      ourPii !== null &&
      (peerPii === null || ourPii > peerPii) &&
      (peerSecrets === null || (ourSecrets ?? 0) > peerSecrets);
    lines.push(
      `| PII + secrets >= 3x faster than the ${label} (${peer.system}) on 1 MB, with higher F1 | ${speedup.toFixed(2)}x (${num(ourChain.megabytesPerSecond, 2)} vs ${num(peer.megabytesPerSecond, 2)} MB/s); PII F1 (our 12 types) ${num(ourPii)} vs ${num(peerPii)}; secrets F1 ${num(ourSecrets)} vs ${peerSecrets === null ? 'n/a' : num(peerSecrets)} | ${verdict(speedup >= 3 && f1Higher)} |`,
    );
  }
  // Injection: F1 per set and FPR on benign rows.
  for (const task of ['injection-direct', 'injection-indirect'] as const) {
    const ours = all.find(
      r => r.system === 'ai-guardrails' && r.task === task && r.status === 'ok',
    );
    const peers = all.filter(
      r => r.system !== 'ai-guardrails' && r.task === task && r.status !== 'error',
    );
    if (!ours || peers.length === 0) continue;
    const ourFpr = rates(ours.overall.confusion).falsePositiveRate ?? 0;
    for (const set of ours.sets) {
      const hasPositives = set.confusion.truePositives + set.confusion.falseNegatives > 0;
      if (!hasPositives) continue;
      const ourF1 = rates(set.confusion).f1 ?? 0;
      const losses = peers.filter(peer => {
        const theirs = peer.sets.find(s => s.set === set.set);
        const theirF1 = theirs ? (rates(theirs.confusion).f1 ?? 0) : 0;
        const theirFpr = rates(peer.overall.confusion).falsePositiveRate ?? 0;
        return !(ourF1 > theirF1 && ourFpr <= theirFpr);
      });
      lines.push(
        `| promptInjection beats every runnable peer on ${task.replace('injection-', '')} set \`${set.set}\` (higher F1, FPR on the file's benign rows no higher) | our F1 ${num(ourF1)}, FPR ${num(ourFpr)}; ${losses.length === 0 ? 'ahead of all' : `not ahead of: ${losses.map(p => `${rowName(p)} (F1 ${num(rates(p.sets.find(s => s.set === set.set)?.confusion ?? emptyConfusion()).f1)}, FPR ${num(rates(p.overall.confusion).falsePositiveRate)})`).join('; ')}`} | ${verdict(losses.length === 0)} |`,
      );
    }
  }
  lines.push(...harmfulTargets(join(repoRoot, 'docs/harmful-content-loso.json')));
  return lines;
}

export function renderDoc({
  reports,
  benchMarkdown,
  bench,
  command,
  dataDir,
  limit,
  startedAt,
  seconds,
}: {
  reports: SystemReport[];
  benchMarkdown: string | undefined;
  bench: BenchSummaries;
  command: string;
  dataDir: string;
  limit: number | undefined;
  startedAt: Date;
  seconds: number;
}): string {
  const cpuList = cpus();
  const lines: string[] = [
    '# Benchmarks: ai-guardrails beside the libraries users would pick instead',
    '',
    `Generated by \`${command}\` on ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC in ${Math.round(seconds)} s. Do not edit by hand: re-run the command.`,
    '',
    `- Machine: ${cpuList.length} x ${cpuList[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${platform()} ${release()} ${arch()} (shared with other work while measured: read ratios, not absolute times)`,
    `- Node ${process.version}; ai ${installedVersion('ai')}; mitata ${installedVersion('mitata')}`,
    `- Data: \`${relative(repoRoot, dataDir) || dataDir}\` (dev split), every row in file order${limit === undefined ? '' : `, **first ${limit} rows of each file only**`}; inputs of the speed benchmarks from a fixed seed (bench/fixtures.ts). No dataset rows are stored here, only counts.`,
    '',
    '| system | version | what is compared |',
    '|---|---|---|',
  ];
  for (const report of reports) {
    const what = allTasks
      .map(task => {
        const detectors = report.results.filter(r => r.task === task);
        if (detectors.length > 0)
          return `${task}: ${[...new Set(detectors.map(d => `\`${d.call}\``))].join(', ')}`;
        const why = report.unavailable[task];
        return why ? `${task}: not compared (${why})` : undefined;
      })
      .filter(Boolean)
      .join('<br>');
    lines.push(
      `| ${report.system} | ${report.version} | ${report.failure ? `**failed**: ${report.failure}` : what} |`,
    );
  }
  lines.push('', '## Targets', '', ...renderTargets(reports, bench), '');
  lines.push(
    '## Detection quality',
    '',
    "Scored with the eval command's functions (`rates`, `scoreSpans`, `quantile` from src/cli/scoring.ts): a PII prediction is a true positive when it overlaps an unmatched gold span of the same type (`DOMAIN_NAME` gold counts as `URL`); secrets and injection are scored per row (flagged vs `label`). FPR = flagged rows among rows labelled 0. Latency is per call, in this process, including each library's own overhead.",
    '',
  );
  const cross = reports.find(report => report.id === 'ours')?.evalCrossCheck ?? [];
  if (cross.length > 0)
    lines.push('Cross-check with the eval command:', '', ...cross.map(line => `- ${line}`), '');
  for (const task of allTasks) {
    const results = reports.flatMap(report => report.results).filter(r => r.task === task);
    lines.push(`### ${taskTitles[task]}`, '');
    if (results.length === 0) {
      lines.push('Not run.', '');
      continue;
    }
    const problems = results.filter(r => statusNote(r) !== '');
    lines.push(...(task === 'pii' ? renderPii(results) : renderRowLevel(results)), '');
    if (problems.length > 0) {
      lines.push(...problems.map(r => `- ${rowName(r)}: ${statusNote(r)}`), '');
    }
    const missing = reports.filter(report => report.unavailable[task]);
    if (missing.length > 0) {
      lines.push(
        ...missing.map(report => `- ${report.system}: not compared (${report.unavailable[task]})`),
        '',
      );
    }
  }
  const loso = renderLosoFile(join(repoRoot, 'docs/prompt-injection-loso.json'));
  lines.push(
    '### Prompt injection on sources the detector never saw (sources left out)',
    '',
    ...(loso ?? [
      'Not available: run `npm run train -- --loso --source-folds 5 --loso-out docs/prompt-injection-loso.json`.',
      '',
    ]),
    'The dev-split rows above are in-sample for the direct model (the dev split is part of its training data); these are not. From `npm run train -- --loso --source-folds 5 --loso-out docs/prompt-injection-loso.json` (minutes: sources dealt into 5 folds, each fold left out at once), not re-run by this command; details in docs/prompt-injection-model.md.',
    '',
  );
  lines.push(...renderHarmfulLosoSummary(join(repoRoot, 'docs/harmful-content-loso.json')));
  lines.push('![Precision vs recall per system and task](benchmarks-chart.svg)', '');
  lines.push('## Speed', '');
  lines.push(
    benchMarkdown
      ? benchMarkdown
          .replace(/^# .*\n/, '')
          .replace(/^#{1,2} /gm, '### ')
          .trim()
      : 'Not run (`--skip-bench`): run `npm run bench`.',
    '',
  );
  lines.push('## Notes on the peers', '');
  for (const report of reports) {
    const notes = [...report.notes];
    if (report.backgroundErrors && report.backgroundErrors.count > 0) {
      notes.push(
        `During this run it raised ${report.backgroundErrors.count} unhandled errors outside any call; the first: \`${report.backgroundErrors.first ?? ''}\`.`,
      );
    }
    if (notes.length > 0) lines.push(`- **${report.system}**`, ...notes.map(note => `  - ${note}`));
  }
  lines.push(
    '',
    '## Reproduce',
    '',
    '```sh',
    'npm install',
    `${command}    # writes docs/benchmarks.md and docs/benchmarks-chart.svg`,
    'npm run bench      # speed only, printed',
    '```',
    '',
    '`npm run compare -- --help` lists the options (`--data-dir`, `--systems`, `--tasks`, `--limit`, `--skip-bench`, `--budget-s`, `--timeout-min`).',
    '',
  );
  return lines.join('\n');
}

/**
 * The harmful-request detector's leave-one-source-out summary (from
 * `npm run train -- --model harmful --loso --loso-out docs/harmful-content-loso.json`):
 * the harmful rows of the detection table are in-sample, these are not.
 */
export function renderHarmfulLosoSummary(path: string): string[] {
  const lines = [
    '### Harmful requests on sources the detector never saw (leave one source out)',
    '',
  ];
  if (!existsSync(path)) {
    lines.push(
      'Not available: run `npm run train -- --model harmful --loso --loso-out docs/harmful-content-loso.json`.',
      '',
    );
  } else {
    const { harmful } = JSON.parse(readFileSync(path, 'utf8')) as { harmful: HarmfulLosoRow[] };
    lines.push(...renderHarmfulLoso(harmful).slice(0, 3), '');
  }
  lines.push(
    "The harmfulContent rows of the harmful table above are in-sample (`harmful.dev.jsonl` is part of the model's training data); these are not: each source is left out of training in turn and its rows scored, the threshold picked on held-apart rows of the other sources. The per-source table (with the dev sets' own rows) is in docs/harmful-content-model.md; not re-run by this command.",
    '',
  );
  return lines;
}

/** The harmful-request detector's leave-one-source-out targets (issue 19), from its --loso-out file. */
export function harmfulTargets(path: string): string[] {
  if (!existsSync(path)) return [];
  const { harmful } = JSON.parse(readFileSync(path, 'utf8')) as { harmful: HarmfulLosoRow[] };
  const medianOf = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const recall = harmful.filter(r => r.harmful >= 10).map(r => r.caught / r.harmful);
  const lookalike = harmful
    .filter(r => r.lookalike >= 10)
    .map(r => r.lookalikeFlagged / r.lookalike);
  const general = harmful.filter(r => r.general >= 10).map(r => r.generalFlagged / r.general);
  const rows: Array<[string, number[], boolean]> = [
    ['harmful-source recall >= 0.85', recall, medianOf(recall) >= 0.85],
    ['look-alike FPR <= 0.05', lookalike, medianOf(lookalike) <= 0.05],
    ['ordinary-prompt FPR <= 0.01', general, medianOf(general) <= 0.01],
  ];
  return rows.map(
    ([target, values, met]) =>
      `| harmfulContent, leave one source out: median ${target} | ${medianOf(values).toFixed(3)} over ${values.length} sources | ${met ? 'yes' : '**no**'} |`,
  );
}
