/**
 * Writes `src/guards/prompt-injection/model/harmful-scorer-data.ts`: the
 * harmful-content scorer's data (`harmfulModel`, `HARMFUL_READINGS`) as
 * `harmful-model-data.ts` holds it, in a file of its own that only an
 * `import()` reaches (`harmful-model-loader.ts`). Bundlers split by file: a
 * file the library's entry also imports statically (`harmful-model-data.ts`,
 * through `harmfulContent()` and `scorePromptInjection`) would land in a
 * chunk loaded at start by every bundle of the entry. Run after the harmful
 * model is trained: npx tsx scripts/write-lazy-harmful-model.ts
 * (`--check`: exit 1 when the file differs from what it would write;
 * `src/guards/prompt-injection/harmful-model-loader.test.ts` checks the same).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lazyHarmfulModelFile } from './lazy-harmful-model-file';

const path = fileURLToPath(
  new URL('../src/guards/prompt-injection/model/harmful-scorer-data.ts', import.meta.url),
);
const contents = lazyHarmfulModelFile();
if (process.argv.includes('--check')) {
  let written = '';
  try {
    written = readFileSync(path, 'utf8');
  } catch {}
  const same = written === contents;
  console.log(`harmful-scorer-data.ts: ${same ? 'identical' : 'DIFFERS'}`);
  if (!same) process.exitCode = 1;
} else {
  writeFileSync(path, contents);
  console.log(`wrote ${path} (${contents.length} bytes)`);
}
