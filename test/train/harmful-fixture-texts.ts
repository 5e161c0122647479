import { readFileSync } from 'node:fs';

/** The texts of the hand-written harmful report sets (never trained on). */
export const harmfulFixtureTexts: readonly string[] = [
  'harmful-ordinary-requests.jsonl',
  'harmful-requests.jsonl',
  'harmful-lookalikes.jsonl',
].flatMap(name =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => (JSON.parse(line) as { text: string }).text),
);
