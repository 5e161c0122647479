import { defineConfig, type UserConfig } from 'tsdown';

// The named-entity tagger's weights and the module that imports them
// statically (`findPii`'s) are chunks of their own: an app's bundler then
// leaves them out of what `pii()` alone loads at start (`pii()` imports
// them with `import()`; see src/guards/pii/ner/ner-model-loader.ts).
const nerChunks: UserConfig['outputOptions'] = {
  codeSplitting: {
    // Only those modules: their dependencies stay in the chunks they were in.
    includeDependenciesRecursively: false,
    groups: [
      { name: 'ner-weights', test: /ner[\\/]model[\\/]ner-model\.ts$/ },
      { name: 'bundled-ner-model', test: /ner[\\/]bundled-ner-model\.ts$/ },
    ],
  },
};

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
  outputOptions: nerChunks,
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
    // The weights are a file of their own here without `nerChunks`.
    unbundle: true,
    outputOptions: {},
  },
  {
    ...library,
    // CommonJS is not tree-shaken by bundlers anyway: kept in chunks.
    format: ['cjs'],
    clean: false,
    // @marcbachmann/cel-js (the expression guardrail) ships ES modules only;
    // require() of an ES module needs Node 20.19 or newer, and the package
    // supports every Node 20. The CommonJS build carries it inside.
    noExternal: ['@marcbachmann/cel-js'],
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
