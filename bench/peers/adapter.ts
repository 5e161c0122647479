/**
 * What the comparison needs from each system (ours and every peer): one
 * detector per task it can do, called through the system's public API, and a
 * reason for each task it cannot do offline.
 */
import { readFileSync } from 'node:fs';
import type { GoldSpan } from '../../src/cli/scoring';

/** The detection tasks of `npm run compare`. */
export type Task = 'pii' | 'secrets' | 'injection-direct' | 'injection-indirect' | 'harmful';

/** Every task, in report order. */
export const tasks: readonly Task[] = [
  'pii',
  'secrets',
  'injection-direct',
  'injection-indirect',
  'harmful',
];

/** A detector's answer for one text. */
export interface Detection {
  /** Whether the detector flags (blocks, redacts or reports) the text. */
  flagged: boolean;
  /** PII only: what it found, as `[start, end)` spans of the input with our entity names. */
  spans?: GoldSpan[];
}

/** One detector of one system. */
export interface Detector {
  /** Short name of the variant within its system, e.g. `pattern` (empty for the only one). */
  label: string;
  /** What is called, e.g. `piiGuard({ selection: All })`, shown in the doc. */
  call: string;
  detect(text: string): Detection | Promise<Detection>;
}

/** A system under comparison. */
export interface SystemAdapter {
  /** Display name, e.g. `@openai/guardrails`. */
  system: string;
  /** Version read from its package.json at run time. */
  version: string;
  /** The detectors for each task this system can run offline (one row each in the doc). */
  detectors: Partial<Record<Task, Detector[]>>;
  /** For each task it cannot run: why (not offline, crashes, no such detector). */
  unavailable: Partial<Record<Task, string>>;
  /** Remarks for the doc: configuration chosen, problems met. */
  notes: string[];
  /** Errors the system raised outside any call (e.g. from its own worker pool), to report. */
  backgroundErrors?: () => { count: number; first?: string };
}

/** The version field of an installed package, read from node_modules at run time. */
export function installedVersion(packageName: string): string {
  const url = new URL(`../../node_modules/${packageName}/package.json`, import.meta.url);
  try {
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

/** This repository's own version. */
export function ownVersion(): string {
  const url = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

/**
 * Spans of every occurrence of each reported value, for peers that report
 * what they found but not where. Values shorter than 2 characters are ignored.
 */
export function spansFromValues(
  text: string,
  found: ReadonlyArray<{ type: string; value: string }>,
): GoldSpan[] {
  const spans: GoldSpan[] = [];
  const seen = new Set<string>();
  for (const { type, value } of found) {
    if (value.length < 2) continue;
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
      const key = `${type}:${at}`;
      if (seen.has(key)) continue;
      seen.add(key);
      spans.push({ type, start: at, end: at + value.length });
    }
  }
  return spans;
}

/**
 * Spans of a redacted copy of `original`: the text between placeholders is
 * kept verbatim, so each placeholder covers the original text between the
 * kept pieces around it. Adjacent placeholders share one span (typed by the
 * first). `typeOf` maps a placeholder's label to our entity name.
 */
export function spansFromRedaction(
  original: string,
  redacted: string,
  placeholder: RegExp,
  typeOf: (label: string) => string,
): GoldSpan[] {
  const pattern = new RegExp(
    placeholder.source,
    placeholder.flags.includes('g') ? placeholder.flags : `${placeholder.flags}g`,
  );
  const kept: string[] = [];
  const labels: string[] = [];
  let last = 0;
  for (const match of redacted.matchAll(pattern)) {
    kept.push(redacted.slice(last, match.index));
    labels.push(match[1] ?? match[0]);
    last = match.index + match[0].length;
  }
  kept.push(redacted.slice(last));
  const spans: GoldSpan[] = [];
  let cursor = kept[0]!.length;
  for (let i = 0; i < labels.length; i++) {
    const next = kept[i + 1]!;
    let end: number;
    if (next === '') {
      // Adjacent placeholders or the end of text: this one reaches the next kept piece.
      const following = kept.slice(i + 1).find(piece => piece !== '');
      end = following === undefined ? original.length : original.indexOf(following, cursor + 1);
    } else {
      end = original.indexOf(next, cursor + 1);
    }
    if (end < 0) break; // The redaction did more than replace: stop rather than guess.
    if (end > cursor) spans.push({ type: typeOf(labels[i]!), start: cursor, end });
    cursor = end + next.length;
  }
  return spans;
}
