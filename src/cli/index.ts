#!/usr/bin/env node
import { parseArgs } from 'node:util';
import type { GuardrailKind } from '../core/types';
import { checkConfig } from './check-config';
import { evaluate, formatReports } from './eval';

const usage = `Usage: ai-guardrails eval --guardrail <pii|secrets|invisibleText|prompt-injection> --data <file.jsonl>
       [--kind input|output|tool_input|tool_output] [--options '<json>'] [--rule-aware] [--json]

  --rule-aware  secrets data: a label-0 row written for one rule (rule_id / plugin) counts
                as a false positive only when our detector of the same type fires`;

/** Entry point of the `ai-guardrails` command. Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'check-config') return checkConfig(rest);
  if (command !== 'eval') {
    process.stderr.write(`${usage}\n`);
    return command === '--help' || command === '-h' ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      guardrail: { type: 'string' },
      data: { type: 'string' },
      kind: { type: 'string', default: 'input' },
      options: { type: 'string' },
      json: { type: 'boolean', default: false },
      'rule-aware': { type: 'boolean', default: false },
    },
  });
  if (!values.guardrail || !values.data) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const showProgress = !values.json && process.stderr.isTTY;
  const reports = await evaluate({
    guardrail: values.guardrail,
    data: values.data,
    kind: values.kind as GuardrailKind,
    ruleAware: values['rule-aware'],
    options: values.options ? JSON.parse(values.options) : {},
    onProgress: showProgress
      ? (done, total) => {
          if (total < 200 || (done % 50 !== 0 && done !== total)) return;
          const width = 30;
          const filled = Math.round((done / total) * width);
          process.stderr.write(
            `\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`,
          );
        }
      : undefined,
  });
  process.stdout.write(
    values.json ? `${JSON.stringify(reports, null, 2)}\n` : `${formatReports(reports)}\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  code => {
    process.exitCode = code;
  },
  error => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
