import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadGuardrailsConfig } from '../src/config';

/*
 * Every YAML block of README.md and docs/*.md that is a guardrails
 * configuration (it has one of the chains at its top level) loads with
 * loadGuardrailsConfig as written: a user pastes these into guardrails.yaml.
 * Models named in them (`model: judge`) are resolved to a mock model.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const chains = ['input', 'output', 'tool_input', 'tool_output', 'tool_definitions'];

function yamlBlocks(): Array<{ where: string; text: string }> {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter(name => name.endsWith('.md'))
      .map(name => `docs/${name}`),
  ];
  return files.flatMap(file => {
    const blocks: Array<{ where: string; text: string }> = [];
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^```ya?ml\s*$/.test(lines[i]!)) continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && lines[end]!.trim() !== '```') end++;
      blocks.push({ where: `${file}:${start + 1}`, text: lines.slice(start, end).join('\n') });
      i = end;
    }
    return blocks;
  });
}

const configBlocks = yamlBlocks().filter(({ text }) => {
  const parsed: unknown = parseYaml(text);
  return (
    typeof parsed === 'object' &&
    parsed !== null &&
    chains.some(chain => Object.hasOwn(parsed, chain))
  );
});

describe('configuration files in the docs', () => {
  it('finds the README and configuration.md examples', () => {
    expect(configBlocks.map(({ where }) => where.split(':')[0])).toEqual(
      expect.arrayContaining(['README.md', 'docs/configuration.md']),
    );
  });

  for (const { where, text } of configBlocks) {
    it(`${where} loads as written`, async () => {
      const model = new MockLanguageModelV4();
      const loaded = await loadGuardrailsConfig(text, { models: () => model });
      const declared = parseYaml(text) as Record<string, unknown[] | undefined>;
      expect(loaded.guardrails.input).toHaveLength(declared.input?.length ?? 0);
      expect(loaded.guardrails.output).toHaveLength(declared.output?.length ?? 0);
    });
  }
});
