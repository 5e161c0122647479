import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'rolldown';
import { defineConfig } from 'tsdown';

const sourceDir = fileURLToPath(new URL('./src/', import.meta.url));
const distDir = fileURLToPath(new URL('./dist/', import.meta.url));

/** Names in `export { a, b as c }` lists (not `type` ones). */
const listedNames = (code: string) =>
  [...code.matchAll(/^export \{([^}]*)\}/gm)].flatMap(([, list]) =>
    list!
      .split(',')
      .map(item => item.trim())
      .filter(item => item !== '' && !item.startsWith('type '))
      .map(item => item.split(/\s+as\s+/).at(-1)!),
  );

/**
 * The values `importer` (source text) takes from `source`: the names of its
 * `import { ... } from` and `export { ... } from` lists (not `type` ones);
 * undefined for a namespace or default import (then every export counts).
 */
function importedNames(importer: string, source: string): string[] | undefined {
  const from = `from ['"]${source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]`;
  if (new RegExp(`^import (?!type )(?:\\w+|\\* as \\w+)\\b[^;]*${from}`, 'm').test(importer))
    return undefined;
  return [
    ...importer.matchAll(new RegExp(`^(?:import|export) (type )?\\{([^}]*)\\}\\s*${from}`, 'gm')),
  ]
    .filter(([, typeOnly]) => typeOnly === undefined)
    .flatMap(([, , list]) =>
      list!
        .split(',')
        .map(item => item.trim())
        .filter(item => item !== '' && !item.startsWith('type '))
        .map(item => item.split(/\s+as\s+/)[0]!),
    );
}

/**
 * The command line's imports of the library's modules (`src/guards/...`,
 * `src/core/...`) resolved to the library's ES module files beside it in
 * dist/ (`./guards/pii/pii.js`), not bundled again: a second copy of the
 * library (weights and models included) was 8 of the package's files and
 * 5.1 MB of its 16.4 MB unpacked. A module the library build did not emit,
 * or emitted without all its exports (tree-shaken: only the command line
 * uses them), stays in its bundle: `npm run build` builds the library first.
 */
const libraryFromDist: Plugin = {
  name: 'cli-imports-the-library-from-dist',
  async resolveId(source, importer, options) {
    if (importer === undefined || !source.startsWith('.')) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (!resolved || resolved.external) return resolved;
    const path = relative(sourceDir, resolved.id).replace(/\\/g, '/');
    if (path.startsWith('../') || path.startsWith('cli/')) return null;
    // An entry's module is the entry's file (src/config/index.ts: ./config.js).
    const entry = path.match(/^(\w+)\/index\.ts$/)?.[1];
    const built =
      entry !== undefined && existsSync(join(distDir, `${entry}.js`))
        ? `./${entry}.js`
        : `./${path.replace(/\.ts$/, '.js')}`;
    if (!existsSync(join(distDir, built))) return null;
    const needed = importedNames(readFileSync(importer, 'utf8'), source);
    const exported = new Set(listedNames(readFileSync(join(distDir, built), 'utf8')));
    return needed?.every(name => exported.has(name)) ? { id: built, external: true } : null;
  },
};

// The library: edge-safe entries, no Node built-ins.
const library = {
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    redis: 'src/redis/index.ts',
    config: 'src/config/index.ts',
    // `import 'ai-guardrails/ner'`: the tagger's weights for a bundled app (src/ner/index.ts).
    ner: 'src/ner/index.ts',
  },
  dts: true,
  platform: 'neutral',
  sourcemap: false,
} as const;

export default defineConfig([
  {
    ...library,
    name: 'library-esm',
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
    name: 'library-cjs',
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
    // The command line (Node only), built after the library (see `libraryFromDist`).
    name: 'cli',
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    dts: false,
    platform: 'node',
    sourcemap: false,
    clean: false,
    plugins: [libraryFromDist],
  },
]);
