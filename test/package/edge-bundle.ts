import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Peer dependencies: the application brings them, a bundle of the library never includes them. */
const PEERS = ['ai', '@opentelemetry/api'];

const NODE_BUILTINS = new Set(builtinModules.flatMap(name => [name, `node:${name}`]));

/** A Node built-in imported somewhere in the bundle, and by which file. */
export interface NodeImport {
  path: string;
  importer: string;
}

/** Records (and leaves out) every Node built-in import instead of failing on the first. */
function nodeImportRecorder(found: NodeImport[]): Plugin {
  return {
    name: 'record-node-imports',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, args => {
        if (!NODE_BUILTINS.has(args.path) && !args.path.startsWith('node:')) return undefined;
        found.push({ path: args.path, importer: args.importer.replace(repoRoot, '') });
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * Bundles `contents` (an ES module that imports the library's source) the way
 * an edge runtime bundler would: platform `neutral`, no Node built-ins
 * available, peers left out.
 */
export async function bundleForEdge(
  contents: string,
  { minify = false }: { minify?: boolean } = {},
): Promise<{ code: string; nodeImports: NodeImport[]; metafile: Metafile }> {
  const nodeImports: NodeImport[] = [];
  const result = await build({
    stdin: { contents, resolveDir: repoRoot, sourcefile: 'entry.ts', loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['edge-light', 'worker', 'browser', 'import', 'default'],
    target: 'es2022',
    minify,
    metafile: true,
    logLevel: 'silent',
    external: PEERS,
    plugins: [nodeImportRecorder(nodeImports)],
  });
  return { code: result.outputFiles[0]!.text, nodeImports, metafile: result.metafile };
}

/** The files that contributed code to a bundle (esbuild parses more than tree-shaking keeps). */
export function bundledInputs(metafile: Metafile): string[] {
  return Object.values(metafile.outputs).flatMap(output =>
    Object.entries(output.inputs).flatMap(([input, { bytesInOutput }]) =>
      bytesInOutput > 0 ? [input] : [],
    ),
  );
}

/** The npm packages (under node_modules) whose code ended up in a bundle. */
export function bundledPackages(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const input of bundledInputs(metafile)) {
    const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    if (match) names.add(match[1]!);
  }
  return [...names].sort();
}
