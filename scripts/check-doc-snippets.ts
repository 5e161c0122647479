/**
 * Type-checks every TypeScript block of README.md and docs/*.md as a user
 * would compile it: `strict` TypeScript, `ai-guardrails` imports resolved to
 * this repository's sources, the real `ai` package.
 *
 *   npx tsx scripts/check-doc-snippets.ts          # prints each failure, exits 1 on any
 *
 * Info-string flags after the language (```ts fragment):
 * - `fragment`: a piece that relies on names from the surrounding prose or an
 *   earlier block. It is compiled too: every name it uses but does not import
 *   that an entry point of this package, `ai`, `zod` or `@ai-sdk/openai`
 *   exports is imported for it, and only what the prose supplies is left open
 *   (a name nothing exports, such as your own `search` tool or `model`, is
 *   typed `any`; a module nothing installs is not resolved). So a wrong option
 *   name, option type or return type in a fragment is still an error. Use
 *   sparingly: a block users copy whole should compile whole.
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
        ? snippets.filter(snippet => !snippet.flags.includes('ai6-only'))
        : snippets.filter(
            snippet => snippet.flags.includes('ai6') || snippet.flags.includes('ai6-only'),
          );
    if (chosen.length === 0) continue;
    const options = compilerOptions(variant, workDir);
    const byPath = new Map<string, DocSnippet>();
    const sources = new Map<string, string>();
    chosen.forEach((snippet, index) => {
      const path = join(workDir, `${variant}-${index}.ts`);
      const code =
        snippet.flags.includes('ai6') && variant === 'ai6' ? toAiSdk6(snippet.code) : snippet.code;
      // `export {}` keeps each block a module of its own.
      sources.set(path, `${code}\nexport {};\n`);
      byPath.set(path, snippet);
    });
    const probePath = join(workDir, `${variant}-exports.ts`);
    writeFileSync(
      probePath,
      fragmentModules.map((name, index) => `import * as m${index} from '${name}';`).join('\n'),
    );
    for (const [path, code] of sources) writeFileSync(path, code);
    const host = cachingHost(options);
    let program = ts.createProgram([...byPath.keys(), probePath], options, host);
    const fragmentPaths = [...byPath].filter(([, s]) => s.flags.includes('fragment'));
    const exported = fragmentPaths.length > 0 ? exportedNames(program, probePath) : new Map();
    if (fragmentPaths.length > 0) {
      let changed = false;
      for (const [path] of fragmentPaths) {
        const file = program.getSourceFile(path);
        if (!file) continue;
        const missing = new Set<string>();
        for (const diagnostic of program.getSemanticDiagnostics(file)) {
          const name = missingName(diagnostic);
          if (name && exported.has(name)) missing.add(name);
        }
        if (missing.size === 0) continue;
        // Imports are hoisted, so appending them keeps every line where it was.
        const bySource = new Map<string, string[]>();
        for (const name of [...missing].sort()) {
          const from = exported.get(name)!;
          bySource.set(from, [...(bySource.get(from) ?? []), name]);
        }
        const imports = [...bySource]
          .map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`)
          .join('\n');
        writeFileSync(path, `${sources.get(path)}${imports}\n`);
        changed = true;
      }
      if (changed)
        program = ts.createProgram([...byPath.keys(), probePath], options, host, program);
    }
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const snippet = diagnostic.file ? byPath.get(diagnostic.file.fileName) : undefined;
      if (!snippet || !diagnostic.file || diagnostic.start === undefined) continue;
      if (snippet.flags.includes('fragment') && leftOpenInFragments(diagnostic, exported)) continue;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      problems.push({
        file: snippet.file,
        line: snippet.line + line,
        variant,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
      });
    }
  }
  const fragments = snippets.filter(snippet => snippet.flags.includes('fragment')).length;
  return { problems, compiled: snippets.length, fragments };
}

/** A compiler host that parses a file again only when its text changed (the second pass of fragments). */
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parsed = new Map<string, ts.SourceFile>();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = host.readFile(fileName);
    const cached = parsed.get(fileName);
    if (cached && text !== undefined && cached.text === text) return cached;
    const file = getSourceFile(fileName, languageVersion, onError, shouldCreate);
    if (file) parsed.set(fileName, file);
    return file;
  };
  return host;
}

/** Modules whose exports a fragment may use without importing them, first match wins. */
const fragmentModules = [
  'ai-guardrails',
  'ai-guardrails/config',
  'ai-guardrails/redis',
  'ai-guardrails/testing',
  'ai',
  'zod',
  '@ai-sdk/openai',
];
/** Of these modules, only these names: zod exports `input`, `output`, `string`... which prose means otherwise. */
const onlyNames: Record<string, readonly string[]> = { zod: ['z'], '@ai-sdk/openai': ['openai'] };

/** Every name the fragment modules export, with the module it comes from. */
function exportedNames(program: ts.Program, probePath: string): Map<string, string> {
  const checker = program.getTypeChecker();
  const names = new Map<string, string>();
  const probe = program.getSourceFile(probePath);
  for (const statement of probe?.statements ?? []) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const moduleSymbol = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (!moduleSymbol) continue;
    const from = statement.moduleSpecifier.text;
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      if (onlyNames[from] && !onlyNames[from].includes(symbol.name)) continue;
      if (!names.has(symbol.name)) names.set(symbol.name, from);
    }
  }
  return names;
}

const cannotFindName = 2304;
const cannotFindNameDidYouMean = 2552;
const noValueForShorthand = 18004;
const cannotFindModule = 2307;
const implicitAnyParameter = 7006;
const implicitAnyBinding = 7031;

/** The name a "Cannot find name 'x'" (or shorthand `{ x }`) diagnostic is about. */
function missingName(diagnostic: ts.Diagnostic): string | undefined {
  if (![cannotFindName, cannotFindNameDidYouMean, noValueForShorthand].includes(diagnostic.code))
    return undefined;
  const match = /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  return match?.[1];
}

/**
 * What a fragment may leave to its prose: names nothing exports (your own tools,
 * your `model`), the parameters of callbacks typed by them, and modules not
 * installed here. A misspelt name of this package (TypeScript suggests the
 * right one) is still an error.
 */
function leftOpenInFragments(diagnostic: ts.Diagnostic, exported: Map<string, string>): boolean {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (diagnostic.code === cannotFindModule) return !/'ai-guardrails[/']/.test(text);
  if (diagnostic.code === cannotFindNameDidYouMean) {
    const suggestion = /Did you mean '([^']+)'/.exec(text)?.[1];
    return suggestion === undefined || !exported.has(suggestion);
  }
  return [cannotFindName, noValueForShorthand, implicitAnyParameter, implicitAnyBinding].includes(
    diagnostic.code,
  );
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
  const ai6 = snippets.filter(s => s.flags.includes('ai6') || s.flags.includes('ai6-only')).length;
  for (const problem of problems) {
    console.error(`${problem.file}:${problem.line} [${problem.variant}] ${problem.message}`);
  }
  console.log(
    `${snippets.length} TypeScript blocks: ${compiled} compiled (${ai6} also against AI SDK 6; ${fragments} fragments, with the names their prose supplies left open); ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
  );
  process.exitCode = problems.length > 0 ? 1 : 0;
}
