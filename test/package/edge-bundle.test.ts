import { describe, expect, it } from 'vitest';
import { bundledInputs, bundledPackages, bundleForEdge } from './edge-bundle';

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
