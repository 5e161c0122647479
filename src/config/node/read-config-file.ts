import { GuardrailConfigError } from '../../core/errors';

/**
 * Reads a config file (Node only). The `node:fs` import is dynamic with a
 * computed specifier so bundlers for edge runtimes leave it out of the
 * config module, which otherwise runs anywhere.
 */
export async function readConfigFile(path: string): Promise<string> {
  const fsModule = 'node:fs/promises';
  const { readFile } = (await import(
    /* @vite-ignore */ fsModule
  )) as typeof import('node:fs/promises');
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    // The caller's own file path names the file, shown (round 39: no other value given is).
    throw new GuardrailConfigError(
      {
        path: '(file)',
        value: path,
        expected: `a readable config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      },
      new Set([path]),
    );
  }
}
