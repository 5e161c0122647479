import { parse as parseYaml } from 'yaml';
import { GuardrailConfigError } from '../core/errors';

/** True for a string that names a config file rather than holding one. */
export function isFilePath(source: string): boolean {
  return !source.includes('\n') && /\.(ya?ml|json)$/i.test(source.trim());
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The configuration object of a source: an object as given, or YAML / JSON
 * text parsed. Throws a `GuardrailConfigError` for text that does not parse
 * or a value that is not an object.
 */
export function readConfigSource(source: unknown): Record<string, unknown> {
  let config: unknown = source;
  if (typeof source === 'string') {
    try {
      config = parseYaml(source, { prettyErrors: true });
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new GuardrailConfigError({
        path: '(source)',
        value: source.slice(0, 40),
        expected: `valid YAML or JSON (${message})`,
      });
    }
  }
  // An empty file (a wrong path's placeholder, a missing mount or key, only
  // comments) loaded as no guardrails at all: the application ran unguarded.
  if (config === null || config === undefined) {
    throw new GuardrailConfigError({
      path: '(source)',
      value: typeof source === 'string' ? source.slice(0, 40) : source,
      expected:
        'a configuration: an empty document (no text, or comments only) declares no guardrails; write input: [] for none on purpose',
    });
  }
  if (!isPlainObject(config)) {
    throw new GuardrailConfigError({
      path: '(root)',
      value: config,
      expected:
        'an object with input, output, tool_input, tool_output, tool_definitions, prompt_tool_outputs and tool_calls lists',
    });
  }
  return config;
}
