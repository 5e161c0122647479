import { providerRules } from './provider-rules';

/**
 * The literals a prefixed rule's matches start with (`ghp_`, `sk-`, `xox`,
 * `AKIA`), each with the rules that start with it, in rule order: read by
 * the joins across a blank (`split-prefix.ts`) and found, where they start
 * a word, by the provider scan's literal pass (`provider-scan.ts`).
 */
export const prefixLiteralRules: ReadonlyArray<{ literal: string; rules: readonly number[] }> =
  (() => {
    const byLiteral = new Map<string, number[]>();
    providerRules.forEach((providerRule, ruleIndex) => {
      if (providerRule.prefix === undefined || providerRule.anchor.min !== 0) return;
      for (const literal of providerRule.anchor.literals) {
        const rules = byLiteral.get(literal);
        if (rules) rules.push(ruleIndex);
        else byLiteral.set(literal, [ruleIndex]);
      }
    });
    return Array.from(byLiteral, ([literal, rules]) => ({ literal, rules }));
  })();

/** Every prefix literal starts with a letter (so a word boundary is where one can start a word). */
export const prefixLiteralsStartWithLetters = prefixLiteralRules.every(({ literal }) =>
  /^[A-Za-z]/.test(literal),
);

/** A character of a token (`[A-Za-z0-9_-]`): a prefix starts after none. */
export function isTokenCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 45
  );
}

/**
 * Whether a prefix literal at `at` of `source` starts a word: as the
 * regex `\b` reads it before a letter (the character before is none of
 * `[A-Za-z0-9_]`, or there is none), or, were a literal not to start with a
 * letter, after no token character.
 */
export function startsWordAt(source: string, at: number): boolean {
  if (at === 0) return true;
  const code = source.charCodeAt(at - 1);
  return prefixLiteralsStartWithLetters ? code === 45 || !isTokenCode(code) : !isTokenCode(code);
}
