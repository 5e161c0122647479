/** What the compare workers report and the data files they read: shared by the worker and the renderers. */
import { fileURLToPath } from 'node:url';
import type { Task } from '../../bench/peers/adapter';
import type { Confusion } from '../../src/cli/scoring';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export const files: Record<Task, string> = {
  pii: 'pii.dev.jsonl',
  secrets: 'secrets.dev.jsonl',
  'injection-direct': 'prompt_injection.dev.jsonl',
  'injection-indirect': 'indirect_injection.dev.jsonl',
  harmful: 'harmful.dev.jsonl',
};

export const taskTitles: Record<Task, string> = {
  pii: 'PII (span level, per entity type)',
  secrets: 'Secrets (row level, per set)',
  'injection-direct': 'Direct prompt injection (row level, per set)',
  'injection-indirect': 'Indirect prompt injection (row level, per set)',
  harmful: 'Harmful requests (row level, per set)',
};

/** Gold types that need named-entity recognition: no pattern detector (ours or a peer's) claims them. */
export const nerTypes = new Set([
  'PERSON',
  'GPE',
  'LOCATION',
  'TITLE',
  'STREET_ADDRESS',
  'ORGANIZATION',
  'DATE_TIME',
  'NRP',
  'AGE',
]);

export interface Row {
  text: string;
  label: number;
  set?: string;
  spans?: Array<{ entity_type: string; start: number; end: number }>;
}

/** Counts and latencies of one `set` (or of the whole file). */
export interface SetScore {
  set: string;
  rows: number;
  confusion: Confusion;
  p50Ms: number | null;
  p95Ms: number | null;
}

/** What one detector scored on one task. */
export interface DetectorResult {
  task: Task;
  system: string;
  label: string;
  call: string;
  status: 'ok' | 'error' | 'stopped';
  error?: string;
  rowsTotal: number;
  rowsScored: number;
  /** Rows where the detector threw; counted as not flagged. */
  rowErrors: number;
  sets: SetScore[];
  overall: SetScore;
  entities?: Record<string, Confusion>;
}

/** What one system's process reports. */
export interface SystemReport {
  id: string;
  system: string;
  version: string;
  notes: string[];
  unavailable: Partial<Record<Task, string>>;
  results: DetectorResult[];
  backgroundErrors?: { count: number; first?: string };
  /** Ours only: whether the eval command's `evaluate()` gives the same row counts. */
  evalCrossCheck?: string[];
  /** Set when the process itself failed. */
  failure?: string;
}

/** What the speed benchmarks wrote as JSON (bench/fixtures.ts `BENCH_JSON_DIR`). */
export interface BenchSummaries {
  overhead?: Array<{
    operation: string;
    variant: string;
    p50Microseconds: number;
    ratioToBare: number;
  }>;
  chains?: {
    rows: Array<{
      task: string;
      system: string;
      what: string;
      megabytesPerSecond: number | null;
      p50Ms: number | null;
      error?: string;
    }>;
  };
}
