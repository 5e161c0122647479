import { readFileSync } from 'node:fs';
import { type ChainContext, runChain } from '../core/chain';
import { GuardrailConfigError } from '../core/errors';
import { escapeUnprintable } from '../core/escape-unprintable';
import { shownToolName } from '../core/shown-tool-calls';
import type { Guardrail, GuardrailKind, GuardrailRecord } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { harmfulContent } from '../guards/harmful-content/harmful-content';
import { invisibleText } from '../guards/invisible-text/invisible-text';
import { allPiiEntities, defaultPiiEntities, type PiiEntity } from '../guards/pii/find-pii';
import { pii } from '../guards/pii/pii';
import { promptInjection } from '../guards/prompt-injection/prompt-injection';
import { secretTypesFor } from '../guards/secrets/secret-types';
import { secrets } from '../guards/secrets/secrets';
import { toolPoisoning } from '../guards/tool-poisoning/tool-poisoning';
import { urlFilter } from '../guards/url-filter/url-filter';
import {
  TOOL_DEFINITION_LIMIT,
  type ToolDefinition,
  toolDefinitionText,
} from '../middleware/tool-definitions';
import { secretTypesForRule } from './dataset-rule-types';
import {
  type Confusion,
  emptyConfusion,
  type GoldSpan,
  goldTypeAliases,
  quantile,
  type Rates,
  rates,
  SpanPairsError,
  scoreSpans,
} from './scoring';

/** Where the data format is documented; the CLI help and every data error point here. */
export const evaluationDocsUrl =
  'https://github.com/ai-guardrails/ai-guardrails/blob/main/docs/evaluation.md';

/** Options of `evaluate`. */
export interface EvalOptions {
  /** Built-in guardrail name (see `evalGuardrailNames`). */
  guardrail: string;
  /**
   * Path of a JSONL file with `text`, `label`, optional `set` and (PII)
   * `spans`; with `kind: 'tool_definition'`, each row is a tool definition
   * (`name`, optional `description`, `inputSchema`, `inputExamples`,
   * `serverId`) with `label` and optional `set`.
   */
  data: string;
  /**
   * Kind the guardrail runs as. Default `'input'`. `'tool_definition'` judges
   * the text the middleware builds from each row's definition
   * (`toolDefinitionText`), as `guardrails({ toolDefinitions })` does.
   */
  kind?: GuardrailKind;
  /** JSON options passed to the guardrail factory. */
  options?: Record<string, unknown>;
  /** Called after each row, for a progress bar. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Also score secrets rule-aware: a `label 0` row whose `rule_id` / `plugin`
   * maps to one of our secret types (see `secretTypesForRule`) counts as a
   * false positive only when our detector of that type fires. Default false.
   */
  ruleAware?: boolean;
  /**
   * Called with a hint about the run before the rows are scored: rows that
   * look like tool results scored by `promptInjection` without
   * `kind: 'tool_output'` (see `toolOutputHint`).
   */
  onHint?: (message: string) => void;
}

/** Rule-aware row scores of one set (see `EvalOptions.ruleAware`). */
export interface RuleAwareReport extends Rates, Confusion {
  /** `label 0` rows whose rule maps to one of our types (judged by that type only). */
  mappedNegatives: number;
}

/** Span-level scores of one gold or predicted type. */
export interface EntityReport extends Rates, Confusion {
  /**
   * False when the guardrail, as configured, does not look for this type:
   * its recall is 0 by construction (e.g. `PERSON` without `entities: [...]`).
   */
  detectable: boolean;
}

/** Results of one `set` (or, as `EvalResult.overall`, of the whole file). */
export interface SetReport extends Rates, Confusion {
  set: string;
  rows: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  /**
   * Span-level results per type, for rows with `spans`: every gold type in
   * the rows, including types the guardrail does not detect, and every type
   * it predicted.
   */
  entities?: Record<string, EntityReport>;
  /** Span-level results over all gold spans of every type, for rows with `spans`. */
  allSpans?: Rates & Confusion;
  /** Rule-aware row scores, with `ruleAware: true`. */
  ruleAware?: RuleAwareReport;
}

/** What `evaluate` returns: one report per `set` in file order, and the whole file. */
export interface EvalResult {
  guardrail: string;
  kind: GuardrailKind;
  sets: SetReport[];
  overall: SetReport;
}

