import { defineConfig } from 'tsdown';

// The library: edge-safe entries, no Node built-ins.
const library = {
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    redis: 'src/redis/index.ts',
    config: 'src/config/index.ts',
    // `import 'ai-guardrails/ner'`: the tagger's weights for a bundled app (src/ner.ts).
    ner: 'src/ner.ts',
  },
  dts: true,
  platform: 'neutral',
  sourcemap: false,
} as const;

export default defineConfig([
  {
    ...library,
    format: ['esm'],
    clean: true,
    // One file per source module, as in src/ (dist/index.js imports
    // dist/guards/pii/pii.js, ...). Bundled into one chunk, an app's bundler
    // could only drop whole files (`sideEffects: false`), and it must keep
    // every module-level statement of a chunk it cannot prove pure (the
    // tables that normalisation, the tokenizer and the models build at
    // import), with all they reference: `guardrails` + `pii` from a bundled
    // dist/ was 5485 kB minified, from src/ 2039 kB; unbundled it is 2038 kB.
    // The weights are a file of their own (dist/guards/pii/ner/model/ner-model.js).
    unbundle: true,
  },
  {
    ...library,
    // CommonJS is not tree-shaken by bundlers anyway: kept in chunks. Its
    // entries require `findPii`'s model, weights included, at start, so the
    // weights are in the chunk they share (as `require` loads them anyway).
    // Until round 39, chunk groups put them and `findPii`'s module in chunks
    // of their own; that needed `includeDependenciesRecursively: false`, which
    // Rolldown only allows with `preserveEntrySignatures: 'allow-extension'`,
    // set implicitly with a warning on every build. The files saved nothing.
    format: ['cjs'],
    clean: false,
    // @marcbachmann/cel-js (the expression guardrail) ships ES modules only;
    // require() of an ES module needs Node 20.19 or newer, and the package
    // supports every Node 20. The CommonJS build carries it inside.
    // Only it: the build fails if any other package would be bundled.
    deps: { alwaysBundle: ['@marcbachmann/cel-js'], onlyBundle: ['@marcbachmann/cel-js'] },
  },
  {
    // The command line (Node only).
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    dts: false,
    platform: 'node',
    sourcemap: false,
    clean: false,
  },
]);
