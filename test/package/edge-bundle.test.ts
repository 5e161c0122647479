import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildEsmLibrary,
  bundledInputs,
  bundledPackages,
  bundleForEdge,
  inputsOf,
} from './edge-bundle';

describe('the core entry in an edge bundle', () => {
  it('imports no Node built-in (esbuild, platform neutral)', async () => {
    const { nodeImports, code } = await bundleForEdge("export * from './src/index.ts';");
    expect(nodeImports).toEqual([]);
    expect(code).toContain('guardrails');
  });

  it('ai-guardrails/testing imports no Node built-in either', async () => {
    const { nodeImports } = await bundleForEdge("export * from './src/testing/index.ts';");
    expect(nodeImports).toEqual([]);
  });

  it('the detector of this test does see a Node built-in', async () => {
    const { nodeImports } = await bundleForEdge(
      "import { createHash } from 'node:crypto'; import { readFileSync } from 'fs'; export { createHash, readFileSync };",
    );
    expect(nodeImports).toEqual([
      { path: 'node:crypto', importer: 'entry.ts' },
      { path: 'fs', importer: 'entry.ts' },
    ]);
  });

  it('importing only guardrails and pii bundles only what they use', async () => {
    const { metafile, nodeImports } = await bundleForEdge(
      "export { guardrails, pii } from './src/index.ts';",
      { minify: true },
    );
    expect(nodeImports).toEqual([]);
    // pii's own dependencies (phone numbers, e-mail domains) are in; other
    // guardrails' dependencies (JSON Schema, tokenizer, YAML) are not.
    expect(bundledPackages(metafile)).toEqual([
      '@ai-sdk/provider',
      'libphonenumber-js',
      'tldts',
      'tldts-core',
    ]);
    const sources = bundledInputs(metafile).filter(input => input.startsWith('src/'));
    expect(sources.filter(input => input.startsWith('src/guards/url-filter/'))).toEqual([]);
    expect(sources.filter(input => input.startsWith('src/guards/output-schema/'))).toEqual([]);
  });
});

describe("the named-entity tagger's weights in an edge bundle", () => {
  const weightsModule = 'src/guards/pii/ner/model/ner-model.ts';

  /** A code-split bundle of `contents`: its outputs loaded at start and on demand, and a piece of the weights' text. */
  async function splitBundle(contents: string) {
    const { outputs, metafile } = await bundleForEdge(contents, { minify: true, splitting: true });
    // Read from the model module, not copied here.
    const { nerModel } = await import('../../src/guards/pii/ner/model/ner-model');
    const atStart = outputs.filter(output => output.atStart);
    return {
      weights: nerModel.weights.slice(0, 4096),
      atStart,
      inputsAtStart: inputsOf(
        metafile,
        atStart.map(output => output.path),
      ),
      onDemand: outputs.filter(output => !output.atStart),
      inputsOf: (path: string) => inputsOf(metafile, [path]),
    };
  }

  it('guardrails + pii: not in any file the bundle emits (the main entry has no import() of them)', async () => {
    const bundle = await splitBundle("export { guardrails, pii } from './src/index.ts';");
    // The one on-demand chunk is promptInjection()'s harmful model (round 44, never loaded here).
    expect(bundle.onDemand.map(output => bundle.inputsOf(output.path))).toEqual([
      ['src/guards/prompt-injection/model/harmful-scorer-data.ts'],
    ]);
    expect(bundle.atStart.some(output => output.code.includes(bundle.weights))).toBe(false);
    expect(bundle.inputsAtStart).not.toContain(weightsModule);
  });

  it("guardrails + pii + import 'ai-guardrails/ner': a chunk of their own that pii() imports when a check asks for a tagged type", async () => {
    const bundle = await splitBundle(
      "import './src/ner/index.ts'; export { guardrails, pii } from './src/index.ts';",
    );
    expect(bundle.atStart.some(output => output.code.includes(bundle.weights))).toBe(false);
    expect(bundle.inputsAtStart).not.toContain(weightsModule);
    // The registration is kept (package.json `sideEffects` names it) and loaded at start.
    expect(bundle.inputsAtStart).toContain('src/ner/index.ts');
    // Loaded on demand: one chunk with the weights (and the line that decodes them).
    // Loaded on demand besides promptInjection()'s harmful model (round 44).
    const chunks = bundle.onDemand.filter(output => !output.path.includes('harmful-scorer-data'));
    expect(chunks.map(output => bundle.inputsOf(output.path))).toEqual([
      [weightsModule, 'src/guards/pii/ner/lazy-ner-model.ts'],
    ]);
    expect(chunks[0]!.code).toContain(bundle.weights);
  });

  it('findPii (synchronous) bundles them in what loads at start', async () => {
    const bundle = await splitBundle("export { guardrails, pii, findPii } from './src/index.ts';");
    expect(bundle.atStart.some(output => output.code.includes(bundle.weights))).toBe(true);
    expect(bundle.inputsAtStart).toContain(weightsModule);
  });
});

