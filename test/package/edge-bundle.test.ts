import { describe, expect, it } from 'vitest';
import { bundledInputs, bundledPackages, bundleForEdge, inputsOf } from './edge-bundle';

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
  /** A piece of the weights' text (read from the model module, not copied here). */
  const weightsText = async () => {
    const { nerModel } = await import('../../src/guards/pii/ner/model/ner-model');
    return nerModel.weights.slice(0, 4096);
  };
  const weightsModule = 'src/guards/pii/ner/model/ner-model.ts';

  it('guardrails + pii: not loaded at start, but a chunk of their own that pii() imports when a check asks for a tagged type', async () => {
    const { outputs, metafile } = await bundleForEdge(
      "export { guardrails, pii } from './src/index.ts';",
      { minify: true, splitting: true },
    );
    const weights = await weightsText();
    const atStart = outputs.filter(output => output.atStart);
    const onDemand = outputs.filter(output => !output.atStart);
    expect(atStart.some(output => output.code.includes(weights))).toBe(false);
    expect(
      inputsOf(
        metafile,
        atStart.map(output => output.path),
      ),
    ).not.toContain(weightsModule);
    // Loaded on demand: one chunk with the weights (and the line that decodes them).
    expect(onDemand.map(output => inputsOf(metafile, [output.path]))).toEqual([
      [weightsModule, 'src/guards/pii/ner/lazy-ner-model.ts'],
    ]);
    expect(onDemand[0]!.code).toContain(weights);
  });

  it('findPii (synchronous) bundles them in what loads at start', async () => {
    const { outputs, metafile } = await bundleForEdge(
      "export { guardrails, pii, findPii } from './src/index.ts';",
      { minify: true, splitting: true },
    );
    const weights = await weightsText();
    const atStart = outputs.filter(output => output.atStart);
    expect(atStart.some(output => output.code.includes(weights))).toBe(true);
    expect(
      inputsOf(
        metafile,
        atStart.map(output => output.path),
      ),
    ).toContain(weightsModule);
  });
});
