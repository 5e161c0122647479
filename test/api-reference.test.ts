import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * docs/api.md cannot go stale: every public name of every entry point in
 * package.json `exports` must have a row there (with the right kind and a
 * link that resolves), and every row must name something exported. Values
 * come from importing the entries (`Object.keys`); type-only exports are read
 * from the entry files with the TypeScript compiler API (following
 * `export *` and re-exports to their declarations), without type-checking.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const apiDoc = join(root, 'docs/api.md');

type Kind = 'function' | 'class' | 'constant' | 'interface' | 'type';

// ---- The real exports -------------------------------------------------------

const sourceFiles = new Map<string, ts.SourceFile>();
function sourceFile(file: string): ts.SourceFile {
  let parsed = sourceFiles.get(file);
  if (!parsed) {
    parsed = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    sourceFiles.set(file, parsed);
  }
  return parsed;
}

function resolveModule(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined; // a dependency's name: not ours to list
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, 'index.ts')].find(existsSync);
}

const hasExportModifier = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some(({ kind }) => kind === ts.SyntaxKind.ExportKeyword);

type Declaration =
  | ts.InterfaceDeclaration
  | ts.TypeAliasDeclaration
  | ts.FunctionDeclaration
  | ts.ClassDeclaration
  | ts.VariableDeclaration
  | ts.EnumDeclaration;

/** Top-level declarations of a file by name (exported or not). */
function localDeclaration(file: string, name: string): Declaration | undefined {
  for (const statement of sourceFile(file).statements) {
    if (
      (ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name?.text === name
    ) {
      return statement;
    }
    if (ts.isVariableStatement(statement)) {
      const found = statement.declarationList.declarations.find(
        declaration => ts.isIdentifier(declaration.name) && declaration.name.text === name,
      );
      if (found) return found;
    }
  }
  return undefined;
}

/** A name as seen inside a file: declared there, or imported from a module of ours. */
function resolveLocal(file: string, name: string, depth = 0): Declaration | undefined {
  const own = localDeclaration(file, name);
  if (own) return own;
  for (const statement of sourceFile(file).statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const specifier = bindings.elements.find(element => element.name.text === name);
    const module = resolveModule(file, statement.moduleSpecifier.text);
    if (specifier && module)
      return resolveExport(module, specifier.propertyName?.text ?? name, depth + 1);
  }
  return undefined;
}

/** The declaration behind the export `name` of a module, through re-exports. */
function resolveExport(file: string, name: string, depth = 0): Declaration | undefined {
  if (depth > 32) throw new Error(`re-export chain too deep at ${name} in ${file}`);
  const own = localDeclaration(file, name);
  if (own && hasExportModifier(ts.isVariableDeclaration(own) ? own.parent.parent : own)) return own;
  const starModules: string[] = [];
  for (const statement of sourceFile(file).statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const module =
      statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
        ? resolveModule(file, statement.moduleSpecifier.text)
        : undefined;
    const clause = statement.exportClause;
    if (!clause) {
      if (module) starModules.push(module);
      continue;
    }
    if (!ts.isNamedExports(clause)) continue;
    const specifier = clause.elements.find(element => element.name.text === name);
    if (!specifier) continue;
    const local = specifier.propertyName?.text ?? name;
    if (statement.moduleSpecifier)
      return module ? resolveExport(module, local, depth + 1) : undefined;
    return resolveLocal(file, local, depth + 1);
  }
  for (const module of starModules) {
    const found = resolveExport(module, name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Every name a module exports, following `export *`. */
function exportedNames(file: string, depth = 0): Set<string> {
  if (depth > 32) throw new Error(`export * chain too deep at ${file}`);
  const names = new Set<string>();
  for (const statement of sourceFile(file).statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.add(element.name.text);
      } else if (clause && ts.isNamespaceExport(clause)) {
        names.add(clause.name.text);
      } else if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const module = resolveModule(file, statement.moduleSpecifier.text);
        if (module) for (const name of exportedNames(module, depth + 1)) names.add(name);
      }
    } else if (hasExportModifier(statement)) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations)
          if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
      } else if (
        (ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isEnumDeclaration(statement)) &&
        statement.name
      ) {
        names.add(statement.name.text);
      }
    }
  }
  return names;
}

interface EntryPoint {
  /** The import specifier: `ai-guardrails`, `ai-guardrails/redis`, ... */
  specifier: string;
  file: string;
  /** Each exported name and its kind. */
  exports: Map<string, Kind>;
}

