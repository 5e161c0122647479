import { readFileSync } from 'node:fs';
import { runChain } from '../core/chain';
import type { Guardrail, GuardrailKind } from '../core/types';
import { invisibleText } from '../guards/invisible-text/invisible-text';
import { allPiiEntities, type PiiEntity } from '../guards/pii/find-pii';
import { pii } from '../guards/pii/pii';
import { promptInjection } from '../guards/prompt-injection/prompt-injection';
import { secrets } from '../guards/secrets/secrets';
import {
  type Confusion,
  emptyConfusion,
  type GoldSpan,
  quantile,
  type Rates,
  rates,
  scoreSpans,
} from './scoring';
import { secretTypesForRule } from './secret-rules';

/** Options of `evaluate`. */
export interface EvalOptions {
  /** Built-in guardrail name: `pii`, `secrets`, `invisibleText` or `prompt-injection`. */
  guardrail: string;
  /** Path of a JSONL file with `text`, `label`, `set` and (PII) `spans`. */
  data: string;
  /** Kind the guardrail runs as. Default `'input'`. */
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
}

/** Rule-aware row scores of one set (see `EvalOptions.ruleAware`). */
export interface RuleAwareReport extends Rates, Confusion {
  /** `label 0` rows whose rule maps to one of our types (judged by that type only). */
  mappedNegatives: number;
}

/** Results of one `set`. */
export interface SetReport extends Rates {
  set: string;
  rows: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  /** Span-level results per entity type, for rows with `spans`. */
  entities?: Record<string, Rates & Confusion>;
  /** Rule-aware row scores, with `ruleAware: true`. */
  ruleAware?: RuleAwareReport;
}

const factories: Record<string, (options: Record<string, unknown>) => Guardrail> = {
  pii: options => pii({ action: 'block', ...options }),
  secrets: options => secrets({ action: 'block', ...options }),
  invisibleText: options => invisibleText({ action: 'block', ...options }),
  // Judged in the mode of `kind`: 'indirect' on tool_output, else 'direct'.
  'prompt-injection': options => promptInjection(options),
};

interface Row {
  text: string;
  label: number;
  set?: string;
  rule_id?: string;
  plugin?: string;
  spans?: Array<{ entity_type: string; start: number; end: number }>;
}

/**
 * Runs a guardrail over a labelled JSONL file through `runChain` (the code
 * path of the middleware) and reports per `set`: rows, precision, recall,
 * F1, false-positive rate, latency p50/p95; for rows with `spans`, span-level
 * scores per entity type (a prediction matches a gold span of the same type
 * that it overlaps).
 */
