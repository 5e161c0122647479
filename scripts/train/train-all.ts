/**
 * `npm run train`: rebuilds every trained model shipped in the package, one
 * trainer after the other, each in its own process.
 *
 *   npm run train                        every model
 *   npm run train -- --model injection   one model (repeatable)
 *   npm run train -- --check             every trainer rebuilds in memory and
 *                                        exits 1 if its committed files differ
 *
 * Every other argument is passed to each selected trainer unchanged (see the
 * header of each trainer for its own options). Exits with the first failure.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each model's trainer, in the order they run. Add a model here. */
const trainers: ReadonlyArray<{ model: string; script: string }> = [
  { model: 'injection', script: 'train-injection.ts' },
  { model: 'ner', script: 'train-ner.ts' },
  { model: 'harmful', script: 'train-harmful.ts' },
];

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const selected: string[] = [];
const forwarded: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--model') {
    const name = args[++i];
    if (!name || !trainers.some(t => t.model === name)) {
      console.error(`--model takes one of: ${trainers.map(t => t.model).join(', ')}`);
      process.exit(2);
    }
    selected.push(name);
  } else {
    forwarded.push(args[i]!);
  }
}

for (const { model, script } of trainers) {
  if (selected.length > 0 && !selected.includes(model)) continue;
  console.error(`== train ${model} (${script})`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, script), ...forwarded], {
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