describe('the published ES modules (dist/) in an edge bundle', () => {
  // Built as `npm run build` does (tsdown.config.ts), without types, in a temporary directory.
  let distIndex = '';
  beforeAll(async () => {
    distIndex = await buildEsmLibrary();
  }, 60_000);
  afterAll(async () => {
    if (distIndex) await rm(dirname(distIndex), { recursive: true, force: true });
  });

  /**
   * The files of dist/ that `file` reaches by static imports (its own
   * included), each with the files that import it: what a bundler that keeps
   * or drops whole modules (Turbopack) keeps of a module it keeps.
   */
  async function staticGraph(file: string): Promise<Map<string, string[]>> {
    const root = dirname(distIndex);
    const importers = new Map<string, string[]>([[relative(root, file), []]]);
    for (const module of importers.keys()) {
      const code = await readFile(join(root, module), 'utf8');
      for (const [, specifier] of code.matchAll(
        /^(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']/gm,
      )) {
        const target = relative(root, join(root, dirname(module), specifier!));
        importers.set(target, [...(importers.get(target) ?? []), module]);
      }
    }
    return importers;
  }

  it("the tagger's weights: pii()'s module reaches them by no static import; only findPii's module imports its bundled copy", async () => {
    const fromPii = await staticGraph(join(dirname(distIndex), 'guards/pii/pii.js'));
    // Not vacuous: the reader follows pii()'s imports to the finders and the model loader.
    expect(fromPii.has('guards/pii/find-pii.js')).toBe(true);
    expect(fromPii.has('guards/pii/ner/ner-model-loader.js')).toBe(true);
    expect(fromPii.has('guards/pii/ner/bundled-ner-model.js')).toBe(false);
    expect(fromPii.has('guards/pii/ner/model/ner-model.js')).toBe(false);
    const fromIndex = await staticGraph(distIndex);
    expect(fromIndex.get('guards/pii/ner/bundled-ner-model.js')).toEqual([
      'guards/pii/find-pii-bundled.js',
    ]);
    expect(fromIndex.get('guards/pii/ner/model/ner-model.js')).toEqual([
      'guards/pii/ner/bundled-ner-model.js',
    ]);
  });

  /** The library modules (`guards/pii/pii`, ...) and npm packages in a minified bundle, and its size. */
  async function contentsOf(names: string, from: 'src' | 'dist') {
    const path = from === 'src' ? './src/index.ts' : distIndex;
    const { code, metafile, nodeImports } = await bundleForEdge(`export ${names} from '${path}';`, {
      minify: true,
    });
    const root = from === 'src' ? 'src/' : `${dirname(distIndex).split('/').at(-1)}/`;
    const modules = bundledInputs(metafile)
      .filter(input => input.includes(root) && !input.includes('node_modules/'))
      .map(input => input.slice(input.indexOf(root) + root.length).replace(/\.(?:ts|js)$/, ''))
      .sort();
    return { bytes: code.length, modules, packages: bundledPackages(metafile), nodeImports };
  }

  it.each([
    { names: '{ guardrails, pii }', packageCount: 4 },
    { names: '{ guardrails, promptInjection }', packageCount: 1 },
    { names: '*', packageCount: 12 },
  ])(
    'export $names: no module or package that a bundle of src/ leaves out, and the same size within 1%',
    async ({ names, packageCount }) => {
      const src = await contentsOf(names, 'src');
      const dist = await contentsOf(names, 'dist');
      expect(dist.nodeImports).toEqual([]);
      expect(dist.packages).toEqual(src.packages);
      expect(dist.packages).toHaveLength(packageCount);
      // A module of src/ that only re-exports another (`guards/shared/hash-key`) is no module of its own in dist/.
      expect(dist.modules.filter(module => !src.modules.includes(module))).toEqual([]);
      expect(dist.modules.length).toBeGreaterThan(src.modules.length * 0.95);
      expect(Math.abs(dist.bytes - src.bytes) / src.bytes).toBeLessThan(0.01);
    },
    60_000,
  );
});