function kindOf(value: unknown): Kind {
  if (typeof value !== 'function') return 'constant';
  return /^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
}

/** The package's code entry points, from package.json `exports`, with their exports. */
async function readEntryPoints(): Promise<EntryPoint[]> {
  const { name, exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const entries: EntryPoint[] = [];
  for (const subpath of Object.keys(exports)) {
    // Files shipped as they are (package.json, the JSON Schema) are not code.
    if (subpath.endsWith('.json')) continue;
    const file =
      subpath === '.' ? join(root, 'src/index.ts') : join(root, 'src', subpath, 'index.ts');
    if (!existsSync(file)) throw new Error(`no source file for the entry "${subpath}" at ${file}`);
    const runtime = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const kinds = new Map<string, Kind>();
    for (const [key, value] of Object.entries(runtime)) kinds.set(key, kindOf(value));
    for (const exported of exportedNames(file)) {
      if (kinds.has(exported)) continue;
      const declaration = resolveExport(file, exported);
      if (!declaration) throw new Error(`cannot find the declaration of ${exported} (${file})`);
      if (ts.isInterfaceDeclaration(declaration)) kinds.set(exported, 'interface');
      else if (ts.isTypeAliasDeclaration(declaration)) kinds.set(exported, 'type');
      else throw new Error(`${exported} is a value in ${file} but not exported at run time`);
    }
    entries.push({
      specifier: subpath === '.' ? name : `${name}/${subpath.slice(2)}`,
      file,
      exports: kinds,
    });
  }
  return entries;
}

/** The property names of an interface or object type, with those of the interfaces it extends. */
function memberNames(declaration: Declaration, depth = 0): Set<string> {
  const names = new Set<string>();
  const file = declaration.getSourceFile().fileName;
  const addFromType = (type: ts.TypeNode) => {
    if (ts.isTypeLiteralNode(type)) {
      for (const member of type.members) if (member.name) names.add(member.name.getText());
    } else if (ts.isIntersectionTypeNode(type)) {
      type.types.forEach(addFromType);
    } else if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
      const base = resolveLocal(file, type.typeName.text);
      if (base && depth < 16) for (const name of memberNames(base, depth + 1)) names.add(name);
    }
  };
  if (ts.isInterfaceDeclaration(declaration)) {
    for (const member of declaration.members) if (member.name) names.add(member.name.getText());
    for (const clause of declaration.heritageClauses ?? []) {
      for (const base of clause.types) {
        if (!ts.isIdentifier(base.expression)) continue;
        const found = resolveLocal(file, base.expression.text);
        if (found && depth < 16) for (const name of memberNames(found, depth + 1)) names.add(name);
      }
    }
  } else if (ts.isTypeAliasDeclaration(declaration)) {
    addFromType(declaration.type);
  }
  return names;
}

// ---- docs/api.md -------------------------------------------------------------

interface DocRow {
  name: string;
  kind: string;
  line: number;
  text: string;
}

interface ApiDoc {
  /** Rows per entry section (`## \`ai-guardrails/redis\``). */
  entries: Map<string, DocRow[]>;
  /** Rows of the members section: `Owner.member`. */
  members: Array<DocRow & { owner: string }>;
}

function readApiDoc(): ApiDoc {
  const doc: ApiDoc = { entries: new Map(), members: [] };
  let section: { entry: string } | 'members' | undefined;
  let inCode = false;
  readFileSync(apiDoc, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.startsWith('```')) inCode = !inCode;
      if (inCode) return;
      const heading = /^## (.*)$/.exec(text);
      if (heading) {
        const entry = /^`([^`]+)`$/.exec(heading[1]!.trim());
        section = entry
          ? { entry: entry[1]! }
          : /^Members and options\b/.test(heading[1]!)
            ? 'members'
            : undefined;
        if (entry && !doc.entries.has(entry[1]!)) doc.entries.set(entry[1]!, []);
        return;
      }
      const row = /^\|\s*`([^`]+)`\s*\|\s*([^|]*?)\s*\|/.exec(text);
      if (!row || section === undefined) return;
      const [, name, kind] = row as unknown as [string, string, string];
      if (section === 'members') {
        const [owner, member] = name.split('.');
        doc.members.push({ owner: owner!, name: member ?? '', kind, line: index + 1, text });
      } else {
        doc.entries.get(section.entry)!.push({ name, kind, line: index + 1, text });
      }
    });
  return doc;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = !inCode && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let unique = slug;
    for (let n = 1; anchors.has(unique); n++) unique = `${slug}-${n}`;
    anchors.add(unique);
  }
  return anchors;
}

