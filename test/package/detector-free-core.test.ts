import { describe, expect, it } from 'vitest';
import { bundledInputs, bundledPackages, bundleForEdge } from './edge-bundle';

// Round 24 had the chain, the telemetry, the middleware and guardTools
// import `pii` and `secrets` (to judge tool-call ids): every bundle that
// used the chain carried both detectors and their packages, 2 MB minified
// for `guardrails` alone. The judge is now handed in by `pii()` and
// `secrets()` when built (src/core/shown-tool-calls.ts).

const DETECTORS = /^src\/guards\/(?:pii|secrets)\//;

/** Every source module the bundle's import graph reaches (kept by tree-shaking or not). */
async function moduleGraph(contents: string): Promise<string[]> {
  const { metafile } = await bundleForEdge(contents);
  return Object.keys(metafile.inputs);
}

describe('the core and the wrappers import no detector', () => {
  it('the modules of src/core/ (chain, telemetry, ...) reach no pii or secrets module', async () => {
    const graph = await moduleGraph(
      [
        "export * from './src/core/chain.ts';",
        "export * from './src/core/telemetry.ts';",
        "export * from './src/core/shown-tool-calls.ts';",
        "export * from './src/core/define-guardrail.ts';",
      ].join('\n'),
    );
    expect(graph).toContain('src/core/chain.ts');
    expect(graph.filter(input => input.startsWith('src/guards/'))).toEqual([]);
  });

  it('the middleware and guardTools modules reach no pii or secrets module', async () => {
    const graph = await moduleGraph(
      [
        "export * from './src/middleware/guardrails-middleware.ts';",
        "export * from './src/tools/guard-tool.ts';",
      ].join('\n'),
    );
    expect(graph).toContain('src/core/shown-tool-calls.ts');
    expect(graph.filter(input => DETECTORS.test(input))).toEqual([]);
  });

  it.each([
    ['runChain', "export { runChain, defineGuardrail } from './src/index.ts';"],
    ['guardrails', "export { guardrails } from './src/index.ts';"],
    ['guardTools', "export { guardTools } from './src/index.ts';"],
  ])('a bundle of %s from the main entry holds no detector nor its packages', async (_, entry) => {
    const { metafile } = await bundleForEdge(entry, { minify: true });
    expect(bundledInputs(metafile).filter(input => DETECTORS.test(input))).toEqual([]);
    expect(bundledPackages(metafile)).not.toContain('libphonenumber-js');
    expect(bundledPackages(metafile)).not.toContain('tldts');
  });

  it('the detector of this test does see one', async () => {
    const graph = await moduleGraph("export { pii } from './src/guards/pii/pii.ts';");
    expect(graph.filter(input => DETECTORS.test(input)).length).toBeGreaterThan(0);
  });
});
