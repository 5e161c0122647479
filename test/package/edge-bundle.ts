import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { build as tsdown } from 'tsdown';
import tsdownConfigs from '../../tsdown.config';

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
  { minify = false, splitting = false }: { minify?: boolean; splitting?: boolean } = {},
): Promise<{
  code: string;
  nodeImports: NodeImport[];
  metafile: Metafile;
  outputs: BundleOutput[];
}> {
  const nodeImports: NodeImport[] = [];
  const result = await build({
    stdin: { contents, resolveDir: repoRoot, sourcefile: 'entry.ts', loader: 'ts' },
    bundle: true,
    write: false,
    // With `splitting`, each `import()` is a chunk of its own (as bundlers of
    // web and edge apps do); without it, esbuild inlines them into one file.
    ...(splitting && { splitting: true, outdir: 'out' }),
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['edge-light', 'worker', 'browser', 'import', 'default'],
    target: 'es2022',
    minify,
    metafile: true,
    logLevel: 'silent',
    external: PEERS,
    // A build of the library outside the repository (`buildEsmLibrary`) finds its dependencies here.
    nodePaths: [join(repoRoot, 'node_modules')],
    plugins: [nodeImportRecorder(nodeImports)],
  });
  const outputs = startupOrder(result.metafile).map(({ path, atStart }) => {
    // One file without splitting (`<stdout>`), else named as in the metafile (under `out/`).
    const files = result.outputFiles;
    const file = files.length === 1 ? files[0]! : files.find(output => output.path.endsWith(path))!;
    return { path, atStart, code: file.text };
  });
  return { code: outputs[0]!.code, nodeImports, metafile: result.metafile, outputs };
}

/** One file of a bundle: the entry first, then its chunks. */
export interface BundleOutput {
  path: string;
  /** Loaded with the entry (imported statically), not at an `import()`. */
  atStart: boolean;
  code: string;
}

/** The outputs, the entry first, each marked loaded at start (imported statically from the entry) or not. */
function startupOrder(metafile: Metafile): { path: string; atStart: boolean }[] {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find(path => outputs[path]!.entryPoint === 'entry.ts')!;
  const atStart = new Set([entry]);
  for (const path of atStart) {
    for (const { path: imported, kind } of outputs[path]!.imports) {
      if (kind === 'import-statement' && imported in outputs) atStart.add(imported);
    }
  }
  return [entry, ...Object.keys(outputs).filter(path => path !== entry)].map(path => ({
    path,
    atStart: atStart.has(path),
  }));
}

/** The files that contributed code to the given outputs of a bundle. */
export function inputsOf(metafile: Metafile, paths: readonly string[]): string[] {
  return paths.flatMap(path =>
    Object.entries(metafile.outputs[path]!.inputs).flatMap(([input, { bytesInOutput }]) =>
      bytesInOutput > 0 ? [input] : [],
    ),
  );
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

/**
 * Builds the library's ES modules as `npm run build` puts them in `dist/`
 * (the ESM entry of tsdown.config.ts), without type declarations, into a
 * new temporary directory with the package's `sideEffects`, and returns the path of its `index.js`: what an
 * app's bundler reads from the published package, in about a second.
 */
export async function buildEsmLibrary(): Promise<string> {
  const esm = [tsdownConfigs]
    .flat()
    .find(config => Array.isArray(config.format) && config.format.includes('esm') && config.dts);
  if (!esm) throw new Error('tsdown.config.ts has no ESM library build');
  const outDir = await mkdtemp(join(tmpdir(), 'ai-guardrails-dist-'));
  await tsdown({ ...esm, config: false, dts: false, outDir, logLevel: 'silent' });
  // A bundler reads `sideEffects` from the package.json above the files, as in the published package.
  const { name, type, sideEffects } = JSON.parse(
    await readFile(join(repoRoot, 'package.json'), 'utf8'),
  );
  await writeFile(join(outDir, 'package.json'), JSON.stringify({ name, type, sideEffects }));
  return join(outDir, 'index.js');
}
