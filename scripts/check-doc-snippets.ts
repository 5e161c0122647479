/**
 * Type-checks every TypeScript block of README.md and docs/*.md as a user
 * would compile it: `strict` TypeScript, `ai-guardrails` imports resolved to
 * this repository's sources, the real `ai` package.
 *
 *   npx tsx scripts/check-doc-snippets.ts          # prints each failure, exits 1 on any
 *
 * Info-string flags after the language (```ts fragment):
 * - `fragment`: a piece that relies on names from the surrounding prose or an
 *   earlier block; listed, not compiled. Use sparingly: a block users copy
 *   whole should compile whole.
 * - `ai6`: compiled a second time against AI SDK 6 (`ai` resolved to the
 *   `ai-v6` devDependency, `@ai-sdk/openai` to a spec-v3 model), after doing
 *   what the README tells AI SDK 6 users to do: `specificationVersion: 'v3'`
 *   added to every `guardrails({...})` and `loadGuardrailsConfig(...)` call.
 * - `ai6-only`: code written for AI SDK 6 (it passes `specificationVersion:
 *   'v3'` itself): compiled against AI SDK 6 only, as written.
 *
 * Each block is its own module, so blocks never see each other's names.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** One fenced TypeScript block of a markdown file. */
export interface DocSnippet {
  file: string;
  /** 1-based line of the first line of code (after the fence). */
  line: number;
  flags: string[];
  code: string;
}

/** A type error in a snippet, at its line in the markdown file. */
export interface SnippetProblem {
  file: string;
  line: number;
  variant: 'ai7' | 'ai6';
  message: string;
}

const languages = new Set(['ts', 'typescript', 'tsx']);
const knownFlags = new Set(['fragment', 'ai6', 'ai6-only']);

/** The fenced TypeScript blocks of one markdown text. */
export function extractSnippets(file: string, markdown: string): DocSnippet[] {
  const snippets: DocSnippet[] = [];
  const lines = markdown.split('\n');
  let open: { fence: string; line: number; flags: string[]; code: string[] } | undefined;
  lines.forEach((text, index) => {
    if (open) {
      if (text.trimStart().startsWith(open.fence) && text.trim() === open.fence) {
        snippets.push({ file, line: open.line, flags: open.flags, code: open.code.join('\n') });
        open = undefined;
      } else {
        open.code.push(text);
      }
      return;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]+)?(.*)$/.exec(text);
    if (!fence) return;
    const [, , marks = '', language = '', rest = ''] = fence;
    if (languages.has(language.toLowerCase())) {
      open = {
        fence: marks,
        line: index + 2,
        flags: rest.trim().split(/\s+/).filter(Boolean),
        code: [],
      };
    } else {
      // Skip the body of a non-TypeScript block (it may contain ``` lines of its own).
      open = { fence: marks, line: index + 2, flags: ['not-ts'], code: [] };
    }
  });
  if (open) throw new Error(`${file}:${open.line - 1}: unclosed code block`);
  return snippets.filter(snippet => !snippet.flags.includes('not-ts'));
}

