import { defineConfig } from 'tsdown';

export default defineConfig([
  {
    // The library: edge-safe entries, no Node built-ins.
    entry: {
      index: 'src/index.ts',
      testing: 'src/testing/index.ts',
      redis: 'src/redis/index.ts',
      config: 'src/config/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'neutral',
    sourcemap: false,
    clean: true,
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
