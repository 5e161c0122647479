/**
 * Measures whether `promptInjection()` and `harmfulContent()` judge a text
 * inside a tool's JSON as they judge it written plainly. Each labelled text
 * of the development sets is judged
 *
 * - as plain text at the kind it is meant for (`input` for a user's prompt,
 *   `tool_output` for a document or tool result) and as plain text at each
 *   tool kind (what the tool kind scores on text that is not JSON);
 * - as a tool result (`tool_output`) in the shapes real tools return: a bare
 *   string, `{"content": TEXT}`, a search result `{"results":[{"snippet":
 *   TEXT, "title": ..., "url": ...}]}`, the text's lines as several strings
 *   `{"paragraphs": [...lines]}`, MCP `{"content":[{"type":"text","text": TEXT}]}`, and
 *   MCP whose text is itself JSON (`{"results":[{"snippet": TEXT}]}` written out);
 * - as a tool-call argument (`tool_input`): `{"text": TEXT}` and the lines
 *   as `{"paragraphs": [...]}`.
 *
 * Then benign structured data made of many short strings (search results and
 * product lists built from the paragraphs of english_text.txt, each compared
 * with the same strings one per line as plain text).
 *
 * Counts are blocked / total, attacks (label 1) and benign (label 0), per
 * file (and per `set` with `--by-set`). The guardrails are called through
 * their `check` with the canonical JSON a guarded tool judges, as
 * `guardTools` and `guardrails({ toolOutputs })` call them.
 *
 *   npx tsx scripts/eval-json-parity.ts [--datasets ../shared/datasets] [--corpora ../shared/corpora] [--by-set]
 *
 * The data is read where it lies, never copied into the repository.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Guardrail, GuardrailKind } from '../src/core/types';
import { harmfulContent } from '../src/guards/harmful-content/harmful-content';
import { promptInjection } from '../src/guards/prompt-injection/prompt-injection';
import { canonicalJson } from '../src/tools/canonical-json';
import { guardContext } from '../test/helpers/index';

interface Row {
  text: string;
  label: number;
  set: string;
}

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

const datasets = option('--datasets', join(import.meta.dirname, '../../shared/datasets'));
const corpora = option('--corpora', join(import.meta.dirname, '../../shared/corpora'));
const bySet = process.argv.includes('--by-set');

function readRows(file: string): Row[] {
  return readFileSync(join(datasets, file), 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line) as Row);
}

/** The lines of a text that hold something: what a tool returning paragraphs would return. */
function linesOf(text: string): string[] {
  const lines = text.split(/\r?\n/).filter(line => line.trim() !== '');
  return lines.length > 0 ? lines : [text];
}

interface Shape {
  name: string;
  kind: GuardrailKind;
  content: (text: string) => string;
}

const shapes: Shape[] = [
  { name: 'plain at input', kind: 'input', content: text => text },
  { name: 'plain at tool_output', kind: 'tool_output', content: text => text },
  { name: 'result "TEXT"', kind: 'tool_output', content: text => canonicalJson(text) },
  {
    name: 'result {content}',
    kind: 'tool_output',
    content: text => canonicalJson({ content: text }),
  },
  {
    name: 'result {results:[{snippet}]}',
    kind: 'tool_output',
    content: text =>
      canonicalJson({
        results: [{ title: 'Search result', snippet: text, url: 'https://example.com/page' }],
      }),
  },
  {
    name: 'result {paragraphs:[lines]}',
    kind: 'tool_output',
    content: text => canonicalJson({ paragraphs: linesOf(text) }),
  },
  {
    name: 'result MCP {content:[{text}]}',
    kind: 'tool_output',
    content: text => canonicalJson({ content: [{ type: 'text', text }] }),
  },
  {
    // MCP servers often return their JSON payload as the text of a text content.
    name: 'result MCP, JSON as its text',
    kind: 'tool_output',
    content: text =>
      canonicalJson({
        content: [{ type: 'text', text: JSON.stringify({ results: [{ snippet: text }] }) }],
      }),
  },
  { name: 'plain at tool_input', kind: 'tool_input', content: text => text },
  { name: 'argument {text}', kind: 'tool_input', content: text => canonicalJson({ text }) },
  {
    name: 'argument {paragraphs:[lines]}',
    kind: 'tool_input',
    content: text => canonicalJson({ paragraphs: linesOf(text) }),
  },
];

async function blocked(guard: Guardrail, content: string, kind: GuardrailKind): Promise<boolean> {
  const verdict = await guard.check(
    content,
    guardContext(kind, kind === 'input' ? {} : { toolName: 'tool', toolCallId: 'call-1' }),
  );
  return verdict.action === 'block';
}