/** A problem with the eval command's input: the data file, the guardrail name, the kind or the options. */
export class EvalInputError extends Error {
  override readonly name = 'EvalInputError';
  constructor(
    message: string,
    /** One line per problem (`file:line: ...` for data rows). */
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
  }
}

interface Factory {
  create: (options: Record<string, unknown>) => Guardrail;
  /** The span types this configuration looks for, when the guardrail reports spans by type. */
  detects?: (options: Record<string, unknown>) => ReadonlySet<string> | undefined;
}

/** A guardrail that flags whole texts: no gold span type is one it looks for. */
const reportsNoSpans = (): ReadonlySet<string> => new Set();

const factories: Record<string, Factory> = {
  pii: {
    create: options => pii({ action: 'block', ...options }),
    detects: ({ entities }) =>
      new Set<string>(
        entities === 'all'
          ? allPiiEntities
          : Array.isArray(entities)
            ? (entities as PiiEntity[])
            : defaultPiiEntities,
      ),
  },
  secrets: {
    create: options => secrets({ action: 'block', ...options }),
    detects: options => secretTypesFor(options),
  },
  invisibleText: { create: options => invisibleText({ action: 'block', ...options }) },
  // Judged in the mode of `kind`: 'indirect' on tool_output, else 'direct'.
  promptInjection: { create: options => promptInjection(options), detects: reportsNoSpans },
  contentFilter: { create: options => contentFilter(options), detects: reportsNoSpans },
  harmfulContent: { create: options => harmfulContent(options), detects: reportsNoSpans },
  urlFilter: {
    create: options => urlFilter({ action: 'block', ...options }),
    detects: reportsNoSpans,
  },
  toolPoisoning: { create: options => toolPoisoning(options), detects: reportsNoSpans },
};

/** Config-file type names (`prompt-injection`) accepted beside the factory names (`promptInjection`). */
const aliases: Record<string, string> = {
  'prompt-injection': 'promptInjection',
  'invisible-text': 'invisibleText',
  'content-filter': 'contentFilter',
  'harmful-content': 'harmfulContent',
  'url-filter': 'urlFilter',
  'tool-poisoning': 'toolPoisoning',
};

/** The guardrail names `evaluate` accepts (factory names; config type names work too). */
export const evalGuardrailNames: readonly string[] = Object.keys(factories);

const kinds: readonly GuardrailKind[] = [
  'input',
  'output',
  'tool_input',
  'tool_output',
  'tool_definition',
];

interface Row {
  /** What the guardrail checks; for `tool_definition` rows, built from `definition` when scored. */
  text: string;
  /** `tool_definition` rows: the definition, as the model would be given it. */
  definition?: ToolDefinition;
  serverId?: string;
  label: 0 | 1;
  set?: string;
  rule_id?: string;
  plugin?: string;
  spans?: Array<{ entity_type: string; start: number; end: number }>;
}

const maxListedProblems = 10;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A row's value as a problem shows it: JSON, cut at 40 characters, with the
 * controls JSON leaves as written escaped too (a right-to-left override,
 * an 8-bit CSI), and a value too deep for `JSON.stringify` named, not
 * reported as invalid JSON (round 36).
 */
const describe = (value: unknown) => {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    return `${Array.isArray(value) ? 'an array' : 'an object'} too deeply nested to print`;
  }
  return escapeUnprintable(text.length > 40 ? `${text.slice(0, 40)}...` : text);
};

/** C0 and C1 controls (line breaks, tabs, ANSI escapes) and bidirectional controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is looked for
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A name the data file chose (a set, an entity type, a key) as the report
 * prints it: as written when it is short and plain, else quoted as JSON with
 * its controls escaped, cut to 64 characters. A set name with `\n` and a
 * tab forged rows of the table, an ANSI escape rewrote the terminal, and
 * data files come from anywhere.
 */
function shownName(name: string): string {
  return name.length <= 64 && !CONTROLS.test(name) ? name : shownToolName(name);
}

/**
 * The problems both row shapes share: required keys missing (listing the
 * keys the row has), a label that is not 0 or 1, a field that must be a
 * string and is not.
 */
