/**
 * `npm run compare`: detection quality of our guardrails beside each peer's
 * equivalent detector on the labelled dev sets, with the eval command's
 * scoring (src/cli/scoring.ts), plus the speed benchmarks; writes
 * docs/benchmarks.md and docs/benchmarks-chart.svg.
 *
 *   npm run compare                                   # everything
 *   npm run compare -- --data-dir ../shared/datasets  # another data folder
 *   npm run compare -- --systems ours,hai --tasks pii --skip-bench --limit 200
 *
 * Each system runs in its own Node process (a peer that crashes or hangs is
 * reported, not fatal), over every row of each file in file order: no
 * sampling, no randomness. Only aggregate numbers are written, never rows.
 *
 * Phases, one file each: index.ts (arguments, one worker process per system,
 * the bench), worker.ts + score.ts (inside a worker), render-markdown.ts and
 * render-chart.ts (the outputs), report.ts (the shapes passed between them).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { tasks as allTasks, installedVersion, type Task } from '../../bench/peers/adapter';
import { packageOf, systems } from '../../bench/peers/index';
import { renderChart } from './render-chart';
import { renderDoc } from './render-markdown';
import { type BenchSummaries, files, repoRoot, type SystemReport } from './report';
import { runChild } from './run-child';
import { runWorker } from './worker';

const selfPath = fileURLToPath(import.meta.url);

const usage = `Usage: npm run compare -- [--data-dir ../shared/datasets] [--systems ours,openai,hai,llm-guard,llm_guardrail]
       [--tasks pii,secrets,injection-direct,injection-indirect,harmful] [--limit N] [--skip-bench]
       [--budget-s 900] [--timeout-min 30] [--out docs/benchmarks.md]`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      systems: { type: 'string' },
      tasks: { type: 'string' },
      limit: { type: 'string' },
      'skip-bench': { type: 'boolean', default: false },
      'budget-s': { type: 'string', default: '900' },
      'timeout-min': { type: 'string', default: '30' },
      out: { type: 'string', default: 'docs/benchmarks.md' },
      worker: { type: 'string' },
      'json-out': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const dataDir = resolve(repoRoot, values['data-dir'] ?? '../shared/datasets');
  const taskList = (values.tasks?.split(',') ?? [...allTasks]) as Task[];
  const badTask = taskList.find(task => !allTasks.includes(task));
  if (badTask) {
    console.error(`Unknown task "${badTask}": expected some of ${allTasks.join(', ')}`);
    return 2;
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const budgetMs = Number(values['budget-s']) * 1000;
  if (values.worker) {
    await runWorker(values.worker, dataDir, taskList, limit, budgetMs, values['json-out']!);
    return 0;
  }
  const systemIds = values.systems?.split(',') ?? Object.keys(systems);
  const badSystem = systemIds.find(id => !systems[id]);
  if (badSystem) {
    console.error(
      `Unknown system "${badSystem}": expected some of ${Object.keys(systems).join(', ')}`,
    );
    return 2;
  }
  const missing = taskList.filter(task => !existsSync(join(dataDir, files[task])));
  if (missing.length === taskList.length) {
    console.log(
      `No data in ${dataDir} (${taskList.map(task => files[task]).join(', ')}): comparison skipped. Pass --data-dir <folder> to point at the labelled JSONL files.`,
    );
    return 0;
  }
  if (missing.length > 0) {
    console.log(
      `Skipping ${missing.join(', ')}: ${missing.map(task => files[task]).join(', ')} not in ${dataDir}.`,
    );
  }
  const present = taskList.filter(task => !missing.includes(task));
  const startedAt = new Date();
  const scratch = mkdtempSync(join(tmpdir(), 'ai-guardrails-compare-'));
  const reports: SystemReport[] = [];
  try {
    for (const id of systemIds) {
      process.stderr.write(`\n== ${packageOf[id]}\n`);
      const out = join(scratch, `${id}.json`);
      const args = [
        selfPath,
        '--worker',
        id,
        '--json-out',
        out,
        '--data-dir',
        dataDir,
        '--tasks',
        present.join(','),
        '--budget-s',
        String(budgetMs / 1000),
      ];
      if (limit !== undefined) args.push('--limit', String(limit));
      const child = await runChild(
        args,
        process.env,
        Number(values['timeout-min']) * 60_000,
        false,
      );
      if (child.code === 0 && existsSync(out)) {
        reports.push(JSON.parse(readFileSync(out, 'utf8')) as SystemReport);
      } else {
        const lastLine = child.stderrTail.trim().split('\n').filter(Boolean).slice(-3).join(' / ');
        reports.push({
          id,
          system: packageOf[id] ?? id,
          version: installedVersion(packageOf[id] ?? id),
          notes: [],
          unavailable: {},
          results: [],
          failure: child.timedOut
            ? `no result within ${values['timeout-min']} min`
            : `exit ${child.code}: ${lastLine}`,
        });
      }
    }
    let benchMarkdown: string | undefined;
    const bench: BenchSummaries = {};
    if (!values['skip-bench']) {
      process.stderr.write('\n== npm run bench\n');
      const child = await runChild(
        [join(repoRoot, 'bench/index.ts')],
        { ...process.env, BENCH_JSON_DIR: scratch },
        Number(values['timeout-min']) * 60_000,
        true,
      );
      benchMarkdown = child.stdout;
      for (const name of ['overhead', 'chains'] as const) {
        const file = join(scratch, `${name}.json`);
        if (existsSync(file))
          Object.assign(bench, { [name]: JSON.parse(readFileSync(file, 'utf8')) });
      }
    }
    const command = `npm run compare${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
    const outPath = resolve(repoRoot, values.out);
    writeFileSync(
      outPath,
      renderDoc({
        reports,
        benchMarkdown,
        bench,
        command,
        dataDir,
        limit,
        startedAt,
        seconds: (Date.now() - startedAt.getTime()) / 1000,
      }),
    );
    writeFileSync(join(outPath, '..', 'benchmarks-chart.svg'), renderChart(reports));
    console.log(`Wrote ${relative(repoRoot, outPath)} and benchmarks-chart.svg beside it.`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return 0;
}

main().then(
  code => {
    process.exit(code);
  },
  error => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
