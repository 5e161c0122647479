import { parseArgs } from 'node:util';
import type { GuardrailKind } from '../core/types';
import type { CliOutput } from './cli-output';
import {
  EvalInputError,
  evalGuardrailNames,
  evaluate,
  evaluationDocsUrl,
  formatEvalResult,
} from './eval';

/** `ai-guardrails eval --help`. */
export const evalUsage = `Usage: ai-guardrails eval --guardrail <name> --data <file.jsonl> [options]

Runs a built-in guardrail over a labelled JSONL file, through the same code path as
the middleware, and prints per set and for all rows: precision, recall, F1,
false-positive rate (fpr) and latency p50/p95. For rows with "spans": span-level
scores for every gold type in the file (a type the guardrail does not look for
shows recall 0) and over all gold spans.

Options:
  --guardrail <name>  ${evalGuardrailNames.join(' | ')}
                      (config type names work too: prompt-injection, content-filter, ...)
  --data <file>       the JSONL file (format below)
  --kind <kind>       input (default) | output | tool_input | tool_output | tool_definition;
                      promptInjection judges tool_output and tool_definition as indirect
                      injection; tool_definition rows are tool definitions (below);
                      rows that look like tool results (a "user_question" field, or
                      "tool" / "indirect" in set or source) get a hint to use tool_output
  --options '<json>'  options for the guardrail factory, e.g. '{"entities":"all"}' (pii)
                      or '{"allow":["example.com"]}' (urlFilter)
  --rule-aware        secrets data: a label-0 row written for one rule (rule_id / plugin)
                      counts as a false positive only when our detector of that type fires
  --json              print the result as JSON
  -h, --help          show this help

Data: one JSON object per line.
  {"text": "Mail jane@example.com", "label": 1, "set": "chat", "spans": [{"entity_type": "EMAIL_ADDRESS", "start": 5, "end": 21}]}
  {"text": "See you at noon", "label": 0}

  text    string, required: what the guardrail checks
  label   0 or 1, required: 1 when the guardrail should trip
  set     string, optional: rows are also scored per set (default "all")
  spans   optional: gold spans, start/end in UTF-16 code units of text, end exclusive
  rule_id, plugin  optional strings, read by --rule-aware

With --kind tool_definition, each row is a tool definition as an MCP server lists it
(judged on the text the middleware builds: name, description, schema texts):
  {"name": "add", "description": "Adds two numbers.", "inputSchema": {"type": "object"}, "label": 0}

Exit codes: 0 scored; 2 usage or data error (every bad row is listed with its line);
1 unexpected failure. The format in full: ${evaluationDocsUrl}`;

/** `ai-guardrails eval ...`. Returns the exit code: 0 scored, 2 usage or data error. */
export async function evalCommand(argv: string[], { stdout, stderr }: CliOutput): Promise<number> {
  let values: {
    guardrail?: string;
    data?: string;
    kind?: string;
    options?: string;
    json?: boolean;
    'rule-aware'?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        guardrail: { type: 'string' },
        data: { type: 'string' },
        kind: { type: 'string', default: 'input' },
        options: { type: 'string' },
        json: { type: 'boolean', default: false },
        'rule-aware': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    stderr.write(
      `${error instanceof Error ? error.message : String(error)}\nRun ai-guardrails eval --help for the options.\n`,
    );
    return 2;
  }
  if (values.help) {
    stdout.write(`${evalUsage}\n`);
    return 0;
  }
  if (!values.guardrail || !values.data) {
    stderr.write(
      `Missing ${[!values.guardrail && '--guardrail', !values.data && '--data'].filter(Boolean).join(' and ')}.\n\n${evalUsage}\n`,
    );
    return 2;
  }
  let options: Record<string, unknown> = {};
  if (values.options !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values.options);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      stderr.write(
        `--options must be a JSON object, e.g. '{"entities":"all"}'; received ${values.options}\n`,
      );
      return 2;
    }
    options = parsed as Record<string, unknown>;
  }
  const showProgress = !values.json && stderr.isTTY === true;
  try {
    const result = await evaluate({
      guardrail: values.guardrail,
      data: values.data,
      kind: values.kind as GuardrailKind,
      ruleAware: values['rule-aware'] ?? false,
      options,
      onHint: message => stderr.write(`${message}\n`),
      onProgress: showProgress
        ? (done, total) => {
            if (total < 200 || (done % 50 !== 0 && done !== total)) return;
            const width = 30;
            const filled = Math.round((done / total) * width);
            stderr.write(
              `\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`,
            );
          }
        : undefined,
    });
    stdout.write(
      values.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatEvalResult(result)}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof EvalInputError)) throw error;
    stderr.write(`${error.message}\n`);
    return 2;
  }
}
