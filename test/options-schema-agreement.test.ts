import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import * as main from '../src';
import { type BuiltinGuardrailType, guardrailTypeSchemas } from '../src/config';
import type { OptionRule, OptionShape } from '../src/core/options';
import { contentFilterOptionShape } from '../src/guards/content-filter/content-filter-options';
import { expressionOptionShape } from '../src/guards/expression/expression-options';
import { harmfulContentOptionShape } from '../src/guards/harmful-content/harmful-content-options';
import { invisibleTextOptionShape } from '../src/guards/invisible-text/invisible-text-options';
import { llmJudgeOptionShape } from '../src/guards/llm-judge/llm-judge-options';
import { outputSchemaOptionShape } from '../src/guards/output-schema/output-schema-options';
import { piiOptionShape } from '../src/guards/pii/pii-options';
import { promptInjectionOptionShape } from '../src/guards/prompt-injection/prompt-injection-options';
import { rateLimitOptionShape } from '../src/guards/rate-limit/rate-limit-options';
import { secretsOptionShape } from '../src/guards/secrets/secrets-options';
import { tokenBudgetOptionShape } from '../src/guards/token-budget/token-budget-options';
import { toolPoisoningOptionShape } from '../src/guards/tool-poisoning/tool-poisoning';
import { toolPolicyOptionShape } from '../src/guards/tool-policy/tool-policy-options';
import { urlFilterOptionShape } from '../src/guards/url-filter/url-filter-options';

/*
 * The config loader's zod schemas and the factories' option rules describe
 * the same options: the same keys (but for options that only code can give,
 * listed with the reason), and for options written the same way in a file as
 * in code, the same verdict on every value.
 */

const judge = new MockLanguageModelV4();

interface Pairing {
  build: (options: Record<string, unknown>) => unknown;
  shape: OptionShape;
  /** Options that make a valid factory call / a valid config entry. */
  validOptions?: Record<string, unknown>;
  validConfig?: Record<string, unknown>;
  /**
   * Factory options a file cannot express (functions, objects), with why;
   * nested ones by path (`custom[].validate`: the `validate` of each item).
   */
  codeOnly?: Record<string, string>;
  /**
   * Options a file writes in another form than code (a store or model by
   * name, a RegExp as a string, a template instead of a function), so their
   * values are not compared.
   */
  otherForm?: readonly string[];
  /**
   * Nested option objects only a file writes, with why (the seed's
   * `model: { provider, model }` reference, which code gives as a model).
   */
  fileOnly?: Record<string, string>;
}

const pairings: Record<BuiltinGuardrailType, Pairing> = {
  pii: {
    build: options => main.pii(options),
    shape: piiOptionShape,
    codeOnly: {
      conversationId: 'a function of the call context',
      'custom[].validate': 'a function over each match',
    },
    otherForm: ['store', 'placeholder', 'custom'],
  },
  secrets: {
    build: options => main.secrets(options),
    shape: secretsOptionShape,
    otherForm: ['placeholder'],
  },
  'prompt-injection': {
    build: options => main.promptInjection(options),
    shape: promptInjectionOptionShape,
  },
  'harmful-content': {
    build: options => main.harmfulContent(options),
    shape: harmfulContentOptionShape,
  },
  'invisible-text': {
    build: options => main.invisibleText(options),
    shape: invisibleTextOptionShape,
  },
  'tool-poisoning': {
    build: options => main.toolPoisoning(options),
    shape: toolPoisoningOptionShape,
  },
  'content-filter': {
    build: options => main.contentFilter(options),
    shape: contentFilterOptionShape,
    // One entry besides the categories, so that `categories: []` alone is not a filter that checks nothing.
    validOptions: { blocklist: ['project falcon'] },
    validConfig: { blocklist: ['project falcon'] },
  },
  'url-filter': {
    build: options => main.urlFilter(options),
    shape: urlFilterOptionShape,
    codeOnly: { resolveHost: 'a DNS lookup function' },
    otherForm: ['allow', 'deny'],
  },
  'tool-policy': {
    build: options => main.toolPolicy(options),
    shape: toolPolicyOptionShape,
    // One rule besides the defaults, so that `rules: []` alone is not a policy that checks nothing.
    validOptions: { allow: ['search'] },
    validConfig: { allow: ['search'] },
    codeOnly: { args: 'schemas (zod) and predicate functions by tool name' },
    otherForm: ['deny'],
  },
  'output-schema': {
    build: options => main.outputSchema(options),
    shape: outputSchemaOptionShape,
    // An outputSchema needs one rule that can fail.
    validOptions: { maxLength: 2000 },
    validConfig: { maxLength: 2000 },
    otherForm: ['mustMatch', 'mustNotMatch', 'schema'],
  },
  'token-budget': {
    build: options => main.tokenBudget(options),
    shape: tokenBudgetOptionShape,
    validOptions: { maxOutputTokens: 100 },
    validConfig: { maxOutputTokens: 100 },
    codeOnly: { countTokens: 'a tokenizer function' },
    otherForm: ['store', 'sessionId'],
  },
  'rate-limit': {
    build: options => main.rateLimit(options as never),
    shape: rateLimitOptionShape,
    validOptions: { limit: 5, windowMs: 60_000 },
    validConfig: { limit: 5, windowMs: 60_000 },
    otherForm: ['store', 'key'],
  },
  expression: {
    build: options => main.expression(options as never),
    shape: expressionOptionShape,
    // One syntax node, so every maxNodes probe keeps it valid (`content` alone, the
    // content unchanged, checks nothing and is rejected); it replaces the text with the kind.
    validOptions: { expr: 'kind' },
    validConfig: { expr: 'kind' },
  },
  'llm-judge': {
    build: options => main.llmJudge(options as never),
    shape: llmJudgeOptionShape,
    validOptions: { model: judge, policy: 'Only cooking.' },
    validConfig: { model: 'judge', policy: 'Only cooking.' },
    otherForm: ['model', 'cache', 'template'],
    fileOnly: { model: "seed 002's { provider, model } reference, resolved by the loader" },
  },
};