/** What AI SDK 6 users are told to add: `specificationVersion: 'v3'`. */
export function toAiSdk6(code: string): string {
  return code
    .replace(/\bguardrails\(\{/g, "guardrails({ specificationVersion: 'v3',")
    .replace(/\bguardrails\(\)/g, "guardrails({ specificationVersion: 'v3' })")
    .replace(
      /\bloadGuardrailsConfig\(([^(){}]+?),\s*\{/g,
      "loadGuardrailsConfig($1, { specificationVersion: 'v3',",
    )
    .replace(
      /\bloadGuardrailsConfig\(([^(){},]+?)\)/g,
      "loadGuardrailsConfig($1, { specificationVersion: 'v3' })",
    );
}

function markdownFiles(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs'))
    .filter(name => name.endsWith('.md'))
    .sort()
    .map(name => join(repoRoot, 'docs', name));
  return [join(repoRoot, 'README.md'), ...docs];
}

const entryPaths = {
  'ai-guardrails': ['src/index.ts'],
  'ai-guardrails/testing': ['src/testing/index.ts'],
  'ai-guardrails/redis': ['src/redis/index.ts'],
  'ai-guardrails/config': ['src/config/index.ts'],
};

function compilerOptions(variant: 'ai7' | 'ai6', shimDir: string): ts.CompilerOptions {
  const paths: Record<string, string[]> = Object.fromEntries(
    Object.entries(entryPaths).map(([name, [path]]) => [name, [join(repoRoot, path!)]]),
  );
  if (variant === 'ai6') {
    paths.ai = [join(repoRoot, 'node_modules/ai-v6/dist/index.d.ts')];
    paths['@ai-sdk/openai'] = [join(shimDir, 'openai-v3.d.ts')];
  }
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    esModuleInterop: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    noEmit: true,
    paths,
  };
}

/**
 * Compiles the snippets (each as its own module) and returns the errors
 * inside them, mapped to their markdown lines.
 */
export function checkSnippets(snippets: readonly DocSnippet[]): {
  problems: SnippetProblem[];
  compiled: number;
  fragments: number;
} {
  // Inside the repository so `ai`, `zod` and `@ai-sdk/*` resolve from its node_modules; one folder per run.
  const workDir = join(repoRoot, `node_modules/.cache/doc-snippets-${process.pid}-${Date.now()}`);
  mkdirSync(workDir, { recursive: true });
  try {
    return compileSnippets(snippets, workDir);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function compileSnippets(
  snippets: readonly DocSnippet[],
  workDir: string,
): { problems: SnippetProblem[]; compiled: number; fragments: number } {
  writeFileSync(
    join(workDir, 'openai-v3.d.ts'),
    [
      '// @ai-sdk/openai as AI SDK 6 users have it (3.x): models of the v3 spec.',
      "import type { LanguageModelV3 } from '@ai-sdk/provider-v3';",
      'export declare function openai(modelId: string): LanguageModelV3;',
      '',
    ].join('\n'),
  );
  const problems: SnippetProblem[] = [];
  const compiledSnippets = snippets.filter(snippet => !snippet.flags.includes('fragment'));
  for (const snippet of snippets) {
    const unknown = snippet.flags.filter(flag => !knownFlags.has(flag));
    if (unknown.length > 0) {
      problems.push({
        file: snippet.file,
        line: snippet.line - 1,
        variant: 'ai7',
        message: `unknown flag(s) ${unknown.join(', ')}: expected ${[...knownFlags].join(', ')}`,
      });
    }
  }
  for (const variant of ['ai7', 'ai6'] as const) {
    const chosen =
      variant === 'ai7'
        ? compiledSnippets.filter(snippet => !snippet.flags.includes('ai6-only'))
        : compiledSnippets.filter(
            snippet => snippet.flags.includes('ai6') || snippet.flags.includes('ai6-only'),
          );
    if (chosen.length === 0) continue;
    const byPath = new Map<string, DocSnippet>();
    chosen.forEach((snippet, index) => {
      const path = join(workDir, `${variant}-${index}.ts`);
      const code =
        snippet.flags.includes('ai6') && variant === 'ai6' ? toAiSdk6(snippet.code) : snippet.code;
      // `export {}` keeps each block a module of its own.
      writeFileSync(path, `${code}\nexport {};\n`);
      byPath.set(path, snippet);
    });
    const program = ts.createProgram([...byPath.keys()], compilerOptions(variant, workDir));
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const snippet = diagnostic.file ? byPath.get(diagnostic.file.fileName) : undefined;
      if (!snippet || !diagnostic.file || diagnostic.start === undefined) continue;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      problems.push({
        file: snippet.file,
        line: snippet.line + line,
        variant,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
      });
    }
  }
  return {
    problems,
    compiled: compiledSnippets.length,
    fragments: snippets.length - compiledSnippets.length,
  };
}

/** Every TypeScript block of README.md and docs/*.md. */
export function allDocSnippets(): DocSnippet[] {
  return markdownFiles().flatMap(path =>
    extractSnippets(relative(repoRoot, path), readFileSync(path, 'utf8')),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const snippets = allDocSnippets();
  const { problems, compiled, fragments } = checkSnippets(snippets);
  const ai6 = snippets.filter(
    s => (s.flags.includes('ai6') || s.flags.includes('ai6-only')) && !s.flags.includes('fragment'),
  ).length;
  for (const problem of problems) {
    console.error(`${problem.file}:${problem.line} [${problem.variant}] ${problem.message}`);
  }
  console.log(
    `${snippets.length} TypeScript blocks: ${compiled} compiled (${ai6} against AI SDK 6), ${fragments} marked fragment; ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
  );
  process.exitCode = problems.length > 0 ? 1 : 0;
}
