#!/usr/bin/env node
/**
 * Prints the minified and minified+gzip size of edge bundles of the library
 * (esbuild, platform neutral, peers external, code splitting as bundlers of
 * web and edge apps do). "At start" is the entry and the chunks it imports
 * statically; "on demand" the chunks loaded at an `import()` (the
 * named-entity tagger's weights, loaded by `pii()` the first time a check
 * asks for a tagged type). Each from the source (`src/`) and from the ES
 * modules of the package (`dist/`, built as `npm run build` does, into a
 * temporary directory). Run: npx tsx test/package/bundle-size.mjs
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildEsmLibrary, bundledPackages, bundleForEdge } from './edge-bundle.ts';

const entries = {
  'guardrails + pii': '{ guardrails, pii }',
  'guardrails + pii + findPii': '{ guardrails, pii, findPii }',
  'guardrails + promptInjection': '{ guardrails, promptInjection }',
  'the whole main entry': '*',
};
const distIndex = await buildEsmLibrary();
const roots = { 'src/': './src/index.ts', 'dist/': distIndex };

const kB = bytes => `${(bytes / 1024).toFixed(1)} kB`;
/** Minified and gzipped bytes of some outputs, each gzipped on its own (as served). */
const sizes = outputs => ({
  bytes: outputs.reduce((sum, { code }) => sum + Buffer.byteLength(code), 0),
  gzipped: outputs.reduce((sum, { code }) => sum + gzipSync(code, { level: 9 }).length, 0),
});
console.log(
  '| import | from | at start: minified | at start: minified + gzip | on demand: minified + gzip | npm packages bundled |',
);
console.log('| --- | --- | ---: | ---: | ---: | --- |');
for (const [name, names] of Object.entries(entries)) {
  for (const [from, path] of Object.entries(roots)) {
    const { outputs, metafile } = await bundleForEdge(`export ${names} from '${path}';`, {
      minify: true,
      splitting: true,
    });
    const atStart = sizes(outputs.filter(output => output.atStart));
    const onDemand = sizes(outputs.filter(output => !output.atStart));
    console.log(
      `| ${name} | ${from} | ${kB(atStart.bytes)} | ${kB(atStart.gzipped)} | ${onDemand.bytes ? `${kB(onDemand.gzipped)} (${kB(onDemand.bytes)} minified)` : '—'} | ${bundledPackages(metafile).join(', ') || '—'} |`,
    );
  }
}
await rm(dirname(distIndex), { recursive: true, force: true });

// Where the bytes of the smallest useful bundle come from (minified, before gzip).
const { metafile, outputs } = await bundleForEdge(
  `export ${entries['guardrails + pii']} from './src/index.ts';`,
  {
    minify: true,
    splitting: true,
  },
);
const bySource = new Map();
for (const { path, atStart } of outputs) {
  for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[path].inputs)) {
    const source = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? 'ai-guardrails (src/)';
    const key = `${source}${atStart ? '' : ' (on demand)'}`;
    bySource.set(key, (bySource.get(key) ?? 0) + bytesInOutput);
  }
}
console.log('\n| guardrails + pii: source | minified |');
console.log('| --- | ---: |');
for (const [source, bytes] of [...bySource].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${source} | ${kB(bytes)} |`);
}
