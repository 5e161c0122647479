#!/usr/bin/env node
/**
 * Apps built the way a user builds them, against the packed tarball: the
 * tarball unpacked into an app's `node_modules/ai-guardrails` (the other
 * packages linked from this repository's `node_modules`), then
 *
 * - bundled with esbuild (ES modules, code splitting, platform neutral as for
 *   an edge runtime, peers external): bytes and files emitted, where the
 *   named-entity tagger's weights end up, and the bundle run in Node;
 * - run unbundled in Node from `node_modules`, as ES module and CommonJS;
 * - a Next.js app (the example's Next, Turbopack, `output: 'standalone'`) of
 *   four route handlers asking for PERSON, Node and edge runtime, with and
 *   without `import 'ai-guardrails/ner'`, and two with `pii()`'s default
 *   entities: which files each handler loads at start (none with the
 *   weights unless it imports `ai-guardrails/ner`), and its traced output
 *   started alone.
 *
 * Usage: node test/package/bundled-apps.mjs <tarball> [--report]
 * Exits non-zero on any failed expectation; prints one line per check and,
 * with --report, the sizes as a Markdown table.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const [tarball, ...flags] = process.argv.slice(2);
if (!tarball) throw new Error('usage: node test/package/bundled-apps.mjs <tarball> [--report]');
const repoModules = fileURLToPath(new URL('../../node_modules', import.meta.url));

const root = await mkdtemp(join(tmpdir(), 'ai-guardrails-apps-'));
const app = join(root, 'app');
const modules = join(app, 'node_modules');
await mkdir(modules, { recursive: true });
execFileSync('tar', ['-xzf', tarball, '-C', modules]);
execFileSync('mv', [join(modules, 'package'), join(modules, 'ai-guardrails')]);
for (const name of await readdir(repoModules)) {
  if (name === 'ai-guardrails' || name.startsWith('.')) continue;
  await symlink(join(repoModules, name), join(modules, name));
}

const text = 'Please forward this to Grace Okafor in accounting.';
const redacted = 'Please forward this to [PERSON] in accounting.';
/** A piece of the weights (the start of their base64 text), to find them in a bundle. */
const weightsModule = await readFile(
  join(modules, 'ai-guardrails/dist/guards/pii/ner/model/ner-model.js'),
  'utf8',
);
const weights = weightsModule.match(/[A-Za-z0-9+/]{4096}/)?.[0];
if (!weights) throw new Error('no base64 run of 4096 characters in the weights module');

/** The app's source: one check run over `text`, its result printed as JSON. */
const appSource = (imports, entities, { commonjs = false } = {}) => `${imports}
${commonjs ? "const { guardrails, pii, runChain } = require('ai-guardrails');" : "import { guardrails, pii, runChain } from 'ai-guardrails';"}
const guardrail = pii(${entities ? `{ entities: ${JSON.stringify(entities)} }` : ''});
globalThis.middleware = guardrails({ input: [guardrail] });
runChain([guardrail], ${JSON.stringify(text)}, { kind: 'input', messages: [] }).then(({ content, records: [record] }) =>
  console.log(JSON.stringify({ content, status: record.status, reason: record.reason })),
);
`;

const failures = [];
const rows = [];
/** The Next.js handlers' sizes, for --report. */
const nextRows = [];
function expectThat(ok, what) {
  console.log(`[apps] ${ok ? 'ok' : 'FAILED'}: ${what}`);
  if (!ok) failures.push(what);
}

