/**
 * Measures the committed prompt-injection model on the hand-written fixtures
 * and on obfuscated attacks:
 *
 *   npx tsx scripts/train/report.ts [--corpora DIR]
 *
 * - test/fixtures/ordinary-chat.txt: share flagged (should be 0);
 * - test/fixtures/injection-attacks.txt: share caught, plain and under each
 *   obfuscation, and the ratio obfuscated / plain;
 * - the same ratios on the direct corpus attacks outside the encoding
 *   families (in-sample: the model was trained on their plain form).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  DEFAULT_PROMPT_INJECTION_THRESHOLD,
  scorePromptInjection,
} from '../../src/guards/prompt-injection/score-prompt-injection';
import { fnv } from './injection-data';
import { obfuscations } from './obfuscations';

const root = resolve(import.meta.dirname, '../..');
const index = process.argv.indexOf('--corpora');
const corpora = resolve(index >= 0 ? process.argv[index + 1]! : join(root, '../shared/corpora'));
const threshold = DEFAULT_PROMPT_INJECTION_THRESHOLD;

function lines(path: string): string[] {
  return readFileSync(join(root, path), 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '');
}
const caught = (texts: readonly string[]) =>
  texts.filter(text => scorePromptInjection(text).score >= threshold).length / texts.length;

const chat = lines('test/fixtures/ordinary-chat.txt');
const flagged = chat.filter(text => scorePromptInjection(text).score >= threshold);
console.log(`threshold ${threshold}`);
console.log(`ordinary chat flagged: ${flagged.length}/${chat.length}`);
for (const text of flagged) console.log(`  ${scorePromptInjection(text).score} ${text}`);

const attacks = lines('test/fixtures/injection-attacks.txt');
const missed = attacks.filter(text => scorePromptInjection(text).score < threshold);
console.log(`fixture attacks caught: ${attacks.length - missed.length}/${attacks.length}`);
for (const text of missed) console.log(`  ${scorePromptInjection(text).score} ${text}`);

const corpusAttacks = readFileSync(join(corpora, 'injection_direct.jsonl'), 'utf8')
  .split('\n')
  .filter(line => line.trim() !== '')
  .map(line => JSON.parse(line) as { id: string; text: string; family: string })
  .filter(row => !row.family.startsWith('encoding-') && row.text.length <= 2000)
  .sort((a, b) => fnv(a.id) - fnv(b.id))
  .slice(0, 400)
  .map(row => row.text);

console.log('\n| obfuscation | fixture recall | ratio | corpus recall (in-sample) | ratio |');
console.log('| --- | ---: | ---: | ---: | ---: |');
const plainFixture = caught(attacks);
const plainCorpus = caught(corpusAttacks);
console.log(`| none | ${plainFixture.toFixed(3)} | 1 | ${plainCorpus.toFixed(3)} | 1 |`);
for (const [name, obfuscate] of Object.entries(obfuscations)) {
  const fixture = caught(attacks.map(obfuscate));
  const corpus = caught(corpusAttacks.map(obfuscate));
  console.log(
    `| ${name} | ${fixture.toFixed(3)} | ${(fixture / plainFixture).toFixed(2)} | ${corpus.toFixed(3)} | ${(corpus / plainCorpus).toFixed(2)} |`,
  );
}
