import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `pii()` imports its tagger as `ai-guardrails/ner` by name (src/guards/pii/ner/ner-model-loader.ts): the source here, as dist/ in the package.
  resolve: {
    alias: { 'ai-guardrails/ner': fileURLToPath(new URL('./src/ner/index.ts', import.meta.url)) },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