/** Bundles an app into `dir`, runs it in Node, and returns what it printed and what was emitted. */
async function bundleAndRun(name, source, dir) {
  await writeFile(join(app, `${name}.mjs`), source);
  const result = await build({
    entryPoints: [join(app, `${name}.mjs`)],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['edge-light', 'worker', 'browser', 'import', 'default'],
    target: 'es2022',
    minify: true,
    outdir: dir,
    // Run by Node as ES modules with no package.json around them.
    outExtension: { '.js': '.mjs' },
    absWorkingDir: app,
    external: ['ai', '@opentelemetry/api'],
    metafile: true,
    logLevel: 'error',
  });
  const files = await Promise.all(
    Object.keys(result.metafile.outputs).map(async path => {
      const code = await readFile(join(app, path), 'utf8');
      return { path, bytes: Buffer.byteLength(code), weights: code.includes(weights) };
    }),
  );
  const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint)[0];
  const atStart = new Set([entry]);
  for (const path of atStart) {
    for (const { path: imported, kind } of result.metafile.outputs[path].imports) {
      if (kind === 'import-statement' && imported in result.metafile.outputs) atStart.add(imported);
    }
  }
  const nodeImports = Object.values(result.metafile.outputs).flatMap(o =>
    o.imports.filter(i => i.path.startsWith('node:') || builtinModules.includes(i.path)),
  );
  const printed = execFileSync(process.execPath, [join(app, entry)], {
    cwd: root,
    encoding: 'utf8',
  });
  return {
    files: files.map(file => ({ ...file, atStart: atStart.has(file.path) })),
    nodeImports,
    result: JSON.parse(printed),
  };
}

const kB = bytes => `${(bytes / 1024).toFixed(1)} kB`;
function report(name, files) {
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  const withWeights = files.filter(file => file.weights);
  rows.push(
    `| ${name} | ${files.length} | ${kB(total)} | ${withWeights.map(f => `${kB(f.bytes)}${f.atStart ? ' (at start)' : ' (on demand)'}`).join(', ') || '—'} |`,
  );
}

