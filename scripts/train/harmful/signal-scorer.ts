/**
 * The trainer's scorers that add a few named word-class signals to each
 * window's hashed features (text-request.ts, demeaning.ts, directed-harm.ts):
 * a subclass names the signals' feature indices present in a window; this
 * appends the ones the window does not already have.
 */
import { namedFeature } from '../../../src/guards/prompt-injection/hashed-features';
import { ExperimentScorer } from './concept-features';
import { appendFeatures } from './skip-grams';

/** The hashed indices `${prefix}:${name}#${copy}` of the signals set in `mask` (bit i: `names[i]`), `copies` each. */
export function signalFeatures(
  prefix: string,
  names: readonly string[],
  mask: number,
  bits: number,
  copies: number,
): number[] {
  return names.flatMap((name, at) =>
    (mask & (1 << at)) === 0
      ? []
      : Array.from({ length: copies }, (_, copy) =>
          namedFeature(`${prefix}:${name}#${copy}`, bits),
        ),
  );
}

/** Word → bit mask of the classes it is listed in (each list: words separated by single spaces). */
export function wordClasses(lists: readonly (readonly [number, string])[]): Map<string, number> {
  const classOf = new Map<string, number>();
  for (const [flag, words] of lists) {
    for (const word of words.split(' ')) classOf.set(word, (classOf.get(word) ?? 0) | flag);
  }
  return classOf;
}

/** An ExperimentScorer whose windows also carry `signalIndices`' features. */
export abstract class SignalScorer extends ExperimentScorer {
  /** Hashed features per signal present (the trainer sets it from its option). */
  copies = 4;

  /** The extra feature indices of folded `text[start, end)` (may repeat the window's own). */
  protected abstract signalIndices(text: string, start: number, end: number): number[];

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const extra = this.signalIndices(text, start, end);
    if (extra.length === 0) return base;
    const seen = new Set<number>(base);
    return appendFeatures(
      base,
      extra.filter(index => {
        if (seen.has(index)) return false;
        seen.add(index);
        return true;
      }),
    );
  }
}
