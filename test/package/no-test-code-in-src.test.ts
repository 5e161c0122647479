import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

/** Test-only packages: shipped code must not load them (they are devDependencies). */
const testOnly = [
  'vitest',
  'ai/test',
  'fast-check',
  '@opentelemetry/sdk-trace-base',
  'playwright-core',
];

const importPattern =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

function shippedSources(): string[] {
  return (readdirSync(src, { recursive: true }) as string[])
    .filter(path => path.endsWith('.ts') && !path.endsWith('.test.ts'))
    .map(path => join(src, path));
}

/** Module names a file imports (static, dynamic, side-effect and require forms). */
function importedModules(code: string): string[] {
  return [...code.matchAll(importPattern)].map(match => match[1]!);
}

describe('src/ holds no test code', () => {
  it('finds the import forms it looks for', () => {
    expect(
      importedModules(
        "import { it } from 'vitest';\nimport fc from \"fast-check\";\nimport 'ai/test';\nawait import('vitest');\nexport { x } from './x';",
      ),
    ).toEqual(['vitest', 'fast-check', 'ai/test', 'vitest', './x']);
  });

  it('no shipped source (src/**/*.ts except *.test.ts) imports a test-only package; test helpers live in test/helpers/', () => {
    const files = shippedSources();
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap(file =>
      importedModules(readFileSync(file, 'utf8'))
        .filter(name => testOnly.some(pkg => name === pkg || name.startsWith(`${pkg}/`)))
        .map(name => `${relative(src, file)} imports ${name}`),
    );
    expect(offenders).toEqual([]);
  });

  it('no helper files with test-like names are left in src/', () => {
    const helpers = (readdirSync(src, { recursive: true }) as string[]).filter(path =>
      /\.(?:test-helpers?|fixture|spec-helpers?)\.ts$/.test(path),
    );
    expect(helpers).toEqual([]);
  });
});