try {
  // 1. The default entities: the bundle emits no weights, and the check runs.
  const defaults = await bundleAndRun('default-app', appSource('', undefined), 'out-default');
  report('`guardrails` + `pii()` (default entities)', defaults.files);
  expectThat(
    defaults.files.every(file => !file.weights),
    `pii() with default entities: no emitted file holds the tagger's weights (${defaults.files.length} file(s), ${kB(defaults.files.reduce((s, f) => s + f.bytes, 0))})`,
  );
  expectThat(
    defaults.nodeImports.length === 0,
    'pii() with default entities: no Node built-in imported',
  );
  expectThat(
    defaults.result.content === text && defaults.result.status === 'passed',
    `pii() with default entities: ran, text passed (${JSON.stringify(defaults.result)})`,
  );

  // 2. PERSON with `import 'ai-guardrails/ner'`: the weights in one chunk loaded on demand, and the name redacted.
  const person = await bundleAndRun(
    'person-app',
    appSource("import 'ai-guardrails/ner';", ['PERSON']),
    'out-person',
  );
  report(
    "`guardrails` + `pii({ entities: ['PERSON'] })` + `import 'ai-guardrails/ner'`",
    person.files,
  );
  const weightChunks = person.files.filter(file => file.weights);
  expectThat(
    weightChunks.length === 1 && !weightChunks[0].atStart,
    `PERSON: the weights in exactly one chunk, loaded on demand (${weightChunks.map(f => `${f.path} ${kB(f.bytes)} at start: ${f.atStart}`).join('; ')})`,
  );
  expectThat(person.nodeImports.length === 0, 'PERSON: no Node built-in imported (edge-safe)');
  expectThat(
    person.result.content === redacted && person.result.status === 'modified',
    `PERSON, bundled, run in Node: the name redacted (${JSON.stringify(person.result)})`,
  );

  // 3. PERSON, bundled without the import and run where no ai-guardrails is installed (an edge
  // deployment, with only the peers): fails closed with an error that says what to import.
  await mkdir(join(root, 'deployed/node_modules/@opentelemetry'), { recursive: true });
  for (const peer of ['ai', '@opentelemetry/api']) {
    await symlink(join(repoModules, peer), join(root, 'deployed/node_modules', peer));
  }
  const bare = await bundleAndRun('bare-person-app', appSource('', ['PERSON']), '../deployed');
  expectThat(
    bare.files.every(file => !file.weights) &&
      bare.result.content === text &&
      bare.result.status === 'error' &&
      /import 'ai-guardrails\/ner'/.test(bare.result.reason ?? ''),
    `PERSON bundled without 'ai-guardrails/ner', deployed without node_modules: no weights emitted, fails closed naming the import (${JSON.stringify(bare.result)})`,
  );

  // 4. PERSON in Node from node_modules, unbundled, without the import: ES module and CommonJS.
  await writeFile(join(app, 'node-app.mjs'), appSource('', ['PERSON']));
  await writeFile(join(app, 'node-app.cjs'), appSource('', ['PERSON'], { commonjs: true }));
  for (const file of ['node-app.mjs', 'node-app.cjs']) {
    const printed = JSON.parse(
      execFileSync(process.execPath, [join(app, file)], { encoding: 'utf8' }),
    );
    expectThat(
      printed.content === redacted && printed.status === 'modified',
      `PERSON in Node from node_modules (${file}), no import of 'ai-guardrails/ner': the name redacted (${JSON.stringify(printed)})`,
    );
  }

  // 5. Each CommonJS entry exports what its ES module entry exports (the CommonJS build is chunked:
  // an entry chunk may not grow exports of the chunks it shares).
  const require = createRequire(join(app, 'app.cjs'));
  const manifest = JSON.parse(await readFile(join(modules, 'ai-guardrails/package.json'), 'utf8'));
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (!target.require) continue;
    const name = `ai-guardrails${subpath.slice(1)}`;
    const commonjs = Object.keys(require(name)).sort();
    const esm = Object.keys(
      await import(pathToFileURL(join(modules, 'ai-guardrails', target.import.default)).href),
    ).sort();
    expectThat(
      JSON.stringify(commonjs) === JSON.stringify(esm),
      `${name}: CommonJS and ES module entries export the same ${esm.length} names`,
    );
  }

  // 6. The command line, installed: it imports the library's ES module files beside it (no copy of its own).
  const cli = (...args) =>
    execFileSync(
      process.execPath,
      [join(modules, 'ai-guardrails', manifest.bin['ai-guardrails']), ...args],
      {
        cwd: app,
        encoding: 'utf8',
      },
    );
  expectThat(cli('--version') === `${manifest.version}\n`, `cli --version: ${manifest.version}`);
  const dist = join(modules, 'ai-guardrails/dist');
  const cliFiles = await Promise.all(
    (await readdir(dist))
      .filter(name => name.endsWith('.mjs'))
      .map(async name => readFile(join(dist, name), 'utf8')),
  );
  const cliBytes = cliFiles.reduce((sum, code) => sum + Buffer.byteLength(code), 0);
  expectThat(
    cliFiles.every(code => !code.includes(weights)) && cliBytes < 100 * 1024,
    `cli: its own files (dist/*.mjs) hold no copy of the library nor the weights (${cliFiles.length} files, ${kB(cliBytes)})`,
  );
  await writeFile(
    join(app, 'names.jsonl'),
    [
      { text, label: 1, set: 'made-up', spans: [{ entity_type: 'PERSON', start: 23, end: 35 }] },
      { text: 'The meeting moved to Tuesday.', label: 0, set: 'made-up', spans: [] },
    ]
      .map(row => JSON.stringify(row))
      .join('\n'),
  );
  const { overall } = JSON.parse(
    cli(
      'eval',
      '--guardrail',
      'pii',
      '--data',
      'names.jsonl',
      '--options',
      '{"entities":["PERSON"]}',
      '--json',
    ),
  );
  expectThat(
    overall.truePositives === 1 &&
      overall.trueNegatives === 1 &&
      overall.entities.PERSON.truePositives === 1,
    `cli eval --guardrail pii (PERSON): the name found, the other row passed (${JSON.stringify({ tp: overall.truePositives, tn: overall.trueNegatives })})`,
  );
  await writeFile(join(app, 'guardrails.yaml'), 'input:\n  - type: pii\n    entities: [PERSON]\n');
  const checked = JSON.parse(cli('check-config', 'guardrails.yaml', '--json'));
  expectThat(
    checked.valid === true && checked.guardrails.input === 1,
    'cli check-config: a pii config is valid',
  );

  // 7. Next.js (the example's, Turbopack, `output: 'standalone'`: only traced files deployed):
  // route handlers asking for PERSON, with and without the import, in the Node and edge runtimes.
  await nextAppChecks();
} finally {
  await rm(root, { recursive: true, force: true });
}

