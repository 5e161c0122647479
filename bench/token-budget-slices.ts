import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { countO200k } from '../src/guards/token-budget/o200k-count';
import { COUNT_SLICE, StreamedTokenCount } from '../src/guards/token-budget/streamed-token-count';

/**
 * How far `tokenBudget`'s count (o200k_base, tokenized in slices of at most
 * 256 characters cut before white space) is from gpt-tokenizer's
 * `countTokens` on the whole text, on the `text` of every row of the dev
 * sets (`../shared/datasets/*.dev.jsonl`, read at run time, never copied;
 * `DATASETS_DIR` overrides the path). `StreamedTokenCount` cuts the slices
 * `tokenBudget` cuts (its total is the whole text's sliced count). The
 * numbers are in docs/limits.md (tokenBudget row).
 *
 *   npx tsx bench/token-budget-slices.ts
 */
const dir =
  process.env.DATASETS_DIR ?? fileURLToPath(new URL('../../shared/datasets/', import.meta.url));

/** The sliced count of `text`, as `tokenBudget` counts it. */
function slicedCount(text: string): number {
  const count = new StreamedTokenCount(countO200k);
  count.push(text);
  return count.total();
}

/** One line of the table: texts, exact, under, 99th percentile and most over, tokens over. */
function summary(label: string, diffs: number[], tokens: number): string {
  const sorted = [...diffs].sort((a, b) => a - b);
  const over = sorted.reduce((sum, d) => sum + Math.max(0, d), 0);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))];
  return `${label.padEnd(20)} texts ${String(sorted.length).padStart(5)}  exact ${String(sorted.filter(d => d === 0).length).padStart(5)}  under ${sorted.filter(d => d < 0).length}  p99 +${p99}  max +${sorted.at(-1)}  over ${over} of ${tokens} tokens (${((100 * over) / tokens).toFixed(2)}%)`;
}

if (!existsSync(dir)) {
  console.log(`${dir} not found (set DATASETS_DIR); skipped`);
} else {
  const all: number[] = [];
  let allTokens = 0;
  console.log(`tokenBudget count (slices of ${COUNT_SLICE}) minus countTokens(whole text):`);
  for (const file of readdirSync(dir)
    .filter(name => name.endsWith('.dev.jsonl'))
    .sort()) {
    const diffs: number[] = [];
    let tokens = 0;
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { text } = JSON.parse(line) as { text?: unknown };
      if (typeof text !== 'string') continue;
      const whole = countTokens(text);
      diffs.push(slicedCount(text) - whole);
      tokens += whole;
    }
    console.log(summary(file.replace('.dev.jsonl', ''), diffs, tokens));
    all.push(...diffs);
    allTokens += tokens;
  }
  console.log(summary('all', all, allTokens));
}
