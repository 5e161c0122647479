import { parse as parseYaml } from 'yaml';
import { thrownKind } from '../core/caller-values';
import { GuardrailConfigError, type GuardrailConfigIssue } from '../core/errors';
import { formatPath, shownConfigValue } from './config-issues';

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

/** True for an object whose prototype is `Object.prototype` or `null` (false when asking throws). */
function hasPlainPrototype(value: object): boolean {
  try {
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

/** What an issue shows for a value whose reading threw. */
export const NOT_READ = '(not read)';

/** A place in the copied value: its key under its parent (paths are built only for an issue). */
interface Place {
  parent: Place | undefined;
  key: PropertyKey;
}

function pathOf(place: Place | undefined, at: readonly PropertyKey[]): string {
  const keys: PropertyKey[] = [];
  for (let node = place; node; node = node.parent) keys.push(node.key);
  return formatPath([...at, ...keys.reverse()]);
}

/**
 * A copy of the plain data of a value given in code (arrays, objects whose
 * prototype is `Object.prototype` or `null`), each property read once. A
 * getter or a Proxy trap that throws is an issue at its path, what it threw
 * named by its class, never its message (round 38). An enumerable Symbol key
 * is an unknown option (it was dropped silently). A getter that returns
 * another value on each read cannot pass validation with one and build with
 * another. Anything else (functions, class instances, models, stores) is kept
 * as given, and so is every object `levels` deep or more. Shared and cyclic
 * objects stay shared; iterative, linear in the number of values copied.
 */
export function readPlainData(
  value: unknown,
  at: readonly PropertyKey[],
  issues: GuardrailConfigIssue[],
  levels = Number.POSITIVE_INFINITY,
): unknown {
  const copies = new Map<object, unknown>();
  const pending: Array<{
    from: object;
    to: Record<PropertyKey, unknown>;
    keys: string[];
    next: number;
    place: Place | undefined;
    depth: number;
  }> = [];
  const unreadable = (place: Place | undefined, error: unknown) => {
    issues.push({
      path: pathOf(place, at),
      value: NOT_READ,
      expected: `a value that can be read (reading it threw ${thrownKind(error)})`,
    });
    return NOT_READ;
  };
  // A Symbol-keyed option was dropped silently (Object.keys skips it): an unknown option, not read.
  const symbolKeys = (item: object, place: Place | undefined) => {
    for (const key of Object.getOwnPropertySymbols(item)) {
      if (!Object.prototype.propertyIsEnumerable.call(item, key)) continue;
      issues.push({
        path: pathOf({ parent: place, key }, at),
        value: NOT_READ,
        expected:
          'no such option (a Symbol key: options are named by strings, and a Symbol-keyed one was ignored)',
      });
    }
  };
  const visit = (item: unknown, place: Place | undefined, depth: number): unknown => {
    if (item === null || typeof item !== 'object') return item;
    const known = copies.get(item);
    if (known !== undefined) return known;
    if (depth >= levels) return item;
    let to: Record<PropertyKey, unknown>;
    let keys: string[];
    try {
      if (Array.isArray(item)) to = [] as unknown as Record<PropertyKey, unknown>;
      else {
        if (!hasPlainPrototype(item)) return item;
        to = {};
      }
      keys = Object.keys(item);
      symbolKeys(item, place);
    } catch (error) {
      return unreadable(place, error);
    }
    copies.set(item, to);
    pending.push({ from: item, to, keys, next: 0, place, depth });
    return to;
  };
  const root = visit(value, undefined, 0);
  // Depth first, each object's keys in order: issues come in the order of the file.
  for (let top = pending.at(-1); top; top = pending.at(-1)) {
    const key = top.keys[top.next++];
    if (key === undefined) {
      pending.pop();
      continue;
    }
    const { from, to, place, depth } = top;
    const child: Place = {
      parent: place,
      key: Array.isArray(to) && /^\d+$/.test(key) ? Number(key) : key,
    };
    let item: unknown;
    try {
      item = (from as Record<string, unknown>)[key];
    } catch (error) {
      item = unreadable(child, error);
    }
    const copied = visit(item, child, depth + 1);
    // defineProperty: a `__proto__` key stays a key, not the copy's prototype.
    if (key === '__proto__') {
      Object.defineProperty(to, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else to[key] = copied;
  }
  return root;
}

/**
 * The configuration object of a source: an object as given, or YAML / JSON
 * text parsed. Throws a `GuardrailConfigError` for text that does not parse
 * or a value that is not an object.
 */
export function readConfigSource(source: unknown): Record<string, unknown> {
  let config: unknown = source;
  if (typeof source !== 'string') {
    const unread: GuardrailConfigIssue[] = [];
    config = readPlainData(source, [], unread);
    if (unread.length > 0) throw new GuardrailConfigError(unread);
  } else {
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
  if (isPlainObject(config) && !hasPlainPrototype(config)) {
    // A Map or a class instance was read as an object without lists: no guardrails at all.
    throw new GuardrailConfigError({
      path: '(root)',
      value: config,
      expected:
        'a plain object with input, output, tool_input, tool_output, tool_definitions, prompt_tool_outputs and tool_calls lists (a Map, a class instance or any object with another prototype is read as no lists at all)',
    });
  }
  if (!isPlainObject(config)) {
    const lists =
      'an object with input, output, tool_input, tool_output, tool_definitions, prompt_tool_outputs and tool_calls lists';
    throw new GuardrailConfigError({
      path: '(root)',
      // A text that is one value (a key pasted by mistake) was shown whole; so was an array of them.
      value: typeof source === 'string' ? notShown(source) : shownConfigValue(config, new Set()),
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