/** Route handler source: PERSON (or the default entities) over the request's text, the check's result as JSON. */
function routeSource(withImport, edge, person = true) {
  return `${withImport ? "import 'ai-guardrails/ner';\n" : ''}import { pii, runChain } from 'ai-guardrails';
const guardrail = pii(${person ? "{ entities: ['PERSON'] }" : ''});
export async function POST(request) {
  const { content, records: [record] } = await runChain([guardrail], await request.text(), { kind: 'input', messages: [] });
  return Response.json({ content, status: record.status, reason: record.reason });
}
${edge ? "export const runtime = 'edge';\n" : ''}`;
}

/** Builds a Next.js app of six route handlers, deploys its standalone output alone, and posts `text` to each. */
async function nextAppChecks() {
  const nextApp = join(app, 'next-app');
  // [imports 'ai-guardrails/ner', edge runtime, asks for PERSON]
  const routes = {
    'node-ner': [true, false, true],
    'edge-ner': [true, true, true],
    'node-plain': [false, false, true],
    'edge-plain': [false, true, true],
    'node-default': [false, false, false],
    'edge-default': [false, true, false],
  };
  for (const [route, [withImport, edge, person]] of Object.entries(routes)) {
    await mkdir(join(nextApp, 'app/api', route), { recursive: true });
    await writeFile(
      join(nextApp, 'app/api', route, 'route.js'),
      routeSource(withImport, edge, person),
    );
  }
  // The app's node_modules entries are links out of the app: Turbopack resolves from / then.
  await writeFile(
    join(nextApp, 'next.config.mjs'),
    "export default { output: 'standalone', turbopack: { root: '/' } };\n",
  );
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  const built = spawnSync(process.execPath, [join(repoModules, 'next/dist/bin/next'), 'build'], {
    cwd: nextApp,
    env,
    encoding: 'utf8',
  });
  const buildLog = `${built.stdout}${built.stderr}`;
  // Next's own notes on the edge runtime, and (with CI set, as .ci/run sets it) on a
  // missing build cache, are not about this package.
  const warnings = buildLog
    .split('\n')
    .filter(line => /⚠|warn/i.test(line) && !/edge runtime|No build cache found/i.test(line));
  expectThat(
    built.status === 0 && warnings.length === 0,
    `Next.js build (Turbopack): succeeds with no warning (${built.status}; ${warnings.join(' / ') || 'none'})`,
  );
  if (built.status !== 0) return console.log(buildLog);
  await nextWeightChecks(join(nextApp, '.next'), routes);
  // Deployed away from the app's node_modules: what the trace copied is all there is.
  const deployed = join(root, 'deployed-next');
  execFileSync('cp', ['-a', join(nextApp, '.next/standalone'), deployed]);
  const [server] = execFileSync('find', [deployed, '-path', '*/next-app/server.js'], {
    encoding: 'utf8',
  }).split('\n');
  const port = 20000 + (process.pid % 20000);
  const child = spawn(process.execPath, [server], {
    env: { ...env, PORT: String(port), HOSTNAME: '127.0.0.1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise((ready, failed) => {
      const timer = setTimeout(() => failed(new Error('next server not ready in 60 s')), 60_000);
      child.stdout.on('data', chunk => /Ready/.test(String(chunk)) && ready(clearTimeout(timer)));
      child.on('exit', code => failed(new Error(`next server exited with ${code}`)));
    });
    const post = async route =>
      (await fetch(`http://127.0.0.1:${port}/api/${route}`, { method: 'POST', body: text })).json();
    // Without the import first: a Node handler with it registers the loader for the whole server
    // process (one module instance), and a handler without it asked later would redact too.
    for (const route of ['node-plain', 'edge-plain']) {
      const result = await post(route);
      expectThat(
        result.content === text &&
          result.status === 'error' &&
          /import 'ai-guardrails\/ner'/.test(result.reason ?? ''),
        `Next.js ${route}, no import, standalone output: fails closed naming the import (${JSON.stringify(result)})`,
      );
    }
    for (const route of ['node-default', 'edge-default']) {
      const result = await post(route);
      expectThat(
        result.content === text && result.status === 'passed',
        `Next.js ${route}, pii() with default entities, standalone output: the text passed (${JSON.stringify(result)})`,
      );
    }
    for (const route of ['node-ner', 'edge-ner']) {
      const result = await post(route);
      expectThat(
        result.content === redacted && result.status === 'modified',
        `Next.js ${route}, import 'ai-guardrails/ner': the name redacted (${JSON.stringify(result)})`,
      );
    }
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise(stopped => child.once('exit', stopped));
      process.kill(-child.pid);
      await exited;
    }
  }
}

