import { z } from 'zod/v4';
import {
  aliasEntrySchemas,
  builtinGuardrailTypes,
  guardrailEntrySchema,
  guardrailsConfigSchema,
  typedEntrySchemas,
  useEntrySchema,
} from './schemas';

function pascalCase(type: string): string {
  return type.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
}

/**
 * The JSON Schema (draft-07) of a configuration file, generated from the
 * same zod schemas the loader validates with, for editor completion
 * (`# yaml-language-server: $schema=...` or `"$schema"` in JSON).
 */
export function guardrailsConfigJsonSchema(): Record<string, unknown> {
  const names = z.registry<{ id: string }>();
  names.add(guardrailEntrySchema, { id: 'GuardrailEntry' });
  names.add(useEntrySchema, { id: 'UseEntry' });
  for (const type of builtinGuardrailTypes) {
    names.add(typedEntrySchemas[type], { id: `${pascalCase(type)}Entry` });
  }
  for (const [alias, schema] of Object.entries(aliasEntrySchemas)) {
    names.add(schema, { id: `${pascalCase(alias)}Entry` });
  }
  const schema = z.toJSONSchema(guardrailsConfigSchema, {
    io: 'input',
    target: 'draft-7',
    unrepresentable: 'any',
    metadata: names,
    // `.describe()` texts live in zod's global registry; keep them for editor hovers.
    override: ({ zodSchema, jsonSchema }) => {
      const description = z.globalRegistry.get(zodSchema as unknown as z.ZodType)?.description;
      if (description !== undefined) jsonSchema.description = description;
    },
  }) as Record<string, unknown>;
  return {
    ...schema,
    $id: 'https://unpkg.com/ai-guardrails/schema/guardrails-config.schema.json',
    title: 'ai-guardrails configuration',
  };
}
