import { version } from '../../package.json';
import type { CliOutput } from './cli-output';

/** `ai-guardrails --help`. */
export const cliUsage = `Usage: ai-guardrails <command> [options]

Commands:
  eval          score a built-in guardrail on a labelled JSONL file
                (precision, recall, F1, false-positive rate, latency; per set and per type)
  check-config  validate a guardrails configuration file (YAML or JSON) the way
                loadGuardrailsConfig does

Options:
  -h, --help     show this help; ai-guardrails <command> --help shows a command's options
  -v, --version  print the version

Docs: https://github.com/ai-guardrails/ai-guardrails#readme`;

// Loaded on use, so `--help` and `--version` do not load every guardrail.
const commands: Record<string, (argv: string[], output: CliOutput) => Promise<number>> = {
  eval: async (argv, output) => (await import('./eval-command')).evalCommand(argv, output),
  'check-config': async (argv, output) =>
    (await import('./check-config')).checkConfig(argv, output),
};

/**
 * The `ai-guardrails` command: dispatches to a command, or prints the help
 * or the version. Returns the exit code (2 for a usage error).
 */
export async function runCli(argv: readonly string[], output: CliOutput): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    const command =
      first === 'help' && rest[0] !== undefined && Object.hasOwn(commands, rest[0])
        ? commands[rest[0]]
        : undefined;
    if (command) return command(['--help'], output);
    output.stdout.write(`${cliUsage}\n`);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    output.stdout.write(`${version}\n`);
    return 0;
  }
  if (first === undefined) {
    output.stderr.write(`${cliUsage}\n`);
    return 2;
  }
  // Own names only: `constructor` or `toString` found Object's and ran it (an array as the exit code).
  const command = Object.hasOwn(commands, first) ? commands[first] : undefined;
  if (!command) {
    output.stderr.write(
      `Unknown command ${JSON.stringify(first)}: expected one of ${Object.keys(commands).join(', ')}.\n\n${cliUsage}\n`,
    );
    return 2;
  }
  return command(rest, output);
}
