import { describe, expect, it } from 'vitest';
import { checkSnippets, extractSnippets, toAiSdk6 } from '../scripts/check-doc-snippets';

const markdown = [
  '# Title', // 1
  '', // 2
  '```ts', // 3
  "const a: number = 'x';", // 4
  '```', // 5
  '', // 6
  '```sh', // 7
  'npm test', // 8
  '```', // 9
  '', // 10
  '```ts fragment ai6', // 11
  'guardrails({ input });', // 12
  '```', // 13
  '', // 14
  '````md', // 15
  '```ts', // 16
  'not a block of its own', // 17
  '```', // 18
  '````', // 19
  '```typescript', // 20
  'const ok = 1;', // 21
  'missingHelper(ok);', // 22
  '```', // 23
  '```ts fragment', // 24
  '// search, model, prompt: from the prose', // 25
  "const tools = guardTools({ search }, { input: [toolPolicy({ deny: 'drop table' })] });", // 26
  "guardrails({ outpt: [pii({ action: 'redact' })] });", // 27
  'await generateText({ model, tools, prompt, stopWhen: guardrailTripped() });', // 28
  "const helper = await import('@/lib/not-installed');", // 29
  'guardrial();', // 30
  '```', // 31
].join('\n');

describe('doc snippet checker', () => {
  it('extracts TypeScript blocks with their first code line and flags, skipping other languages and nested fences', () => {
    expect(extractSnippets('doc.md', markdown)).toEqual([
      { file: 'doc.md', line: 4, flags: [], code: "const a: number = 'x';" },
      { file: 'doc.md', line: 12, flags: ['fragment', 'ai6'], code: 'guardrails({ input });' },
      { file: 'doc.md', line: 21, flags: [], code: 'const ok = 1;\nmissingHelper(ok);' },
      expect.objectContaining({ file: 'doc.md', line: 25, flags: ['fragment'] }),
    ]);
  });

  it("adds what AI SDK 6 users are told to add: specificationVersion: 'v3'", () => {
    expect(toAiSdk6('guardrails({ input: [pii()] });\nguardrails();')).toBe(
      "guardrails({ specificationVersion: 'v3', input: [pii()] });\nguardrails({ specificationVersion: 'v3' });",
    );
    expect(toAiSdk6("await loadGuardrailsConfig('g.yaml');")).toBe(
      "await loadGuardrailsConfig('g.yaml', { specificationVersion: 'v3' });",
    );
    expect(toAiSdk6("await loadGuardrailsConfig('g.yaml', { models });")).toBe(
      "await loadGuardrailsConfig('g.yaml', { specificationVersion: 'v3', models });",
    );
  });

  it('reports type errors at their markdown line; a fragment may leave its prose names open', () => {
    const { problems, compiled, fragments } = checkSnippets(extractSnippets('doc.md', markdown));
    expect({ compiled, fragments }).toEqual({ compiled: 4, fragments: 2 });
    expect(problems.map(({ line, variant, message }) => ({ line, variant, message }))).toEqual([
      { line: 4, variant: 'ai7', message: "Type 'string' is not assignable to type 'number'." },
      { line: 22, variant: 'ai7', message: "Cannot find name 'missingHelper'." },
      // In a fragment the package's names are imported for it, so its options are still checked;
      // only names nothing exports (search, model, prompt) and modules not installed are left open.
      {
        line: 26,
        variant: 'ai7',
        message: "Type 'string' is not assignable to type 'readonly (string | RegExp)[]'.",
      },
      {
        line: 27,
        variant: 'ai7',
        message:
          "Object literal may only specify known properties, but 'outpt' does not exist in type 'GuardrailsOptions<\"v4\">'. Did you mean to write 'output'?",
      },
      {
        line: 30,
        variant: 'ai7',
        message: "Cannot find name 'guardrial'. Did you mean 'guardrails'?",
      },
    ]);
  }, 180_000); // four TypeScript programs (two per AI SDK major): seconds each alone, over a minute at load 10+

  it('rejects an unknown flag', () => {
    const { problems } = checkSnippets(
      extractSnippets('doc.md', '```ts fragmnet\nconst x = 1;\n```'),
    );
    expect(problems).toEqual([
      {
        file: 'doc.md',
        line: 1,
        variant: 'ai7',
        message: 'unknown flag(s) fragmnet: expected fragment, ai6, ai6-only',
      },
    ]);
  }, 180_000); // one TypeScript program: the same cost under load
});
