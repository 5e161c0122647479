#!/usr/bin/env node
/**
 * Prints the minified and minified+gzip size of edge bundles of the library
 * (esbuild, platform neutral, peers external). Run: npx tsx test/package/bundle-size.mjs
 */
import { gzipSync } from 'node:zlib';
import { bundledPackages, bundleForEdge } from './edge-bundle.ts';

const entries = {
  'guardrails + pii': "export { guardrails, pii } from './src/index.ts';",
  'guardrails + promptInjection': "export { guardrails, promptInjection } from './src/index.ts';",
  'the whole main entry': "export * from './src/index.ts';",
};

const kB = bytes => `${(bytes / 1024).toFixed(1)} kB`;
console.log('| import | minified | minified + gzip | npm packages bundled |');
console.log('| --- | ---: | ---: | --- |');
for (const [name, contents] of Object.entries(entries)) {
  const { code, metafile } = await bundleForEdge(contents, { minify: true });
  const bytes = Buffer.byteLength(code);
  const gzipped = gzipSync(code, { level: 9 }).length;
  console.log(
    `| ${name} | ${kB(bytes)} | ${kB(gzipped)} | ${bundledPackages(metafile).join(', ') || '—'} |`,
  );
}

// Where the bytes of the smallest useful bundle come from (minified, before gzip).
const { metafile } = await bundleForEdge(entries['guardrails + pii'], { minify: true });
const bySource = new Map();
for (const output of Object.values(metafile.outputs)) {
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const source = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? 'ai-guardrails (src/)';
    bySource.set(source, (bySource.get(source) ?? 0) + bytesInOutput);
  }
}
console.log('\n| guardrails + pii: source | minified |');
console.log('| --- | ---: |');
for (const [source, bytes] of [...bySource].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${source} | ${kB(bytes)} |`);
}
