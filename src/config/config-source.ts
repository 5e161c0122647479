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
 * What a config error shows of the text: its length, never its characters.
 * The text holds the secrets a config is given (a judge's API key, a Redis
 * URL's password), and the first 40 characters were shown (round 25): a key
 * cut that short is not recognised by the redaction of errors.
 */
function notShown(source: string): string {
  return `${source.length} characters of text (not shown)`;
}

/**
 * Where and why the text did not parse, without any of it: yaml's code
 * and line and column (its messages may quote the text: an unresolved
 * alias names the alias, and pretty errors show the whole line).
 */
function whereItFailed(error: unknown): string {
  const { code, linePos, name } = (error ?? {}) as {
    code?: unknown;
    linePos?: Array<{ line?: unknown; col?: unknown }>;
    name?: unknown;
  };
  const kind =
    typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code)
      ? code
      : typeof name === 'string' && /^[A-Za-z]{1,40}$/.test(name)
        ? name
        : 'Error';
  const at = Array.isArray(linePos) ? linePos[0] : undefined;
  return typeof at?.line === 'number' && typeof at.col === 'number'
    ? `${kind} at line ${at.line}, column ${at.col}`
    : kind;
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
      // No warning printed either: yaml's warnings quote the line they are about.
      config = parseYaml(source, { logLevel: 'error' });
    } catch (error) {
      throw new GuardrailConfigError({
        path: '(source)',
        value: notShown(source),
        expected: `valid YAML or JSON (${whereItFailed(error)})`,
      });
    }
  }
  // An empty file (a wrong path's placeholder, a missing mount or key, only
  // comments) loaded as no guardrails at all: the application ran unguarded.
  if (config === null || config === undefined) {
    throw new GuardrailConfigError({
      path: '(source)',
      value: typeof source === 'string' ? notShown(source) : source,
      expected:
        'a configuration: an empty document (no text, or comments only) declares no guardrails; write input: [] for none on purpose',
    });
  }
  if (!isPlainObject(config)) {
    const lists =
      'an object with input, output, tool_input, tool_output, tool_definitions, prompt_tool_outputs and tool_calls lists';
    throw new GuardrailConfigError({
      path: '(root)',
      // A text that is one value (a key pasted by mistake) was shown whole.
      value: typeof source === 'string' ? notShown(source) : config,
      // `buildGuardrailsConfig('guardrails.yaml')` parsed the path as YAML
      // (one string) and gave no hint of the function that reads files.
      expected:
        typeof source === 'string' && typeof config === 'string'
          ? `${lists}; the text is one string, not a configuration: to read a file, await loadGuardrailsConfig(path) from 'ai-guardrails/config' (on Node, a path ending in .yaml, .yml or .json); buildGuardrailsConfig takes the YAML or JSON text itself, or its parsed object`
          : lists,
    });
  }
  return config;
}
