import { parseArgs } from 'node:util';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { loadGuardrailsConfig } from '../config/load-guardrails-config';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { GuardrailConfigError } from '../core/errors';
import { memoryStore } from '../store/memory-store';
import type { Store } from '../store/store';

/** `ai-guardrails check-config --help`. */
export const checkConfigUsage = `Usage: ai-guardrails check-config <file.yaml|file.json> [options]

Validates a guardrails configuration file the way loadGuardrailsConfig does and
prints each problem with its path (e.g. output[1].action): the first 50, then
how many more (--json lists them all).

Options:
  --models a,b  model names the application passes to loadGuardrailsConfig (default: any name)
  --stores a,b  store names the application passes (default: any name)
  --types a,b   custom guardrail types the application registers (accepted with any options)
  --json        print the result as JSON
  -h, --help    show this help

Exit codes: 0 valid; 1 invalid (problems on stdout); 2 usage error.`;

/** Problems printed as text; the rest are counted ("… and N more"). */
const maxPrintedProblems = 50;

interface Output {
  write(text: string): unknown;
}

/** A model that only stands in for a name: validation never calls it. */
function placeholderModel(name: string): LanguageModelV4 {
  const fail = async (): Promise<never> => {
    throw new Error(`check-config placeholder model "${name}" cannot be called`);
  };
  return {
    specificationVersion: 'v4',
    provider: 'check-config',
    modelId: name,
    supportedUrls: {},
    doGenerate: fail,
    doStream: fail,
  };
}

/** Names from `--x a,b`, or, without the flag, a record that has every name. */
function names<T>(list: string | undefined, make: (name: string) => T): Record<string, T> {
  if (list !== undefined) {
    return Object.fromEntries(
      list
        .split(',')
        .map(name => name.trim())
        .filter(Boolean)
        .map(name => [name, make(name)]),
    );
  }
  const made = new Map<string, T>();
  return new Proxy({} as Record<string, T>, {
    has: () => true,
    get: (_, name) => {
      if (typeof name !== 'string') return undefined;
      if (!made.has(name)) made.set(name, make(name));
      return made.get(name);
    },
  });
}

/**
 * `ai-guardrails check-config <file>`: validates a configuration file the way
 * `loadGuardrailsConfig` does and prints its problems with their paths (the
 * first 50 as text, then how many more; every one with `--json`).
 * Returns the exit code: 0 valid, 1 invalid, 2 usage error.
 */
export async function checkConfig(
  argv: string[],
  { stdout = process.stdout, stderr = process.stderr }: { stdout?: Output; stderr?: Output } = {},
): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: {
        models: { type: 'string' };
        stores: { type: 'string' };
        types: { type: 'string' };
        json: { type: 'boolean'; default: false };
        help: { type: 'boolean'; short: 'h'; default: false };
      };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        models: { type: 'string' },
        stores: { type: 'string' },
        types: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n${checkConfigUsage}\n`,
    );
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    stdout.write(`${checkConfigUsage}\n`);
    return 0;
  }
  const [file] = positionals;
  if (!file || positionals.length > 1) {
    stderr.write(`${checkConfigUsage}\n`);
    return 2;
  }
  const customTypes = Object.fromEntries(
    (values.types ?? '')
      .split(',')
      .map(name => name.trim())
      .filter(Boolean)
      .map(name => [name, () => defineGuardrail({ name, check: () => allow() })]),
  );
  try {
    const { guardrails } = await loadGuardrailsConfig(file, {
      models: names(values.models, placeholderModel),
      stores: names<Store>(values.stores, () => memoryStore()),
      guardrails: customTypes,
    });
    const counts = Object.fromEntries(
      Object.entries(guardrails).map(([list, items]) => [list, items.length]),
    );
    if (values.json) {
      stdout.write(`${JSON.stringify({ file, valid: true, guardrails: counts })}\n`);
    } else {
      const summary = Object.entries(counts)
        .map(([list, count]) => `${count} ${list}`)
        .join(', ');
      stdout.write(`${file}: valid (${summary})\n`);
    }
    return 0;
  } catch (error) {
    if (!GuardrailConfigError.isInstance(error)) throw error;
    if (values.json) {
      stdout.write(`${JSON.stringify({ file, valid: false, issues: error.issues })}\n`);
    } else {
      const count = error.issues.length;
      stdout.write(`${file}: ${count} problem${count === 1 ? '' : 's'}\n`);
      const [, ...lines] = error.message.split('\n');
      const detail = lines.length > 0 ? lines : [error.message.replace(/^.*? at /, '- ')];
      // A terminal gets the first problems, not one line per bad entry of a
      // generated file (100,000 lines for 100,000 entries); --json has them all.
      const shown = detail.slice(0, maxPrintedProblems);
      if (count > shown.length) {
        shown.push(`… and ${count - shown.length} more (--json lists them all)`);
      }
      stdout.write(`${shown.map(line => `  ${line}`).join('\n')}\n`);
    }
    return 1;
  }
}
