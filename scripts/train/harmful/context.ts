/**
 * Contextual twins for training (augmentation): a request placed after (or
 * before) a benign context — paragraphs of the English prose file
 * (`english_text.txt`: novels, essays, documentation prose; not a reported
 * source) — the way contextual harmful behaviours are written ("<an article
 * or a dialogue> --- <the ask>"). Every harmful twin has a **benign twin**:
 * a benign prompt after the same context, of the same weight, so that length
 * and context alone carry no evidence and only the ask decides.
 *
 * The layouts are written for this project from general knowledge of how
 * such prompts look, not taken from any corpus row. Deterministic: which
 * rows, which context, which benign partner and which layout are picked by
 * hashes of the ids.
 */
import { fnv } from '../injection-data';
import type { HarmfulRow } from './harmful-data';

/** Options of `contextTwins`. */
export interface ContextOptions {
  /** One harmful row in `every` (by a hash of its id) gets a contextual twin. */
  every: number;
  /** Context length bounds, in characters (whole paragraphs, joined). */
  minLength: number;
  maxLength: number;
}

const layouts = [
  (context: string, ask: string) => `${context}\n\n---\n\n${ask}`,
  (context: string, ask: string) => `${context}\n\n${ask}`,
  (context: string, ask: string) => `${ask}\n\n${context}`,
  (context: string, ask: string) => `Read the following text.\n\n${context}\n\n${ask}`,
  (context: string, ask: string) => `Context:\n${context}\n\nTask: ${ask}`,
] as const;

/** Prose paragraphs fit to be a context: mostly letters, at least 80 characters. */
export function contextParagraphs(paragraphs: readonly string[]): string[] {
  return paragraphs.filter(paragraph => {
    if (paragraph.length < 80 || paragraph.length > 1500) return false;
    let letters = 0;
    for (const char of paragraph) if (/\p{L}/u.test(char)) letters++;
    return letters >= 0.7 * paragraph.length;
  });
}

/** A context of consecutive paragraphs from a hashed start, between the length bounds (undefined if none fits). */
function contextFor(seed: string, paragraphs: readonly string[], options: ContextOptions) {
  const start = fnv(`harmful-context:${seed}`) % paragraphs.length;
  const want =
    options.minLength +
    (fnv(`harmful-context-length:${seed}`) % (options.maxLength - options.minLength + 1));
  let context = '';
  for (let at = start; at < paragraphs.length && context.length < want; at++) {
    const next = context === '' ? paragraphs[at]! : `${context}\n\n${paragraphs[at]!}`;
    if (next.length > options.maxLength) break;
    context = next;
  }
  return context.length >= options.minLength ? context : undefined;
}

/**
 * Pairs of contextual twins: for one harmful row in `options.every` (up to
 * 600 characters), the row after a context, and a benign row (look-alikes
 * and ordinary prompts alternately, up to 600 characters) after the same
 * context. The harmful twin belongs to its row's source, the benign twin to
 * the benign row's (each is dropped with its source); the benign twin borrows
 * the harmful twin's weight (`weightOf`).
 */
export function contextTwins(
  rows: readonly HarmfulRow[],
  paragraphs: readonly string[],
  options: ContextOptions,
): HarmfulRow[] {
  const originals = rows.filter(row => row.augmentOf === undefined && row.text.length <= 600);
  const lookalikes = originals.filter(row => row.label === 0 && row.kind === 'lookalike');
  const general = originals.filter(row => row.label === 0 && row.kind !== 'lookalike');
  const twins: HarmfulRow[] = [];
  if (paragraphs.length === 0 || lookalikes.length === 0 || general.length === 0) return twins;
  for (const row of originals) {
    if (row.label !== 1 || fnv(`harmful-context-pick:${row.id}`) % options.every !== 0) continue;
    const context = contextFor(row.id, paragraphs, options);
    if (context === undefined) continue;
    const pick = fnv(`harmful-context-partner:${row.id}`);
    const pool = pick % 2 === 0 ? lookalikes : general;
    const partner = pool[(pick >>> 1) % pool.length]!;
    const layout = layouts[fnv(`harmful-context-layout:${row.id}`) % layouts.length]!;
    twins.push({
      ...row,
      id: `${row.id}~context`,
      text: layout(context, row.text.trim()),
      augmentOf: row.id,
    });
    twins.push({
      ...partner,
      id: `${partner.id}~context~${row.id}`,
      text: layout(context, partner.text.trim()),
      augmentOf: partner.id,
      weightOf: `${row.id}~context`,
    });
  }
  return twins;
}