/** What is wrong with the links of a row: a file that does not exist or an anchor it lacks. */
function brokenLinks(row: DocRow): string[] {
  const problems: string[] = [];
  for (const [, target] of row.text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^https?:/.test(target!)) continue;
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const file = path === '' ? apiDoc : resolve(dirname(apiDoc), path);
    if (!existsSync(file)) {
      problems.push(
        `docs/api.md:${row.line}: ${row.name} links to ${target}, which does not exist`,
      );
    } else if (anchor !== undefined && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
      problems.push(`docs/api.md:${row.line}: ${row.name} links to ${target}: no such heading`);
    }
  }
  return problems;
}

// ---- The checks -----------------------------------------------------------------

describe('docs/api.md', { timeout: 60_000 }, () => {
  let entries: EntryPoint[];
  let doc: ApiDoc;
  // Importing the entries loads every built-in (5-15 s on a busy 2-core machine).
  beforeAll(async () => {
    entries = await readEntryPoints();
    doc = readApiDoc();
  }, 60_000);

  it('has a section for every entry point of package.json and no other', () => {
    expect([...doc.entries.keys()].sort()).toEqual(entries.map(entry => entry.specifier).sort());
  });

  it('lists every export of every entry point, and nothing that is not exported', () => {
    const problems: string[] = [];
    for (const entry of entries) {
      const rows = doc.entries.get(entry.specifier) ?? [];
      const documented = new Set(rows.map(row => row.name));
      for (const name of entry.exports.keys()) {
        if (!documented.has(name))
          problems.push(`${entry.specifier} exports ${name}, which docs/api.md does not list`);
      }
      for (const row of rows) {
        if (!entry.exports.has(row.name))
          problems.push(
            `docs/api.md:${row.line} lists ${row.name}, which ${entry.specifier} does not export`,
          );
      }
      const seen = new Set<string>();
      for (const row of rows) {
        if (seen.has(row.name))
          problems.push(`docs/api.md:${row.line} lists ${row.name} twice under ${entry.specifier}`);
        seen.add(row.name);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives each export its kind (function, class, constant, interface, type)', () => {
    const wrong: string[] = [];
    for (const entry of entries) {
      for (const row of doc.entries.get(entry.specifier) ?? []) {
        const kind = entry.exports.get(row.name);
        if (kind !== undefined && row.kind !== kind)
          wrong.push(`docs/api.md:${row.line}: ${row.name} is of kind ${kind}, not "${row.kind}"`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('links each row to the doc that explains it, and every link resolves', () => {
    const problems: string[] = [];
    const rows = [...doc.entries.values()].flat().concat(doc.members);
    for (const row of rows) {
      if (!/\]\((?!https?:)[^)\s]*\.md(#[^)\s]*)?\)/.test(row.text))
        problems.push(`docs/api.md:${row.line}: ${row.name} links to no doc`);
      problems.push(...brokenLinks(row));
    }
    expect(problems).toEqual([]);
  });

  it('finds a JSDoc comment on the declaration of every export (STYLE.md), but for the known gaps', () => {
    const undocumented: string[] = [];
    for (const entry of entries) {
      for (const name of entry.exports.keys()) {
        const declaration = resolveExport(entry.file, name);
        if (!declaration) {
          undocumented.push(`${name}: no declaration found from ${entry.specifier}`);
          continue;
        }
        const commented = ts.isVariableDeclaration(declaration)
          ? declaration.parent.parent
          : declaration;
        if (ts.getJSDocCommentsAndTags(commented).length === 0) {
          const where = declaration.getSourceFile().fileName.slice(root.length);
          undocumented.push(`${name} (${where})`);
        }
      }
    }
    expect([...new Set(undocumented)]).toEqual([]);
  });

  it('names only members and options that exist on the exported type', () => {
    const main = entries.find(entry => entry.file === join(root, 'src/index.ts'))!;
    const problems: string[] = [];
    expect(doc.members.length).toBeGreaterThan(0);
    for (const row of doc.members) {
      const declaration = main.exports.has(row.owner)
        ? resolveExport(main.file, row.owner)
        : undefined;
      if (!declaration) {
        problems.push(`docs/api.md:${row.line}: ${row.owner} is not a type ai-guardrails exports`);
        continue;
      }
      if (!memberNames(declaration).has(row.name))
        problems.push(`docs/api.md:${row.line}: ${row.owner} has no member ${row.name}`);
    }
    expect(problems).toEqual([]);
  });
});