function sharedRowProblems(
  value: Record<string, unknown>,
  required: readonly string[],
  stringKeys: readonly string[],
  hint = '',
): string[] {
  const problems: string[] = [];
  const missing = required.filter(key => value[key] === undefined);
  if (missing.length > 0) {
    const keys =
      Object.keys(value)
        .slice(0, 8)
        .map(key => shownName(key))
        .join(', ') || 'none';
    problems.push(
      `${missing.map(key => `"${key}"`).join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing (the row's keys: ${keys}${hint})`,
    );
  }
  if (value.label !== undefined && value.label !== 0 && value.label !== 1) {
    problems.push(`"label" must be 0 or 1, received ${describe(value.label)}`);
  }
  for (const key of stringKeys) {
    if (value[key] !== undefined && typeof value[key] !== 'string')
      problems.push(`"${key}" must be a string, received ${describe(value[key])}`);
  }
  return problems;
}

/** What is wrong with one row object, or undefined when it is a valid row. */
function rowProblem(value: Record<string, unknown>): string | undefined {
  const problems = sharedRowProblems(
    value,
    ['text', 'label'],
    ['text', 'set', 'rule_id', 'plugin'],
  );
  if (value.spans !== undefined) {
    if (!Array.isArray(value.spans)) {
      problems.push(`"spans" must be an array, received ${describe(value.spans)}`);
    } else {
      const length = typeof value.text === 'string' ? value.text.length : Number.POSITIVE_INFINITY;
      value.spans.some((span: unknown, index) => {
        const ok =
          isRecord(span) &&
          typeof span.entity_type === 'string' &&
          span.entity_type !== '' &&
          Number.isInteger(span.start) &&
          Number.isInteger(span.end) &&
          (span.start as number) >= 0 &&
          (span.start as number) < (span.end as number) &&
          (span.end as number) <= length;
        if (!ok) {
          problems.push(
            `"spans[${index}]" must be {"entity_type": string, "start": integer, "end": integer} with 0 <= start < end <= text length (${length}), received ${describe(span)}`,
          );
        }
        return !ok;
      });
    }
  }
  return problems.length > 0 ? problems.join('; ') : undefined;
}

/** What is wrong with one `tool_definition` row object, or undefined when it is a valid row. */
function definitionRowProblem(value: Record<string, unknown>): string | undefined {
  const problems = sharedRowProblems(
    value,
    ['name', 'label'],
    ['name', 'description', 'set', 'serverId'],
    '; with --kind tool_definition a row is a tool definition',
  );
  if (value.name === '') problems.push('"name" must not be empty');
  if (value.inputSchema !== undefined && !isRecord(value.inputSchema)) {
    problems.push(
      `"inputSchema" must be a JSON Schema object, received ${describe(value.inputSchema)}`,
    );
  }
  return problems.length > 0 ? problems.join('; ') : undefined;
}

/** The row a valid `tool_definition` line describes. */
function definitionRow(value: Record<string, unknown>): Row {
  const definition: ToolDefinition = { name: value.name as string };
  if (value.description !== undefined) definition.description = value.description as string;
  if (value.inputSchema !== undefined) definition.inputSchema = value.inputSchema;
  if (value.inputExamples !== undefined) definition.inputExamples = value.inputExamples;
  const row: Row = { text: '', definition, label: value.label as 0 | 1 };
  if (value.set !== undefined) row.set = value.set as string;
  if (value.serverId !== undefined) row.serverId = value.serverId as string;
  return row;
}

const expectedRow = {
  text: '{"text": string, "label": 0 or 1, "set"?: string, "spans"?: [...]}',
  definition:
    '{"name": string, "description"?: string, "inputSchema"?: object, "label": 0 or 1, "set"?: string}',
};

/**
 * Reads and validates a JSONL data file; throws `EvalInputError` listing the
 * bad rows. With `kind: 'tool_definition'` each row is a tool definition
 * (`name`, `description`, `inputSchema`, `inputExamples`, `serverId`) with
 * `label` and `set`.
 */
