#!/usr/bin/env bash
# Checks the package as npm would publish it: builds, packs, then runs
# publint (warnings count as errors) and Are the Types Wrong? with the node16
# profile (node16 CommonJS, node16 ESM and bundler resolution) on the tarball,
# then builds and runs small apps against it (test/package/bundled-apps.mjs).
# Exits non-zero on any problem. SKIP_BUILD=1 reuses dist/.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${SKIP_BUILD:-}" != 1 ]; then
  build_log="$(mktemp)"
  npm run build 2>&1 | tee "$build_log"
  # A warning of the build is a problem of the build (round 39: Rolldown set
  # `preserveEntrySignatures` implicitly for the CommonJS chunk groups; tsdown's
  # `noExternal` was deprecated). Only the plugin timings (load) may show.
  if grep -E 'WARN|Warning' "$build_log" | grep -v 'PLUGIN_TIMINGS'; then
    echo "[package] the build printed the warnings above" >&2
    exit 1
  fi
  rm -f "$build_log"
fi

pack_dir="$(mktemp -d)"
trap 'rm -rf "$pack_dir"' EXIT
tarball="$pack_dir/$(npm pack --silent --pack-destination "$pack_dir" | tail -n 1)"
echo "[package] packed $(basename "$tarball"): $(tar -tzf "$tarball" | wc -l) files"

# Every path the manifest points at must be in the tarball.
node - "$tarball" <<'NODE'
const { execFileSync } = require('node:child_process');
const tarball = process.argv[2];
const files = new Set(
  execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map(f => f.replace(/^package\//, '')),
);
const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
const targets = [];
const walk = (value, path) => {
  if (typeof value === 'string') targets.push([path, value]);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
};
walk(manifest.exports, 'exports');
walk(manifest.bin, 'bin');
for (const field of ['main', 'module', 'types']) if (manifest[field]) targets.push([field, manifest[field]]);
const missing = targets.filter(([, target]) => !files.has(target.replace(/^\.\//, '')));
for (const [path, target] of missing) console.error(`[package] ${path} -> ${target} is not in the tarball`);
const fields = ['sideEffects', 'engines', 'files', 'types', 'license', 'repository', 'homepage', 'bugs', 'keywords'];
for (const field of fields) {
  if (manifest[field] === undefined) {
    console.error(`[package] package.json has no "${field}"`);
    missing.push([field]);
  }
}
for (const file of ['LICENSE', 'README.md', 'CHANGELOG.md']) {
  if (!files.has(file)) {
    console.error(`[package] ${file} is not in the tarball`);
    missing.push([file]);
  }
}
// The registry page shows README.md without the repository: a relative link there is dead.
const readme = execFileSync('tar', ['-xzOf', tarball, 'package/README.md'], { encoding: 'utf8' });
const relativeLinks = [...readme.matchAll(/\]\(([^)\s]+)[^)]*\)/g)]
  .map(match => match[1])
  .filter(target => !/^(?:https?:|mailto:|#)/.test(target));
for (const target of relativeLinks) {
  console.error(`[package] README.md links to "${target}": use an absolute https:// link`);
  missing.push([target]);
}
if (missing.length > 0) process.exit(1);
console.log(
  `[package] ${targets.length} manifest paths present; ${fields.join(', ')} set; LICENSE, README.md, CHANGELOG.md shipped; README links absolute`,
);
NODE

echo "[package] publint"
npx --no-install publint run "$tarball" --strict

echo "[package] attw (profile node16: node16 CJS, node16 ESM, bundler)"
npx --no-install attw "$tarball" --profile node16 --format table

echo "[package] apps built from the tarball (esbuild bundles and Node, ESM and CommonJS)"
node test/package/bundled-apps.mjs "$tarball" --report

echo "[package] 4 passed, 0 failed"
