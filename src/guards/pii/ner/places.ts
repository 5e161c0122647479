import { Flag, type Scanned } from './features';
import type { NerSpan } from './tagger';

/**
 * Places the tagger read as people after a verb of travel (round 38): `flew
 * to Charlotte`, `moved from Eugene`. A one-word PERSON span that is a place
 * of the gazetteers, right after `to`, `from` or `via` that follows one of
 * these verbs or a place that does (`flew from Jackson to Denver`), is a
 * LOCATION. A fixed list of whole categories, not words picked from a row.
 */
const travelVerbs: ReadonlySet<string> = new Set(
  `flew fly flies flying moved move moves moving travelled traveled travel travels travelling
  traveling drove drive drives driving relocated relocate emigrated emigrate returned return
  returns sailed commuted commute`.split(/\s+/),
);

const travelPrepositions: ReadonlySet<string> = new Set(['to', 'from', 'via']);

const lowerOf = (scanned: Scanned, index: number) => scanned.words.lower[scanned.word[index]!]!;

/** `spans` (text order) with the places after a verb of travel retyped. Linear in the spans. */
export function placesAfterTravel(scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  let result: NerSpan[] | undefined;
  let token = 0;
  // Where the last place of a journey ended (`from Jackson` before `to Denver`).
  let journeyEnd = -1;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    if (span.type !== 'PERSON' && span.type !== 'LOCATION') continue;
    while (token < scanned.count && scanned.start[token]! < span.start) token++;
    if (token < 2 || token >= scanned.count || scanned.newline[token] !== 0) continue;
    const preposition = token - 1;
    if (!travelPrepositions.has(lowerOf(scanned, preposition))) continue;
    if (scanned.newline[preposition] !== 0) continue;
    const travel =
      journeyEnd === scanned.end[preposition - 1] ||
      travelVerbs.has(lowerOf(scanned, preposition - 1));
    if (!travel) continue;
    if (span.type === 'LOCATION') {
      journeyEnd = span.end;
      continue;
    }
    if (scanned.end[token] !== span.end) continue;
    if ((scanned.flags[token]! & (Flag.Place | Flag.Country)) === 0) continue;
    result ??= spans.slice();
    result[index] = { type: 'LOCATION', start: span.start, end: span.end };
    journeyEnd = span.end;
  }
  return result ?? spans;
}