export function readEvalRows(path: string, kind: GuardrailKind = 'input'): Row[] {
  const definitions = kind === 'tool_definition';
  let content: string;
  try {
    // A byte-order mark (Windows editors and PowerShell write one) is not
    // part of the first row: JSON.parse rejected it as "not valid JSON".
    content = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new EvalInputError(
      `Cannot read the data file ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const rows: Row[] = [];
  const problems: string[] = [];
  let badRows = 0;
  content.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    let problem: string | undefined;
    try {
      value = JSON.parse(line);
      problem = !isRecord(value)
        ? `expected a JSON object, received ${describe(value)}`
        : definitions
          ? definitionRowProblem(value)
          : rowProblem(value);
    } catch {
      problem = 'not valid JSON (one JSON object per line)';
    }
    if (problem === undefined) {
      rows.push(definitions ? definitionRow(value as Record<string, unknown>) : (value as Row));
      return;
    }
    badRows++;
    if (problems.length < maxListedProblems) problems.push(`${path}:${index + 1}: ${problem}`);
  });
  if (badRows > 0) {
    if (badRows > problems.length) problems.push(`... and ${badRows - problems.length} more`);
    throw new EvalInputError(
      `${path}: ${badRows} invalid row${badRows === 1 ? '' : 's'} (expected ${definitions ? expectedRow.definition : expectedRow.text}; see ${evaluationDocsUrl})\n${problems.map(line => `  ${line}`).join('\n')}`,
      problems,
    );
  }
  if (rows.length === 0) throw new EvalInputError(`${path}: no rows (one JSON object per line)`);
  return rows;
}

interface Tally {
  rows: Confusion;
  ruleAware: Confusion & { mappedNegatives: number };
  latencies: number[];
  entities: Map<string, Confusion>;
  spans: boolean;
}

const emptyTally = (): Tally => ({
  rows: emptyConfusion(),
  ruleAware: { ...emptyConfusion(), mappedNegatives: 0 },
  latencies: [],
  entities: new Map(),
  spans: false,
});

function addRow(confusion: Confusion, label: number, flagged: boolean): void {
  if (label === 1) {
    if (flagged) confusion.truePositives++;
    else confusion.falseNegatives++;
  } else if (flagged) confusion.falsePositives++;
  else confusion.trueNegatives++;
}

function sumInto(target: Confusion, source: Confusion): void {
  target.truePositives += source.truePositives;
  target.falsePositives += source.falsePositives;
  target.falseNegatives += source.falseNegatives;
  target.trueNegatives += source.trueNegatives;
}

/** A row field naming the task asked of the data beside it (BIPIA's rows): the text is a tool result or document. */
const TASK_FIELD = 'user_question';
/** A `set` or `source` naming tool results or indirect injection (`agentdojo_tool_outputs`, `bipia_indirect`). */
const TOOL_OUTPUT_NAME = /tool|indirect/i;

/**
 * `promptInjection` judges a text at `input` as a prompt the user wrote
 * (direct mode) and at `tool_output` as data a tool returned (indirect mode,
 * which looks for instructions aimed at the assistant). Tool results scored
 * in direct mode show a recall near 0 with nothing to say why: when a row
 * looks like a tool result (a `user_question` field, or `tool` / `indirect`
 * in its `set` or `source`), this returns a hint to add `--kind tool_output`.
 */
function toolOutputHint(rows: readonly Row[], kind: GuardrailKind): string | undefined {
  const looksLikeToolOutput = (row: Row) => {
    // A row keeps the fields of its line beyond the ones scored.
    const { [TASK_FIELD]: task, set, source } = row as unknown as Record<string, unknown>;
    return (
      task !== undefined ||
      (typeof set === 'string' && TOOL_OUTPUT_NAME.test(set)) ||
      (typeof source === 'string' && TOOL_OUTPUT_NAME.test(source))
    );
  };
  const count = rows.filter(looksLikeToolOutput).length;
  if (count === 0) return undefined;
  return `hint: ${count} of ${rows.length} rows look like tool results or documents (a "${TASK_FIELD}" field, or "tool" / "indirect" in their set or source); promptInjection judges them as direct prompts with --kind ${kind}: add --kind tool_output to judge them as indirect injection`;
}

/**
 * The guardrail's record of one row, through `runChain` as the middleware
 * runs it. A `tool_definition` row is judged on the definition text the
 * middleware builds; one past the middleware's limits is blocked unjudged
 * there, so it is here too (a `tool-definition-limit` record).
 */
async function judgeRow(
  guardrail: Guardrail,
  row: Row,
  kind: GuardrailKind,
): Promise<GuardrailRecord | undefined> {
  let text = row.text;
  const context: ChainContext = { kind, messages: [], metadata: {}, state: new Map() };
  if (row.definition) {
    const built = toolDefinitionText(row.definition);
    if (!built.ok) {
      return {
        guardrail: TOOL_DEFINITION_LIMIT,
        kind,
        status: 'blocked',
        reason: `tool "${row.definition.name}" was not judged: ${built.reason}`,
        durationMs: 0,
        toolName: row.definition.name,
      };
    }
    text = built.text;
    context.toolName = row.definition.name;
    context.value = row.definition;
    if (row.serverId !== undefined) context.serverId = row.serverId;
  }
  const result = await runChain([guardrail], text, context);
  return result.records[0];
}

/**
 * Runs a guardrail over a labelled JSONL file through `runChain` (the code
 * path of the middleware) and reports per `set` and for the whole file: rows,
 * precision, recall, F1, false-positive rate, latency p50/p95; for rows with
 * `spans`, span-level scores per type (a prediction matches a gold span of
 * the same type that it overlaps) for every gold type in the file, including
 * types the guardrail does not detect, and over all gold spans.
 * Throws `EvalInputError` for an unknown guardrail or kind and for invalid rows.
 */
export async function evaluate({
  guardrail: requestedName,
  data,
  kind = 'input',
  options = {},
  onProgress,
  ruleAware = false,
  onHint,
}: EvalOptions): Promise<EvalResult> {
  const guardrailName = aliases[requestedName] ?? requestedName;
  const factory = factories[guardrailName];
  if (!factory) {
    throw new EvalInputError(
      `Unknown guardrail "${requestedName}": expected one of ${evalGuardrailNames.join(', ')}`,
    );
  }
  if (!kinds.includes(kind)) {
    throw new EvalInputError(`Unknown kind "${kind}": expected one of ${kinds.join(', ')}`);
  }
  let guardrail: Guardrail;
  try {
    guardrail = factory.create(options);
  } catch (error) {
    if (!GuardrailConfigError.isInstance(error)) throw error;
    throw new EvalInputError(`Invalid --options for ${guardrailName}: ${error.message}`);
  }
  const rows = readEvalRows(data, kind);
  if (guardrailName === 'promptInjection' && kind !== 'tool_output' && kind !== 'tool_definition') {
    const hint = toolOutputHint(rows, kind);
    if (hint !== undefined) onHint?.(hint);
  }
  const detectable = factory.detects?.(options);
  // Every gold type in the file is scored, so a type the guardrail cannot find shows recall 0.
  const goldTypes = new Set<string>();
  for (const row of rows) {
    for (const span of row.spans ?? [])
      goldTypes.add(goldTypeAliases[span.entity_type] ?? span.entity_type);
  }
  const sets = new Map<string, Tally>();
  for (const [index, row] of rows.entries()) {
    const setName = row.set ?? 'all';
    let tally = sets.get(setName);
    if (!tally) {
      tally = emptyTally();
      sets.set(setName, tally);
    }
    const started = performance.now();
    const record = await judgeRow(guardrail, row, kind);
    tally.latencies.push(performance.now() - started);
    const tripped = record !== undefined && record.status !== 'passed';
    addRow(tally.rows, row.label, tripped);
    if (ruleAware) {
      const mapped = row.label === 0 ? secretTypesForRule(row.rule_id ?? row.plugin) : undefined;
      const foundTypes = (record?.info as { types?: string[] } | undefined)?.types ?? [];
      const counted = mapped ? foundTypes.some(type => mapped.includes(type)) : tripped;
      if (mapped) tally.ruleAware.mappedNegatives++;
      addRow(tally.ruleAware, row.label, row.label === 1 ? tripped : counted);
    }
    if (Array.isArray(row.spans)) {
      tally.spans = true;
      const info = record?.info as { spans?: GoldSpan[] } | undefined;
      const gold = row.spans.map(span => ({
        type: span.entity_type,
        start: span.start,
        end: span.end,
      }));
      try {
        scoreSpans(info?.spans ?? [], gold, tally.entities, goldTypes);
      } catch (error) {
        if (!(error instanceof SpanPairsError)) throw error;
        throw new EvalInputError(`${data}: row ${index + 1}: ${error.message}`);
      }
    }
    onProgress?.(index + 1, rows.length);
  }
  const report = (set: string, tally: Tally): SetReport => {
    const latencies = [...tally.latencies].sort((a, b) => a - b);
    const result: SetReport = {
      set,
      rows: tally.latencies.length,
      ...tally.rows,
      ...rates(tally.rows),
      latencyP50Ms: quantile(latencies, 0.5),
      latencyP95Ms: quantile(latencies, 0.95),
    };
    if (ruleAware) result.ruleAware = { ...tally.ruleAware, ...rates(tally.ruleAware) };
    if (tally.spans) {
      const all = emptyConfusion();
      result.entities = Object.fromEntries(
        [...tally.entities.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([type, confusion]) => {
            sumInto(all, confusion);
            return [
              type,
              { ...confusion, ...rates(confusion), detectable: detectable?.has(type) ?? true },
            ];
          }),
      );
      result.allSpans = { ...all, ...rates(all) };
    }
    return result;
  };
  const whole = emptyTally();
  for (const tally of sets.values()) {
    sumInto(whole.rows, tally.rows);
    sumInto(whole.ruleAware, tally.ruleAware);
    whole.ruleAware.mappedNegatives += tally.ruleAware.mappedNegatives;
    whole.latencies.push(...tally.latencies);
    whole.spans ||= tally.spans;
    for (const [type, confusion] of tally.entities) {
      let entry = whole.entities.get(type);
      if (!entry) {
        entry = emptyConfusion();
        whole.entities.set(type, entry);
      }
      sumInto(entry, confusion);
    }
  }
  return {
    guardrail: guardrailName,
    kind,
    sets: [...sets.entries()].map(([set, tally]) => report(set, tally)),
    overall: report('all rows', whole),
  };
}

const format = (value: number | null, digits = 3) => (value === null ? '-' : value.toFixed(digits));

/** Renders an eval result as plain-text tables (tab-separated). */
export function formatEvalResult({ sets, overall }: EvalResult): string {
  const lines: string[] = [];
  const reports = sets.length > 1 ? [...sets, overall] : sets;
  lines.push(
    ['set', 'rows', 'pos/neg', 'precision', 'recall', 'f1', 'fpr', 'p50 ms', 'p95 ms'].join('\t'),
  );
  for (const report of reports) {
    lines.push(
      [
        shownName(report.set),
        report.rows,
        `${report.truePositives + report.falseNegatives}/${report.falsePositives + report.trueNegatives}`,
        format(report.precision),
        format(report.recall),
        format(report.f1),
        format(report.falsePositiveRate),
        format(report.latencyP50Ms, 2),
        format(report.latencyP95Ms, 2),
      ].join('\t'),
    );
  }
  if (overall.ruleAware) {
    lines.push('', 'rule-aware (label 0 of a mapped rule counts only when that type fires)');
    lines.push(['set', 'mapped neg', 'precision', 'recall', 'f1', 'fpr'].join('\t'));
    for (const report of reports) {
      if (!report.ruleAware) continue;
      lines.push(
        [
          shownName(report.set),
          report.ruleAware.mappedNegatives,
          format(report.ruleAware.precision),
          format(report.ruleAware.recall),
          format(report.ruleAware.f1),
          format(report.ruleAware.falsePositiveRate),
        ].join('\t'),
      );
    }
  }
  if (overall.entities && overall.allSpans) {
    lines.push(
      '',
      'spans per type, all rows (a prediction counts when it overlaps a gold span of its type)',
    );
    lines.push(['type', 'tp', 'fp', 'fn', 'precision', 'recall', 'f1'].join('\t'));
    const row = (type: string, scores: Rates & Confusion) =>
      [
        type,
        scores.truePositives,
        scores.falsePositives,
        scores.falseNegatives,
        format(scores.precision),
        format(scores.recall),
        format(scores.f1),
      ].join('\t');
    const undetectable: string[] = [];
    for (const [type, scores] of Object.entries(overall.entities)) {
      if (!scores.detectable) undetectable.push(type);
      lines.push(row(scores.detectable ? shownName(type) : `${shownName(type)} *`, scores));
    }
    lines.push(row('all gold spans', overall.allSpans));
    if (undetectable.length > 0) {
      lines.push(`* not a type this configuration looks for (recall 0 by construction)`);
    }
  }
  return lines.join('\n');
}