export async function evaluate({
  guardrail: guardrailName,
  data,
  kind = 'input',
  options = {},
  onProgress,
  ruleAware = false,
}: EvalOptions): Promise<SetReport[]> {
  const factory = factories[guardrailName];
  if (!factory) {
    throw new Error(
      `Unknown guardrail "${guardrailName}": expected one of ${Object.keys(factories).join(', ')}`,
    );
  }
  const guardrail = factory(options);
  const rows = readFileSync(data, 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line) as Row);
  const scoredTypes = new Set<string>(
    Array.isArray(options.entities) ? (options.entities as PiiEntity[]) : allPiiEntities,
  );
  const sets = new Map<
    string,
    {
      rows: Confusion;
      ruleAware: Confusion & { mappedNegatives: number };
      latencies: number[];
      entities: Map<string, Confusion>;
      spans: boolean;
    }
  >();
  for (const [index, row] of rows.entries()) {
    const setName = row.set ?? 'all';
    let entry = sets.get(setName);
    if (!entry) {
      entry = {
        rows: emptyConfusion(),
        ruleAware: { ...emptyConfusion(), mappedNegatives: 0 },
        latencies: [],
        entities: new Map(),
        spans: false,
      };
      sets.set(setName, entry);
    }
    const started = performance.now();
    const result = await runChain([guardrail], row.text, {
      kind,
      messages: [],
      metadata: {},
      state: new Map(),
    });
    entry.latencies.push(performance.now() - started);
    const record = result.records[0];
    const tripped = record !== undefined && record.status !== 'passed';
    if (row.label === 1) {
      if (tripped) entry.rows.truePositives++;
      else entry.rows.falseNegatives++;
    } else if (tripped) entry.rows.falsePositives++;
    else entry.rows.trueNegatives++;
    if (ruleAware) {
      const mapped = row.label === 0 ? secretTypesForRule(row.rule_id ?? row.plugin) : undefined;
      const foundTypes = (record?.info as { types?: string[] } | undefined)?.types ?? [];
      const counted = mapped ? foundTypes.some(type => mapped.includes(type)) : tripped;
      if (mapped) entry.ruleAware.mappedNegatives++;
      if (row.label === 1) {
        if (tripped) entry.ruleAware.truePositives++;
        else entry.ruleAware.falseNegatives++;
      } else if (counted) entry.ruleAware.falsePositives++;
      else entry.ruleAware.trueNegatives++;
    }
    if (Array.isArray(row.spans)) {
      entry.spans = true;
      const info = record?.info as { spans?: GoldSpan[] } | undefined;
      const gold = row.spans.map(span => ({
        type: span.entity_type,
        start: span.start,
        end: span.end,
      }));
      scoreSpans(info?.spans ?? [], gold, entry.entities, scoredTypes);
    }
    onProgress?.(index + 1, rows.length);
  }
  return [...sets.entries()].map(([set, entry]) => {
    const latencies = [...entry.latencies].sort((a, b) => a - b);
    const report: SetReport = {
      set,
      rows: entry.latencies.length,
      ...rates(entry.rows),
      latencyP50Ms: quantile(latencies, 0.5),
      latencyP95Ms: quantile(latencies, 0.95),
    };
    if (ruleAware) report.ruleAware = { ...entry.ruleAware, ...rates(entry.ruleAware) };
    if (entry.spans) {
      report.entities = Object.fromEntries(
        [...entry.entities.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([type, confusion]) => [type, { ...confusion, ...rates(confusion) }]),
      );
    }
    return report;
  });
}

const format = (value: number | null, digits = 3) => (value === null ? '-' : value.toFixed(digits));

/** Renders reports as a plain-text table. */
export function formatReports(reports: readonly SetReport[]): string {
  const lines: string[] = [];
  lines.push(['set', 'rows', 'precision', 'recall', 'f1', 'fpr', 'p50 ms', 'p95 ms'].join('\t'));
  for (const report of reports) {
    lines.push(
      [
        report.set,
        report.rows,
        format(report.precision),
        format(report.recall),
        format(report.f1),
        format(report.falsePositiveRate),
        format(report.latencyP50Ms, 2),
        format(report.latencyP95Ms, 2),
      ].join('\t'),
    );
  }
  if (reports.some(report => report.ruleAware)) {
    lines.push('', 'rule-aware (label 0 of a mapped rule counts only when that type fires)');
    lines.push(['set', 'mapped neg', 'precision', 'recall', 'f1', 'fpr'].join('\t'));
    for (const report of reports) {
      if (!report.ruleAware) continue;
      lines.push(
        [
          report.set,
          report.ruleAware.mappedNegatives,
          format(report.ruleAware.precision),
          format(report.ruleAware.recall),
          format(report.ruleAware.f1),
          format(report.ruleAware.falsePositiveRate),
        ].join('\t'),
      );
    }
  }
  for (const report of reports) {
    if (!report.entities) continue;
    lines.push('', `${report.set}: spans per entity type`);
    lines.push(['entity', 'tp', 'fp', 'fn', 'precision', 'recall', 'f1'].join('\t'));
    for (const [type, scores] of Object.entries(report.entities)) {
      lines.push(
        [
          type,
          scores.truePositives,
          scores.falsePositives,
          scores.falseNegatives,
          format(scores.precision),
          format(scores.recall),
          format(scores.f1),
        ].join('\t'),
      );
    }
  }
  return lines.join('\n');
}