/**
 * Where Turbopack put the tagger's weights: the files each route handler loads
 * at start (a Node handler's `R.c(...)` chunks in its `route.js`, an edge
 * handler's files in `middleware-manifest.json`) hold none unless the handler
 * imports `ai-guardrails/ner`; with the import, a Node handler loads them on
 * demand (a chunk of their own, not at start) and an edge handler's files
 * hold them (round 39: every handler loaded them at start, `findPii`'s
 * synchronous copy being in `pii()`'s module graph).
 */
async function nextWeightChecks(dotNext, routes) {
  const edgeFunctions = JSON.parse(
    await readFile(join(dotNext, 'server/middleware-manifest.json'), 'utf8'),
  ).functions;
  const holdsWeights = async file =>
    (await readFile(join(dotNext, file), 'utf8')).includes(weights);
  const nodeChunks = (await readdir(join(dotNext, 'server/chunks')))
    .filter(name => name.endsWith('.js'))
    .map(name => `server/chunks/${name}`);
  const nodeWeightChunks = [];
  for (const file of nodeChunks) if (await holdsWeights(file)) nodeWeightChunks.push(file);
  for (const [route, [withImport, edge]] of Object.entries(routes)) {
    const atStart = edge
      ? (edgeFunctions[`/api/${route}/route`]?.files ?? [])
      : [
          ...(await readFile(join(dotNext, 'server/app/api', route, 'route.js'), 'utf8')).matchAll(
            /R\.c\("([^"]+)"\)/g,
          ),
        ].map(([, file]) => file);
    const withWeights = [];
    let bytes = 0;
    for (const file of atStart) {
      bytes += (await stat(join(dotNext, file))).size;
      if (await holdsWeights(file)) withWeights.push(file);
    }
    const files = `${atStart.length} file(s), ${kB(bytes)}`;
    nextRows.push(
      `| \`${route}\` | ${atStart.length} | ${kB(bytes)} | ${withWeights.length > 0 ? (edge ? 'in its files' : 'at start') : withImport ? 'on demand' : '—'} |`,
    );
    if (!withImport) {
      expectThat(
        atStart.length > 0 && withWeights.length === 0,
        `Next.js ${route}, no import of 'ai-guardrails/ner': no file loaded at start holds the weights (${files})`,
      );
    } else if (edge) {
      expectThat(
        withWeights.length === 1,
        `Next.js ${route}, import 'ai-guardrails/ner': the weights in one of its files (${files})`,
      );
    } else {
      expectThat(
        atStart.length > 0 && withWeights.length === 0 && nodeWeightChunks.length === 1,
        `Next.js ${route}, import 'ai-guardrails/ner': the weights in one chunk loaded on demand (${nodeWeightChunks.join(', ')}; at start ${files})`,
      );
    }
  }
}

if (flags.includes('--report')) {
  console.log('\n| app (esbuild, splitting, minified) | files emitted | bytes emitted | weights |');
  console.log('| --- | ---: | ---: | --- |');
  for (const row of rows) console.log(row);
  console.log('\n| Next.js handler (Turbopack) | files loaded at start | their bytes | weights |');
  console.log('| --- | ---: | ---: | --- |');
  for (const row of nextRows) console.log(row);
}
if (failures.length > 0) {
  console.error(`[apps] ${failures.length} failed`);
  process.exit(1);
}
console.log('[apps] all checks passed');
