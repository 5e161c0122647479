import {
  anchoredMatcher,
  type LiteralFinder,
  literalFinder,
  stickyPattern,
} from '../shared/anchored-scan';
import { providerRules } from './provider-rules';

// ---------------------------------------------------------------- anchored scanning

/** Every rule's anchor literals, found in one pass; literal index -> rules anchored on it. */
const anchorLiterals: string[] = [];
const rulesByLiteral: number[][] = [];
providerRules.forEach((providerRule, ruleIndex) => {
  for (const literal of providerRule.anchor.literals) {
    let index = anchorLiterals.indexOf(literal);
    if (index < 0) {
      index = anchorLiterals.push(literal) - 1;
      rulesByLiteral.push([]);
    }
    rulesByLiteral[index]!.push(ruleIndex);
  }
});
const providerFinder: LiteralFinder = literalFinder(anchorLiterals);
const stickyRules = providerRules.map(providerRule => stickyPattern(providerRule.pattern));

/**
 * Calls `onMatch(ruleIndex, match)` with exactly the matches
 * `source.matchAll(rule.pattern)` yields for each provider rule, in rule
 * order and text order, trying each pattern only near its anchors.
 */
export function scanProviderRules(
  source: string,
  onMatch: (ruleIndex: number, match: RegExpExecArray) => void,
): void {
  const hits: number[][] = [];
  providerFinder.find(source, (start, literal) => {
    for (const ruleIndex of rulesByLiteral[literal]!) {
      const check = providerRules[ruleIndex]!.anchor.hit;
      if (check && !check(source, start)) continue;
      const ruleHits = hits[ruleIndex];
      if (ruleHits) ruleHits.push(start);
      else hits[ruleIndex] = [start];
    }
  });
  for (let ruleIndex = 0; ruleIndex < providerRules.length; ruleIndex++) {
    const ruleHits = hits[ruleIndex];
    if (!ruleHits) continue;
    // Hits come grouped by anchor character: put them in text order.
    if (!isSorted(ruleHits)) ruleHits.sort((first, second) => first - second);
    const { min, max, start: startCheck } = providerRules[ruleIndex]!.anchor;
    const matcher = anchoredMatcher(stickyRules[ruleIndex]!, source);
    let from = 0;
    for (const hit of ruleHits) {
      const last = hit - min;
      for (let start = Math.max(hit - max, from, 0); start <= last; start++) {
        if (start < matcher.next) {
          start = matcher.next - 1;
          continue;
        }
        if (startCheck && !startCheck(source, start)) continue;
        const match = matcher.at(start);
        if (match) onMatch(ruleIndex, match);
      }
      from = Math.max(from, last + 1);
    }
  }
}

function isSorted(numbers: readonly number[]): boolean {
  for (let index = 1; index < numbers.length; index++) {
    if (numbers[index]! < numbers[index - 1]!) return false;
  }
  return true;
}
