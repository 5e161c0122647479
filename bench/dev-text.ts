import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The `text` of every row of the development sets (`*.dev.jsonl` in `dir`),
 * files in name order: the real text the benches measure on. Undefined when
 * the directory is not there (the data sets live outside the repository).
 */
export function devSetTexts(dir: string): string[] | undefined {
  if (!existsSync(dir)) return undefined;
  const texts: string[] = [];
  for (const file of readdirSync(dir)
    .filter(name => name.endsWith('.dev.jsonl'))
    .sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { text } = JSON.parse(line) as { text?: unknown };
      if (typeof text === 'string') texts.push(text);
    }
  }
  return texts;
}
