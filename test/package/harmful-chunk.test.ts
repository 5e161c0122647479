import { describe, expect, it } from 'vitest';
import { bundleForEdge, inputsOf } from './edge-bundle';

const dataModule = 'src/guards/harmful-content/model/harmful-model-data.ts';
const lazyModule = 'src/guards/prompt-injection/model/harmful-scorer-data.ts';

/** A code-split bundle of `names` from the main entry: the inputs it loads at start and those of each on-demand chunk. */
async function splitBundle(names: string) {
  const { outputs, metafile } = await bundleForEdge(`export ${names} from './src/index.ts';`, {
    minify: true,
    splitting: true,
  });
  return {
    atStart: inputsOf(
      metafile,
      outputs.filter(output => output.atStart).map(output => output.path),
    ),
    onDemand: outputs
      .filter(output => !output.atStart)
      .map(output => inputsOf(metafile, [output.path])),
  };
}

// Each case bundles the source with esbuild: seconds, more on a loaded machine.
describe("promptInjection()'s harmful model in an edge bundle (round 44)", {
  timeout: 180_000,
}, () => {
  it('guardrails + promptInjection: not at start; a chunk of its own, loaded on first need', async () => {
    const bundle = await splitBundle('{ guardrails, promptInjection }');
    expect(bundle.atStart).not.toContain(dataModule);
    expect(bundle.atStart).not.toContain(lazyModule);
    expect(bundle.onDemand).toEqual([[lazyModule]]);
  });

  it('guardrails + pii: nothing of it at start (the chunk is emitted, never loaded)', async () => {
    const bundle = await splitBundle('{ guardrails, pii }');
    expect(bundle.atStart.filter(input => input.includes('harmful'))).toEqual([]);
    expect(bundle.onDemand).toEqual([[lazyModule]]);
  });

  it('scorePromptInjection (synchronous) bundles the model at start', async () => {
    const bundle = await splitBundle('{ scorePromptInjection }');
    expect(bundle.atStart).toContain(dataModule);
  });

  // Round 49 (lead): the word-piece suffix gate ships off, so no entry
  // carries its vocabulary (model/word-vocabulary-*.ts), at start or on demand.
  it('no entry carries the word-piece gate vocabulary while the gate is off', async () => {
    for (const names of ['{ scorePromptInjection }', '{ guardrails, promptInjection }']) {
      const bundle = await splitBundle(names);
      const inputs = [...bundle.atStart, ...bundle.onDemand.flat()];
      expect(inputs.filter(input => input.includes('model/word-vocabulary'))).toEqual([]);
    }
  });
});