/** Values of every kind, right and wrong, tried on each option both ways. */
const probes: readonly unknown[] = [
  null,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -1,
  0,
  0.5,
  1,
  1.5,
  2,
  100,
  '',
  '   ',
  'x',
  'block',
  'redact',
  'all',
  'US',
  'sql',
  'https',
  true,
  false,
  [],
  [''],
  ['x'],
  ['https'],
  ['sql'],
  ['US'],
  ['EMAIL_ADDRESS'],
  [5],
  {},
  { x: ['y'] },
  { x: 'y' },
  { maxTokens: 10 },
  { maxTokens: 10, windowMs: 1000 },
  { failures: 1, resetMs: 1000 },
  { type: 'object' },
];

function factoryAccepts(pairing: Pairing, key: string, value: unknown): boolean {
  try {
    pairing.build({ ...pairing.validOptions, [key]: value });
    return true;
  } catch (error) {
    if (!main.GuardrailConfigError.isInstance(error)) throw error;
    return false;
  }
}

function schemaAccepts(type: BuiltinGuardrailType, key: string, value: unknown): boolean {
  const pairing = pairings[type];
  return guardrailTypeSchemas[type].safeParse({ ...pairing.validConfig, [key]: value }).success;
}

/** Every object the rules accept, by path (`perSession`, `custom[]`, `''` for the options): its keys. */
function ruleShapes(rule: OptionRule, path: string, out: Map<string, string[]>): void {
  const parts = rule.parts;
  if (!parts) return;
  if (parts.shape) {
    out.set(path, Object.keys(parts.shape).sort());
    for (const [key, inner] of Object.entries(parts.shape)) {
      ruleShapes(inner, path === '' ? key : `${path}.${key}`, out);
    }
  }
  if (parts.item) ruleShapes(parts.item, `${path}[]`, out);
  for (const alternative of parts.alternatives ?? []) ruleShapes(alternative, path, out);
}

/** The same walk over a zod schema. */
function zodShapes(schema: unknown, path: string, out: Map<string, string[]>): void {
  const def = (schema as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      zodShapes(def.innerType, path, out);
      return;
    case 'pipe':
      zodShapes(def.in, path, out);
      return;
    case 'union':
      for (const option of def.options as unknown[]) zodShapes(option, path, out);
      return;
    case 'array':
      zodShapes(def.element, `${path}[]`, out);
      return;
    case 'record':
      zodShapes(def.valueType, `${path}[]`, out);
      return;
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      out.set(path, Object.keys(shape).sort());
      for (const [key, inner] of Object.entries(shape)) {
        zodShapes(inner, path === '' ? key : `${path}.${key}`, out);
      }
    }
  }
}

describe.each(Object.keys(pairings) as BuiltinGuardrailType[])(
  'config type %s and its factory',
  type => {
    const pairing = pairings[type];
    const schemaKeys = Object.keys(guardrailTypeSchemas[type].shape).sort();

    it('accept the same options, nested ones too (but for code-only ones)', () => {
      const codeOnly = Object.keys(pairing.codeOnly ?? {});
      const isCodeOnly = (path: string) =>
        codeOnly.some(
          key => path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[`),
        );
      const inCode = new Map<string, string[]>();
      ruleShapes({ parts: { shape: pairing.shape } } as unknown as OptionRule, '', inCode);
      const inFile = new Map<string, string[]>();
      zodShapes(guardrailTypeSchemas[type], '', inFile);
      for (const path of Object.keys(pairing.fileOnly ?? {})) inFile.delete(path);
      const withoutCodeOnly = (shapes: Map<string, string[]>) =>
        Object.fromEntries(
          [...shapes]
            .filter(([path]) => !isCodeOnly(path))
            .map(([path, keys]) => [
              path,
              keys.filter(key => !isCodeOnly(path === '' ? key : `${path}.${key}`)),
            ]),
        );
      expect(withoutCodeOnly(inFile)).toEqual(withoutCodeOnly(inCode));
      // A code-only option must really be missing from the schema.
      for (const key of codeOnly) {
        const [parent, child] = key.includes('.')
          ? [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1)]
          : ['', key];
        expect(inFile.get(parent) ?? []).not.toContain(child);
      }
    });

    it('agree on every value of the options written the same way', () => {
      const disagreements: string[] = [];
      for (const key of schemaKeys) {
        if (pairing.otherForm?.includes(key)) continue;
        for (const value of probes) {
          const inCode = factoryAccepts(pairing, key, value);
          const inFile = schemaAccepts(type, key, value);
          if (inCode !== inFile) {
            disagreements.push(
              `${key}: ${JSON.stringify(value) ?? String(value)} is ${inCode ? 'accepted' : 'rejected'} by the factory, ${inFile ? 'accepted' : 'rejected'} by the schema`,
            );
          }
        }
      }
      expect(disagreements).toEqual([]);
    });
  },
);
