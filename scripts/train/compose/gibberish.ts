/**
 * Token salad in the style of optimised adversarial suffixes (GCG and
 * random-search attacks): punctuation clusters, word fragments with odd
 * casing, glued sub-words, LaTeX and markup bits. Generated from a seeded
 * PRNG and a list of English words; no published suffix is copied.
 */

const punctuation = '!?.,;:(){}[]<>/\\|*+=-_~^"\'`#$%&@';
const markup: readonly string[] = [
  '\\begin{',
  '\\end',
  '\\',
  '$',
  '^{',
  '}}',
  '{{',
  '\\frac',
  '<br>',
  '](',
  '**',
  '##',
  '</s>',
  '%%',
  '&&',
  '=>',
  '::',
  '/*',
  '*/',
  '`',
  '\\n',
  '--',
  '[(',
  ')]',
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function casing(random: () => number, text: string): string {
  const r = random();
  if (r < 0.2) return text.toUpperCase();
  if (r < 0.5) return text.charAt(0).toUpperCase() + text.slice(1);
  return text;
}

function fragment(random: () => number, words: readonly string[]): string {
  const word = pick(random, words);
  if (word.length <= 4 || random() < 0.4) return casing(random, word);
  const length = 2 + Math.floor(random() * Math.min(6, word.length - 2));
  const start = Math.floor(random() * (word.length - length + 1));
  return casing(random, word.slice(start, start + length));
}

function token(random: () => number, words: readonly string[]): string {
  const r = random();
  if (r < 0.2) {
    let out = '';
    const count = 1 + Math.floor(random() * 3);
    for (let i = 0; i < count; i++) out += pick(random, [...punctuation]);
    return out;
  }
  if (r < 0.32) return pick(random, markup);
  if (r < 0.45) return fragment(random, words) + fragment(random, words);
  if (r < 0.5) return `${fragment(random, words)}${pick(random, [...punctuation])}`;
  return fragment(random, words);
}

/** One suffix of 12–32 tokens; mostly space-separated, sometimes glued. */
export function gibberish(random: () => number, words: readonly string[]): string {
  const count = 12 + Math.floor(random() * 21);
  let out = '';
  for (let i = 0; i < count; i++) {
    const next = token(random, words);
    out += i === 0 ? next : random() < 0.8 ? ` ${next}` : next;
  }
  return out;
}
