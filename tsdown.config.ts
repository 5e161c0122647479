import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts', cli: 'src/cli/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'neutral',
  sourcemap: true,
  clean: true,
});