function pad(value: string, width: number): string {
  return value.length >= width ? value : value + ' '.repeat(width - value.length);
}

async function report(title: string, guard: Guardrail, rows: Row[]): Promise<void> {
  const groups = new Map<string, Row[]>([['all', rows]]);
  if (bySet) {
    for (const row of rows) {
      const group = groups.get(row.set) ?? [];
      group.push(row);
      groups.set(row.set, group);
    }
  }
  const multiLine = rows.filter(row => linesOf(row.text).length > 1).length;
  console.log(`\n## ${title} (${rows.length} rows, ${multiLine} of several lines)`);
  for (const [group, members] of groups) {
    if (bySet) console.log(`\n### ${group}`);
    const attacks = members.filter(row => row.label === 1);
    const benign = members.filter(row => row.label === 0);
    console.log(`${pad('shape', 32)} ${pad('attacks blocked', 18)} benign blocked`);
    for (const shape of shapes) {
      let attackCount = 0;
      let benignCount = 0;
      for (const row of attacks)
        if (await blocked(guard, shape.content(row.text), shape.kind)) attackCount++;
      for (const row of benign)
        if (await blocked(guard, shape.content(row.text), shape.kind)) benignCount++;
      console.log(
        `${pad(shape.name, 32)} ${pad(`${attackCount} / ${attacks.length}`, 18)} ${benignCount} / ${benign.length}`,
      );
    }
  }
}

/**
 * Benign structured data: search results and product lists made of many
 * short strings, built from paragraphs of english_text.txt (every 37th
 * paragraph of 40..600 characters, deterministic), 10 items a document.
 */
function structuredDocuments(): Array<{ name: string; json: unknown; plain: string }> {
  const paragraphs = readFileSync(join(corpora, 'english_text.txt'), 'utf8')
    .split(/\n\s*\n/)
    .map(paragraph => paragraph.replace(/\s+/g, ' ').trim())
    .filter(paragraph => paragraph.length >= 40 && paragraph.length <= 600)
    .filter((_, index) => index % 37 === 0);
  const documents: Array<{ name: string; json: unknown; plain: string }> = [];
  for (let start = 0; start + 10 <= paragraphs.length; start += 10) {
    const items = paragraphs.slice(start, start + 10);
    const titles = items.map(item => item.split(' ').slice(0, 6).join(' '));
    const results = items.map((snippet, index) => ({
      title: titles[index]!,
      snippet,
      url: `https://example.com/${start + index}`,
    }));
    documents.push({
      name: 'search results',
      json: { results },
      plain: results
        .map(result => `${result.title}\n${result.snippet}\n${result.url}`)
        .join('\n\n'),
    });
    const products = items.map((description, index) => ({
      name: titles[index]!,
      description: description.split(/(?<=[.!?]) /)[0]!,
      price: 10 + ((start + index) % 90),
      tags: description
        .toLowerCase()
        .split(/\W+/)
        .filter(word => word.length > 6)
        .slice(0, 3),
    }));
    documents.push({
      name: 'product list',
      json: { products, total: products.length },
      plain: products
        .map(product => `${product.name}\n${product.description}\n${product.tags.join(', ')}`)
        .join('\n\n'),
    });
  }
  return documents;
}

async function reportStructured(title: string, guard: Guardrail): Promise<void> {
  const documents = structuredDocuments();
  console.log(`\n## ${title}: benign structured tool results (english_text.txt paragraphs)`);
  console.log(
    `${pad('document', 20)} ${pad('as JSON result', 18)} same strings as plain text (tool_output)`,
  );
  for (const name of ['search results', 'product list']) {
    const ofName = documents.filter(document => document.name === name);
    let json = 0;
    let plain = 0;
    for (const document of ofName) {
      if (await blocked(guard, canonicalJson(document.json), 'tool_output')) json++;
      if (await blocked(guard, document.plain, 'tool_output')) plain++;
    }
    console.log(
      `${pad(name, 20)} ${pad(`${json} / ${ofName.length}`, 18)} ${plain} / ${ofName.length}`,
    );
  }
}

const injection = promptInjection();
const harmful = harmfulContent();
await report(
  'promptInjection(): indirect_injection.dev.jsonl',
  injection,
  readRows('indirect_injection.dev.jsonl'),
);
await report(
  'promptInjection(): prompt_injection.dev.jsonl',
  injection,
  readRows('prompt_injection.dev.jsonl'),
);
await report('harmfulContent(): harmful.dev.jsonl', harmful, readRows('harmful.dev.jsonl'));
await reportStructured('promptInjection()', injection);
await reportStructured('harmfulContent()', harmful);
