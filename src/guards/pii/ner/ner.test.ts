import { readFileSync } from 'node:fs';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, guardContext, streamOf, textParts } from '../../../../test/helpers';
import { guardrails } from '../../../middleware/guardrails-middleware';
import { allPiiEntities, defaultPiiEntities, piiMaxMatchLength } from '../find-pii';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';
import {
  type Gazetteers,
  hashString,
  scanText,
  tokenBounds,
  tokenize,
  WordClusters,
  WordTable,
} from './features';
import { findNamedEntities, NER_CHUNK, placeholderPattern } from './find-named-entities';
import { nerEntities, nerMaxLength } from './labels';
import { cutAroundPatterns } from './merge';
import { nerModel } from './model/ner-model';
import { decodeBytes, decodeNerModel } from './ner-model';
import { spansOfLabels } from './tagger';

/** The spans of `text` as `TYPE:value` strings. */
function found(text: string, spans: ReadonlyArray<{ type: string; start: number; end: number }>) {
  return spans.map(span => `${span.type}:${text.slice(span.start, span.end)}`);
}

function promptText(prompt: LanguageModelV4CallOptions['prompt']): string {
  return prompt
    .flatMap(message =>
      message.role === 'user'
        ? message.content.flatMap(part => (part.type === 'text' ? [part.text] : []))
        : [],
    )
    .join('\n');
}

const names = ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'] as const;

describe('findNamedEntities', () => {
  const cases: Array<[string, string[]]> = [
    ['Please forward this to Grace Okafor in accounting.', ['PERSON:Grace Okafor']],
    ['By the grace of good planning, the launch went smoothly.', []],
    ['Rose Delacroix called about her refund yesterday.', ['PERSON:Rose Delacroix']],
    ['The rose bushes in the garden need pruning before winter.', []],
    ['Will you check whether the invoice was paid?', []],
    ['Dr. Oluwaseun Adeyemi will see you at 3 pm.', ['PERSON:Oluwaseun Adeyemi']],
    ['Our new intern, Fatima Al-Sayed, starts on Monday.', ['PERSON:Fatima Al-Sayed']],
    ['Best regards,\nCarlos Mendoza', ['PERSON:Carlos Mendoza']],
    [
      'Ship it to 742 Evergreen Terrace, Springfield, IL 62704.',
      ['STREET_ADDRESS:742 Evergreen Terrace, Springfield, IL 62704'],
    ],
    [
      'The shop is at 15 rue de la Paix, 75002 Paris.',
      ['STREET_ADDRESS:15 rue de la Paix, 75002 Paris'],
    ],
    [
      'We are flying from Buenos Aires to Cape Town next week.',
      ['LOCATION:Buenos Aires', 'LOCATION:Cape Town'],
    ],
    [
      'Rahul and Sunita Kapoor from Infosys visited our Pune office.',
      ['PERSON:Rahul', 'PERSON:Sunita Kapoor', 'ORGANIZATION:Infosys', 'LOCATION:Pune'],
    ],
    ['Write a Python function that reverses a linked list.', []],
  ];
  for (const [text, expected] of cases) {
    it(`tags ${JSON.stringify(text)}`, () => {
      expect(found(text, findNamedEntities(text))).toEqual(expected);
    });
  }

  it('tags a long text in chunks with offsets into the whole text', () => {
    const filler = 'the cat sat on the mat.\n'.repeat(3_000); // 72,000 characters: two chunks
    const sentence = 'Please forward this to Grace Okafor in accounting.';
    const text = `${filler}${sentence}`;
    expect(text.length).toBeGreaterThan(NER_CHUNK);
    expect(findNamedEntities(text)).toEqual([
      { type: 'PERSON', start: filler.length + 23, end: filler.length + 35 },
    ]);
  });

  it('returns only the types asked for', () => {
    const text = 'Rahul and Sunita Kapoor from Infosys visited our Pune office.';
    expect(found(text, findNamedEntities(text, ['LOCATION']))).toEqual(['LOCATION:Pune']);
    expect(findNamedEntities(text, [])).toEqual([]);
  });

  it('keeps the fixture sentences at their measured quality (a regression floor, not the target)', () => {
    // Measured on the committed model (word clusters, span rules of the seventh session): 26 of
    // 34 PERSON spans exact, 34 predicted (P 0.765, R 0.765; 25 and 33 before the cue rule);
    // docs/pii-ner-model.md has the table for every type.
    const rows = readFileSync('test/fixtures/ner-sentences.jsonl', 'utf8')
      .trim()
      .split('\n')
      .map(
        line => JSON.parse(line) as { text: string; spans: Array<{ type: string; value: string }> },
      );
    expect(rows.length).toBeGreaterThanOrEqual(60);
    let gold = 0;
    let exact = 0;
    let predicted = 0;
    for (const row of rows) {
      const want = row.spans.filter(span => span.type === 'PERSON').map(span => span.value);
      const got = findNamedEntities(row.text, ['PERSON']).map(s => row.text.slice(s.start, s.end));
      gold += want.length;
      predicted += got.length;
      exact += got.filter(value => want.includes(value)).length;
    }
    expect(gold).toBe(34);
    expect(exact / gold).toBeGreaterThanOrEqual(0.7);
    expect(exact / predicted).toBeGreaterThanOrEqual(0.7);
  });

  it('cuts no span longer than its bound on 650 KB of repetitive capitalised input', () => {
    const hostile = `${'Aa Bb. '.repeat(40_000)}${'1 Main Street, '.repeat(20_000)}${'J. '.repeat(30_000)}`;
    const spans = findNamedEntities(hostile);
    for (const span of spans)
      expect(span.end - span.start).toBeLessThanOrEqual(nerMaxLength[span.type]);
    expect(spans.length).toBeGreaterThan(0);
  });
});

describe('tokenize', () => {
  it('keeps initials with their full stop and possessives apart', () => {
    expect(tokenize("Hanne I. Kreutzmann's dog, O'Brien").map(token => token.text)).toEqual([
      'Hanne',
      'I.',
      'Kreutzmann',
      "'s",
      'dog',
      ',',
      "O'Brien",
    ]);
  });
});

describe('tokenBounds and the word table', () => {
  const gazetteers: Gazetteers = decodeNerModel(nerModel).gazetteers;

  it('gives the same bounds as tokenize, as offsets without strings', () => {
    const text = "Dr. Hanne I. Kreutzmann's dog,\nO'Brien — 12-B Rue  du\tLac";
    const bounds = tokenBounds(text);
    const tokens = tokenize(text);
    expect(bounds.count).toBe(tokens.length);
    for (let index = 0; index < tokens.length; index++) {
      expect([bounds.start[index], bounds.end[index], bounds.newline[index] === 1]).toEqual([
        tokens[index]!.start,
        tokens[index]!.end,
        tokens[index]!.newlineBefore,
      ]);
    }
    expect(tokens.map(token => token.text)).toEqual([
      'Dr',
      '.',
      'Hanne',
      'I.',
      'Kreutzmann',
      "'s",
      'dog',
      ',',
      "O'Brien",
      '—',
      '12-B',
      'Rue',
      'du',
      'Lac',
    ]);
    expect(tokens[8]!.newlineBefore).toBe(true);
  });

  it('gives one id per distinct word, the same after the table grows, and a new one after clear()', () => {
    const words = new WordTable(gazetteers);
    const text = Array.from({ length: 5_000 }, (_, index) => `w${index}`).join(' ');
    const first = scanText(text, gazetteers, words);
    expect(first.count).toBe(5_000);
    expect(words.size).toBe(5_000);
    expect(new Set(first.word).size).toBe(5_000);
    // Looked up again after the table rehashed several times: the same ids, no new words.
    const again = scanText(text, gazetteers, words);
    expect([...again.word]).toEqual([...first.word]);
    expect(words.size).toBe(5_000);
    // Case matters to the table (the features lower-case): "Rose" and "rose" are two words.
    const cased = scanText('Rose rose Rose', gazetteers, words);
    expect(cased.word[0]).toBe(cased.word[2]);
    expect(cased.word[0]).not.toBe(cased.word[1]);
    words.clear();
    expect(words.size).toBe(0);
    expect(scanText('w1', gazetteers, words).word[0]).toBe(0);
  });

  it('cuts a token longer than 40 characters to its first 40 for the word table', () => {
    const words = new WordTable(gazetteers);
    const long = 'x'.repeat(40);
    const scanned = scanText(`${long}a ${long}b`, gazetteers, words);
    expect(scanned.count).toBe(2);
    expect(scanned.word[0]).toBe(scanned.word[1]);
    expect(words.texts).toEqual([long]);
  });
});

describe('spansOfLabels', () => {
  const gazetteers: Gazetteers = decodeNerModel(nerModel).gazetteers;
  const B = 1 + 2 * nerEntities.indexOf('STREET_ADDRESS');
  /** Tags the last two tokens of `text` as one address (B, I) and returns the spans' text. */
  const addressOfLastTwo = (text: string) => {
    const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
    const labels = new Uint8Array(scanned.count);
    labels[scanned.count - 2] = B;
    labels[scanned.count - 1] = B + 1;
    return spansOfLabels(text, scanned, labels).map(span => text.slice(span.start, span.end));
  };

  it('starts an address at a house number the tagger left outside, on the same line', () => {
    expect(addressOfLastTwo('Ship it to 742 Evergreen Terrace')).toEqual(['742 Evergreen Terrace']);
    expect(addressOfLastTwo('Ship it to 221B Baker Street')).toEqual(['221B Baker Street']);
    expect(addressOfLastTwo('Ship it to 742\nEvergreen Terrace')).toEqual(['Evergreen Terrace']);
    expect(addressOfLastTwo('Order 123456 Evergreen Terrace')).toEqual(['Evergreen Terrace']);
    expect(addressOfLastTwo('Ship it to 742-1 Evergreen Terrace')).toEqual(['Evergreen Terrace']);
    expect(addressOfLastTwo('Ship it to Evergreen Terrace')).toEqual(['Evergreen Terrace']);
  });

  /** Labels the tokens at `indexes` as one entity of `type` (B then I) and returns the spans. */
  const spansOf = (text: string, type: (typeof names)[number], indexes: number[]) => {
    const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
    const labels = new Uint8Array(scanned.count);
    const first = 1 + 2 * nerEntities.indexOf(type);
    indexes.forEach((token, position) => {
      labels[token] = position === 0 ? first : first + 1;
    });
    return found(text, spansOfLabels(text, scanned, labels));
  };

  /** The spans the rules alone find in `text` (the tagger left every token outside). */
  const tag = (text: string) => {
    const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
    return found(text, spansOfLabels(text, scanned, new Uint8Array(scanned.count)));
  };

  it('drops a greeting a name starts with, and a lone weekday, language or greeting', () => {
    expect(spansOf('Hi Freddy, thanks', 'PERSON', [0, 1])).toEqual(['PERSON:Freddy']);
    expect(spansOf('Dear Ana Lopes,', 'PERSON', [0, 1, 2])).toEqual(['PERSON:Ana Lopes']);
    expect(spansOf('Hello there', 'PERSON', [0])).toEqual([]);
    expect(spansOf('on the last Sunday before', 'PERSON', [3])).toEqual([]);
    expect(spansOf('while studying English and', 'ORGANIZATION', [2])).toEqual([]);
    expect(spansOf('It serves great Danish food', 'LOCATION', [3])).toEqual([]);
    // Only a lone word: a name with such a word in it stays whole; a greeting is only cut from a PERSON.
    expect(spansOf('Ask Bill English today', 'PERSON', [1, 2])).toEqual(['PERSON:Bill English']);
    expect(spansOf('Hello Kitty Cafe opened', 'ORGANIZATION', [0, 1, 2])).toEqual([
      'ORGANIZATION:Hello Kitty Cafe',
    ]);
    expect(spansOf('Hi Freddy', 'PERSON', [1])).toEqual(['PERSON:Freddy']);
  });

  it('drops one word at a sentence start before an object: an imperative verb (round 39)', () => {
    expect(spansOf('Sue the landlord now.', 'PERSON', [0])).toEqual([]);
    expect(spansOf('Jack up the car first.', 'PERSON', [0])).toEqual([]);
    expect(spansOf('Bill me later.', 'PERSON', [0])).toEqual([]);
    // A subject before its verb, and the same word inside a sentence, stay names.
    expect(spansOf('Sue said no.', 'PERSON', [0])).toEqual(['PERSON:Sue']);
    expect(spansOf('We asked Sue the way.', 'PERSON', [2])).toEqual(['PERSON:Sue']);
    expect(spansOf('Sue Brandt the second.', 'PERSON', [0, 1])).toEqual(['PERSON:Sue Brandt']);
  });

  it('finds a firm the tagger left outside by its context (round 39)', () => {
    expect(tag('Kessler cut its prices again.')).toEqual(['ORGANIZATION:Kessler']);
    expect(tag('Shares of Kessler Brandt fell.')).toEqual(['ORGANIZATION:Kessler Brandt']);
    // A place, a common word, and a word after a capitalised one are none.
    expect(tag('France cut its interest rates.')).toEqual([]);
    expect(tag('The Company cut its forecast.')).toEqual([]);
    expect(tag('Kessler cut his prices again.')).toEqual([]);
  });

  it('keeps an honorific alone unless a name starts right after it (round 39)', () => {
    // `Don` (an honorific of the lists) alone is a name here: no PERSON starts after it.
    expect(spansOf('How many does Don buy?', 'PERSON', [3])).toEqual(['PERSON:Don']);
  });

  it('retypes a "name" ending in an organisation word or starting or ending with a street word', () => {
    expect(spansOf('I work at Miller Ltd now', 'PERSON', [3, 4])).toEqual([
      'ORGANIZATION:Miller Ltd',
    ]);
    expect(spansOf('She lives on Rua Mina today', 'PERSON', [3, 4])).toEqual([
      'STREET_ADDRESS:Rua Mina',
    ]);
    expect(spansOf('Meet at 12 John Street later', 'PERSON', [3, 4])).toEqual([
      'STREET_ADDRESS:12 John Street',
    ]);
    // An honorific or a two-letter abbreviation is no marker: Dr and St stay names.
    expect(spansOf('Ask Dr Alan Smith', 'PERSON', [1, 2, 3])).toEqual(['PERSON:Dr Alan Smith']);
    expect(spansOf('Ask St John today', 'PERSON', [1, 2])).toEqual(['PERSON:St John']);
  });

  it('retypes a "name" ending in an acronym as an organisation, never one ending in a post-nominal', () => {
    expect(spansOf('He told Fuse TV about it', 'PERSON', [2, 3])).toEqual(['ORGANIZATION:Fuse TV']);
    expect(spansOf('He told Zorvath QXR about it', 'PERSON', [2, 3])).toEqual([
      'ORGANIZATION:Zorvath QXR',
    ]);
    expect(spansOf('Ask John Smith JR today', 'PERSON', [1, 2, 3])).toEqual([
      'PERSON:John Smith JR',
    ]);
    expect(spansOf('Ask Henry VIII today', 'PERSON', [1, 2])).toEqual(['PERSON:Henry VIII']);
    expect(spansOf('Ask Anna Smith MD today', 'PERSON', [1, 2, 3])).toEqual([
      'PERSON:Anna Smith MD',
    ]);
    // Not one word alone, not a surname in capitals of the name lists, not five letters or more.
    expect(spansOf('He told TV about it', 'PERSON', [2])).toEqual(['PERSON:TV']);
    expect(spansOf('Ask Anna LEE today', 'PERSON', [1, 2])).toEqual(['PERSON:Anna LEE']);
    expect(spansOf('Ask Jean DUPONT today', 'PERSON', [1, 2])).toEqual(['PERSON:Jean DUPONT']);
  });

  it('names the author of a work named after them (the Tolkien novel), only between a determiner and a work noun', () => {
    expect(tag('Unlike the Zorvath novel, it is short.')).toEqual(['PERSON:Zorvath']);
    expect(tag('We watched a Zorvath Quillon film')).toEqual(['PERSON:Zorvath Quillon']);
    // Three words, a capitalised noun or determiner, a line break, another noun: no author;
    // nor places, organisation words and common words.
    const none = [
      'an Ursula Le Guin novel',
      'the Zorvath Novel',
      'the Zorvath\nnovel',
      'The Zorvath novel',
      'the Zorvath car',
      'the Paris novel',
      'the Acme Technologies film',
      'the Great novel',
    ];
    // Round 38: an organisation word makes an organisation of the name, never an author.
    expect(none.map(tag)).toEqual(
      none.map(text => (text.includes('Acme') ? ['ORGANIZATION:Acme Technologies'] : [])),
    );
  });

  it('retypes a one-word "name" made of two common words and in no name list as an organisation', () => {
    expect(spansOf('I used to work for Snapchat as a designer', 'PERSON', [5])).toEqual([
      'ORGANIZATION:Snapchat',
    ]);
    expect(spansOf('She joined Salesforce in May', 'PERSON', [2])).toEqual([
      'ORGANIZATION:Salesforce',
    ]);
    // Surnames made of two words are in the name lists; unlisted words that are no compound stay names.
    expect(spansOf('I used to design for Goodman as a freelancer', 'PERSON', [5])).toEqual([
      'PERSON:Goodman',
    ]);
    // Round 38: after `work for` a name is an employer (organisations.ts).
    expect(spansOf('I used to work for Goodman as a designer', 'PERSON', [5])).toEqual([
      'ORGANIZATION:Goodman',
    ]);
    expect(spansOf('She met Whitehead in May', 'PERSON', [2])).toEqual(['PERSON:Whitehead']);
    expect(spansOf('She met Zorvath in May', 'PERSON', [2])).toEqual(['PERSON:Zorvath']);
    // Only a one-word span, only a PERSON one, never a common word (`Newspaper`).
    expect(spansOf('She met Ana Snapchat in May', 'PERSON', [2, 3])).toEqual([
      'PERSON:Ana Snapchat',
    ]);
    expect(spansOf('She flew to Cloudkettle in May', 'LOCATION', [3])).toEqual([
      'LOCATION:Cloudkettle',
    ]);
    // Round 42: a brand of the list is no place either (brands.ts).
    expect(spansOf('She flew to Snapchat in May', 'LOCATION', [3])).toEqual([
      'ORGANIZATION:Snapchat',
    ]);
    expect(spansOf('Read the Newspaper today', 'PERSON', [2])).toEqual(['PERSON:Newspaper']);
  });

  it('makes a place of a country the tagger left outside or read alone as a person (round 42)', () => {
    // Tagger left every token outside: the rule alone.
    expect(tag('I will be travelling to Germany next week')).toEqual(['LOCATION:Germany']);
    expect(tag('glad that NORWAY is moving')).toEqual(['LOCATION:NORWAY']);
    expect(spansOf('We moved here from Tunisia', 'PERSON', [4])).toEqual(['LOCATION:Tunisia']);
    // A given name, part of a longer capitalised name, a label: no place (round 45: a given
    // name after a person cue is the person, `personReading` in places.ts).
    expect(tag('I will ask Jordan tomorrow')).toEqual(['PERSON:Jordan']);
    expect(tag('I will see Jordan tomorrow')).toEqual([]);
    expect(tag('she flew Air Canada twice')).toEqual([]);
    expect(tag('my friend Kenya Smith called')).toEqual(['PERSON:Kenya Smith']);
    expect(tag('Brazil: +55 11 98456 5666')).toEqual([]);
    // An organisation the tagger found stays one (a national team).
    expect(spansOf('Canada won the cup', 'ORGANIZATION', [0])).toEqual(['ORGANIZATION:Canada']);
    // The exact list: a word in no country's name is none, whatever the gazetteer's filter says.
    expect(tag('the Dratchev report')).toEqual([]);
  });

  it('labels a lower-case name-list word after a cue as a name, never a common word', () => {
    expect(tag('my name is lena andersson.')).toEqual(['PERSON:lena andersson']);
    expect(tag("the name's vitoria")).toEqual(['PERSON:vitoria']);
    expect(tag('i will call anders tomorrow')).toEqual(['PERSON:anders']);
    // Common words after a cue stay words; no cue, no name.
    expect(tag('please call will tomorrow, i am tired and this is fine')).toEqual([]);
    expect(tag('lena andersson was here')).toEqual([]);
    // The cue and the name on different lines: no name.
    expect(tag('my name is\nlena')).toEqual([]);
    // A long word whose first 40 characters hit the name filter (a Bloom false positive, found by
    // search) is never made a name: the span would break PERSON's length bound.
    const long = `zq1z${'x'.repeat(36)}${'tail'.repeat(50)}`;
    expect(tag(`my name is ${long}`)).toEqual([]);
    expect(tag(`Z${long.slice(1)}: hi`)).toEqual([]);
    expect(tag(`my name is ${long.slice(0, 30)}`)).toEqual([]);
    // One token longer than a type's bound is no entity (the tagger tagged 'AAA…' a 300-character LOCATION).
    for (const span of findNamedEntities(
      `my name is ${long}\nZ${long.slice(1)}: hi\nShip to ${'A'.repeat(300)} Street`,
    ))
      expect(span.end - span.start).toBeLessThanOrEqual(nerMaxLength[span.type]);
  });

  it("labels a lower-case name after a chat cue: a greeting, thanks, `it's X here`, `me and`, `and` after a name", () => {
    const cases: Array<[string, string[]]> = [
      ['hey marta, are you around', ['PERSON:marta']],
      ['thanks anders!', ['PERSON:anders']],
      // A word in no name list (`zelvorq`: none of the filters holds it): only after a strong
      // cue, and when it ends the phrase.
      ['hi zelvorq!', ['PERSON:zelvorq']],
      ["it's zelvorq here", ['PERSON:zelvorq']],
      ['its zelvorq here, can u call', ['PERSON:zelvorq']],
      ['my name is zelvorq.', ['PERSON:zelvorq']],
      ['so hi zelvorq!', []],
      ['hi zelvorq is late', []],
      ['ask zelvorq', []],
      // On a chat line (no capital letter) only: `me and` before a first name, `and` after a name.
      ['me and lena are late', ['PERSON:lena']],
      ['i met lena and anders today', ['PERSON:lena', 'PERSON:anders']],
      ['Me and lena are late', []],
      // Chat words of the name lists, titles, common words and things after `with` stay words.
      ["i'm ok now", []],
      ['hi there!', []],
      ['thanks again!', []],
      ['hey guys, thanks all', []],
      ['we are done with flask and tab', []],
      ['she handled it with grace', []],
      ['grace period ends today', []],
      ['will do, may be late', []],
      ['a character named lord byron', []],
    ];
    expect(cases.map(([text]) => tag(text))).toEqual(cases.map(([, expected]) => expected));
  });

  it('labels a lower-case name after `yo`, `sorry` or a chat line opener before what a person does (round 39)', () => {
    // Before: nothing in each.
    expect(
      [
        'yo marta where r u',
        'sorry anders, i forgot',
        'is carter coming',
        'ugh bailey took my seat',
        'ok so carter and bailey are driving',
      ].map(tag),
    ).toEqual([
      ['PERSON:marta'],
      ['PERSON:anders'],
      ['PERSON:carter'],
      ['PERSON:bailey'],
      ['PERSON:carter', 'PERSON:bailey'],
    ]);
    // Chat words, tools of the name lists before other verbs, a capital on the line and terms of
    // address (before: PERSON:grandma, PERSON:mum) stay words.
    const words = 'sorry guys, running late|did docker start|was flask updated|Is carter coming';
    expect(
      [...words.split('|'), 'bye grandma, love you', 'hey mum, home soon'].flatMap(tag),
    ).toEqual([]);
  });

  it('labels a lower-case name after `birthday` and a first name before `and i` opening a chat line (round 40)', () => {
    // Before: nothing in each.
    expect(
      ['happy birthday ottilie!!', 'lars and i are going skiing', 'nadia and me left'].map(tag),
    ).toEqual([['PERSON:ottilie'], ['PERSON:lars'], ['PERSON:nadia']]);
    // Common words, words of no list, a capital on the line and a word after `and i` stay words.
    const words =
      'happy birthday party|will and i went|zelvorq and i went|Lars and i went|me and i';
    expect(words.split('|').flatMap(tag)).toEqual([]);
  });

  it('makes one address of the comma-separated address parts around a tagged address on its line', () => {
    /** Labels each `[type, value]` (the tokens inside the value's first occurrence) and returns the spans. */
    const labelled = (text: string, values: Array<[(typeof names)[number], string]>) => {
      const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
      const labels = new Uint8Array(scanned.count);
      for (const [type, value] of values) {
        const start = text.indexOf(value);
        let first = true;
        for (let index = 0; index < scanned.count; index++) {
          if (scanned.start[index]! < start || scanned.end[index]! > start + value.length) continue;
          labels[index] = 1 + 2 * nerEntities.indexOf(type) + (first ? 0 : 1);
          first = false;
        }
      }
      return found(text, spansOfLabels(text, scanned, labels));
    };
    // A street read as a person and the address's last part tagged: one address, from the part
    // with the house number.
    expect(
      labelled('Ship to Av. Norte 12, Col. Roma, 06700 Ciudad Real.', [
        ['PERSON', 'Norte'],
        ['STREET_ADDRESS', '06700 Ciudad Real'],
      ]),
    ).toEqual(['STREET_ADDRESS:Av. Norte 12, Col. Roma, 06700 Ciudad Real']);
    // A name before the address (no digit, no street word) stays a name; the city joins.
    expect(
      labelled('Recipient: Ana Lopes, 4 Rua Nova, Porto', [
        ['PERSON', 'Ana Lopes'],
        ['STREET_ADDRESS', '4 Rua Nova'],
        ['LOCATION', 'Porto'],
      ]),
    ).toEqual(['PERSON:Ana Lopes', 'STREET_ADDRESS:4 Rua Nova, Porto']);
    // The sentence goes on after the address: `, and …` and `until …` are not part of it.
    expect(
      labelled('We met at 10 Elm Road, London, and then left.', [
        ['STREET_ADDRESS', '10 Elm Road'],
        ['LOCATION', 'London'],
      ]),
    ).toEqual(['STREET_ADDRESS:10 Elm Road, London']);
    expect(
      labelled('I live at 12 Cuba Road, Wellington 6011 until May.', [
        ['STREET_ADDRESS', '12 Cuba Road'],
      ]),
    ).toEqual(['STREET_ADDRESS:12 Cuba Road, Wellington 6011']);
    // Another line, or no tagged address: as tagged.
    expect(
      labelled('10 Elm Road,\nLondon', [
        ['STREET_ADDRESS', '10 Elm Road'],
        ['LOCATION', 'London'],
      ]),
    ).toEqual(['STREET_ADDRESS:10 Elm Road', 'LOCATION:London']);
    expect(
      labelled('Paris, London, 2024', [
        ['LOCATION', 'Paris'],
        ['LOCATION', 'London'],
      ]),
    ).toEqual(['LOCATION:Paris', 'LOCATION:London']);
    // A number of one or two digits after `at`, `by`… with no address word after it is a time.
    expect(labelled('see you at 8', [['STREET_ADDRESS', '8']])).toEqual([]);
    expect(labelled('see you at 8.', [['STREET_ADDRESS', '8']])).toEqual([]);
    expect(labelled('she lives at 25 Elm Road', [['STREET_ADDRESS', '25']])).toEqual([
      'STREET_ADDRESS:25 Elm Road',
    ]);
    expect(labelled('see you at 815', [['STREET_ADDRESS', '815']])).toEqual(['STREET_ADDRESS:815']);
    // Never longer than an address's bound, however many capitalised parts the line has.
    const line = `${'Aa, '.repeat(5_000)}12 Elm Road, ${'Bb, '.repeat(5_000)}end`;
    const spans = labelled(line, [['STREET_ADDRESS', '12 Elm Road']]);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.length - 'STREET_ADDRESS:'.length).toBeLessThanOrEqual(
      nerMaxLength.STREET_ADDRESS,
    );
    expect(spans[0]).toContain('12 Elm Road');
  });

  it('gives a multi-word gazetteer place split into two types the type of its last token', () => {
    const text = 'We fly to Cape Town next week';
    const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
    const at = (type: (typeof names)[number]) => 1 + 2 * nerEntities.indexOf(type);
    const labels = new Uint8Array(scanned.count);
    labels[3] = at('STREET_ADDRESS');
    labels[4] = at('LOCATION');
    expect(found(text, spansOfLabels(text, scanned, labels))).toEqual(['LOCATION:Cape Town']);
    expect([...labels.slice(3, 5)]).toEqual([at('STREET_ADDRESS'), at('LOCATION')]);
    // Only a place the tagger covered whole: `Town` alone stays as tagged.
    labels[3] = 0;
    expect(found(text, spansOfLabels(text, scanned, labels))).toEqual(['LOCATION:Town']);
    // Two words that are no gazetteer place keep their two types.
    const other = 'We met Frank Zappa today';
    const otherScanned = scanText(other, gazetteers, new WordTable(gazetteers));
    const otherLabels = new Uint8Array(otherScanned.count);
    otherLabels[2] = at('PERSON');
    otherLabels[3] = at('ORGANIZATION');
    expect(found(other, spansOfLabels(other, otherScanned, otherLabels))).toEqual([
      'PERSON:Frank',
      'ORGANIZATION:Zappa',
    ]);
  });

  it('joins a postcode and city address to the street address right before it on the same line', () => {
    /** Tags the tokens of `first` and of `second` as two addresses. */
    const twoAddresses = (text: string, first: number[], second: number[]) => {
      const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
      const labels = new Uint8Array(scanned.count);
      for (const indexes of [first, second])
        indexes.forEach((token, position) => {
          labels[token] = position === 0 ? B : B + 1;
        });
      return found(text, spansOfLabels(text, scanned, labels));
    };
    // `The shop is at 15 rue de la Paix , 75002 Paris .`: tokens 4-8 and 10-11.
    const paris = 'The shop is at 15 rue de la Paix, 75002 Paris.';
    expect(twoAddresses(paris, [4, 5, 6, 7, 8], [10, 11])).toEqual([
      'STREET_ADDRESS:15 rue de la Paix, 75002 Paris',
    ]);
    expect(twoAddresses('At Hauptstraße 5 10115 Berlin Mitte', [1, 2], [3, 4, 5])).toEqual([
      'STREET_ADDRESS:Hauptstraße 5 10115 Berlin Mitte',
    ]);
    // A line break, a word between, or a second part that is more than a postcode and a city: two spans.
    expect(twoAddresses('15 rue de la Paix,\n75002 Paris', [0, 1, 2, 3, 4], [6, 7])).toEqual([
      'STREET_ADDRESS:15 rue de la Paix',
      'STREET_ADDRESS:75002 Paris',
    ]);
    expect(twoAddresses('15 rue de la Paix or 75002 Paris', [0, 1, 2, 3, 4], [6, 7])).toEqual([
      'STREET_ADDRESS:15 rue de la Paix',
      'STREET_ADDRESS:75002 Paris',
    ]);
    expect(twoAddresses('Elm Road, 75002 Paris Street', [0, 1], [3, 4, 5])).toHaveLength(1);
    // Round 37: parts of addresses joined by a comma on one line are one address (addressRuns,
    // tested below), whatever this join does.
    expect(twoAddresses('Elm Road, 75002 paris', [0, 1], [3, 4])).toEqual([
      'STREET_ADDRESS:Elm Road, 75002 paris',
    ]);
    expect(twoAddresses('Elm Road, 123 Oak Lane', [0, 1], [3, 4, 5])).toEqual([
      'STREET_ADDRESS:Elm Road, 123 Oak Lane',
    ]);
    // Never past the address bound.
    const long = `${'Long '.repeat(30)}Road, 75002 Paris`; // 154 + 2 + 11 characters
    const tokens = long.split(' ').length;
    expect(
      twoAddresses(
        long,
        Array.from({ length: tokens - 2 }, (_, index) => index),
        [tokens - 1, tokens],
      ),
    ).toHaveLength(2);
  });

  it('gives the items of a list one kind: organisations with an organisation word, else people', () => {
    /** Tags each `[type, tokens]` as one entity (B then I) and returns the spans. */
    const tagged = (text: string, entities: Array<[(typeof names)[number], number[]]>) => {
      const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
      const labels = new Uint8Array(scanned.count);
      for (const [type, indexes] of entities)
        indexes.forEach((token, position) => {
          labels[token] = 1 + 2 * nerEntities.indexOf(type) + (position === 0 ? 0 : 1);
        });
      return found(text, spansOfLabels(text, scanned, labels));
    };
    // `White , Becker and Hoffman , Lucid and Loveland Technologies .`
    const firms = 'White, Becker and Hoffman, Lucid and Loveland Technologies.';
    expect(
      tagged(firms, [
        ['PERSON', [0]],
        ['PERSON', [2]],
        ['PERSON', [4]],
        ['ORGANIZATION', [6]],
        ['ORGANIZATION', [8, 9]],
      ]),
    ).toEqual([
      'ORGANIZATION:White',
      'ORGANIZATION:Becker',
      'ORGANIZATION:Hoffman',
      'ORGANIZATION:Lucid',
      'ORGANIZATION:Loveland Technologies',
    ]);
    // The organisation word may be in an item of another type.
    expect(
      tagged('Hoffman, Vasquez and Abt Associates', [
        ['PERSON', [0]],
        ['PERSON', [2]],
        ['STREET_ADDRESS', [4, 5]],
      ]),
    ).toEqual(['ORGANIZATION:Hoffman', 'ORGANIZATION:Vasquez', 'STREET_ADDRESS:Abt Associates']);
    // A person named by a first name stays a person; a line break or a word ends the list.
    expect(
      tagged('Michael and Loveland Technologies', [
        ['PERSON', [0]],
        ['ORGANIZATION', [2, 3]],
      ]),
    ).toEqual(['PERSON:Michael', 'ORGANIZATION:Loveland Technologies']);
    expect(
      tagged('Hoffman,\nLoveland Technologies', [
        ['PERSON', [0]],
        ['ORGANIZATION', [2, 3]],
      ]),
    ).toEqual(['PERSON:Hoffman', 'ORGANIZATION:Loveland Technologies']);
    expect(
      tagged('Hoffman met Loveland Technologies', [
        ['PERSON', [0]],
        ['ORGANIZATION', [2, 3]],
      ]),
    ).toEqual(['PERSON:Hoffman', 'ORGANIZATION:Loveland Technologies']);
    // `our founders : Becker , Hoffman and Vasquez .`: three names, no organisation word.
    const founders = 'our founders: Becker, Hoffman and Vasquez.';
    expect(
      tagged(founders, [
        ['ORGANIZATION', [3]],
        ['ORGANIZATION', [5, 6, 7]],
      ]),
    ).toEqual(['PERSON:Becker', 'PERSON:Hoffman', 'PERSON:Vasquez']);
    expect(tagged(founders, [['ORGANIZATION', [3, 4, 5, 6, 7]]])).toEqual([
      'PERSON:Becker',
      'PERSON:Hoffman',
      'PERSON:Vasquez',
    ]);
    // Two names are as often a firm (`Marks and Spencer`); a word that is no name keeps them too.
    expect(tagged('at Becker and Vasquez', [['ORGANIZATION', [1, 2, 3]]])).toEqual([
      'ORGANIZATION:Becker and Vasquez',
    ]);
    expect(
      tagged('Becker, Hoffman and Civic Insight', [['ORGANIZATION', [0, 1, 2, 3, 4, 5]]]),
    ).toEqual(['ORGANIZATION:Becker, Hoffman and Civic Insight']);
  });

  it('starts a name at a capitalised word after an honorific or a verb of speech', () => {
    const cued = (value: string, tagged: number[] = []) => {
      const tokens = scanText(value, gazetteers, new WordTable(gazetteers));
      const labels = new Uint8Array(tokens.count);
      for (const token of tagged) labels[token] = 1 + 2 * nerEntities.indexOf('PERSON');
      return found(value, spansOfLabels(value, tokens, labels));
    };
    expect(cued('For my take on Mrs. Baker, see the list.')).toEqual(['PERSON:Baker']);
    expect(cued('Ask Dr Anna Maria Holst Berg today')).toEqual(['PERSON:Anna Maria Holst']);
    expect(cued('glad to hear it," says Bergqvist.')).toEqual(['PERSON:Bergqvist']);
    expect(cued('so jealous! said Felix to her')).toEqual(['PERSON:Felix']);
    // A name the tagger started right after the first word joins it (`Mr. Gordon` + `Trpinc`, which the common words' filter holds by a false hit).
    expect(cued('correct it to Mr. Gordon Trpinc?', [6])).toEqual(['PERSON:Gordon Trpinc']);
    // After a verb of speech a common word is no name; a line break or a capital verb is no cue.
    expect(cued('the man said Later we go')).toEqual([]);
    expect(cued('Mrs.\nBaker')).toEqual([]);
    expect(cued('Said Felix to her')).toEqual([]);
    // After an introduction: `name is` any uncommon word, `I'm` / `this is` a first name (one that
    // is a common word only before a surname).
    expect([cued('Her maiden name is Zorvath'), cued('Name: Zorvath Quillon')]).toEqual([
      ['PERSON:Zorvath'],
      ['PERSON:Zorvath Quillon'],
    ]);
    expect([cued("Hi, I'm Will Turner and I need it"), cued('this is Anna speaking')]).toEqual([
      ['PERSON:Will Turner'],
      ['PERSON:Anna'],
    ]);
    const notIntroduced = ["I'm Happy today", "I'm American now", "I'm Zorvath", 'this is Zorvath'];
    const notNamed = ['my name is Great', 'name\nis Zorvath'];
    expect([...notIntroduced, ...notNamed].map(value => cued(value))).toEqual(
      [...notIntroduced, ...notNamed].map(() => []),
    );
  });

  it('names the people in apposition to a noun of their role, whatever the tagger said', () => {
    // A singular noun names one person, a plural one each item of a list; after a colon the items
    // may be common words (`Reed`, `Graves`).
    const texts = [
      'The songwriter Zorvath Quillon wrote it.',
      'Producer Anna Holst explained it',
      'the painter Willemine ten Pas',
    ];
    expect(texts.map(tag)).toEqual([
      ['PERSON:Zorvath Quillon'],
      ['PERSON:Anna Holst'],
      ['PERSON:Willemine ten Pas'],
    ]);
    expect([tag('ask my friend Zorvath.'), tag('the songwriter Zorvath and Quillon')]).toEqual([
      ['PERSON:Zorvath'],
      ['PERSON:Zorvath'],
    ]);
    expect(tag('our founders: Zorvath, Reed and Graves. The idea')).toEqual([
      'PERSON:Zorvath',
      'PERSON:Reed',
      'PERSON:Graves',
    ]);
    // The tagger's organisation over the list, its PERSON over the role noun, give way.
    expect(
      spansOf('our 3 founders: Zorvath, Becker and Quillon.', 'ORGANIZATION', [6, 7, 8]),
    ).toEqual(['PERSON:Zorvath', 'PERSON:Becker', 'PERSON:Quillon']);
    expect(spansOf('Producer Anna Holst explained', 'PERSON', [0, 1, 2])).toEqual([
      'PERSON:Anna Holst',
    ]);
    // No name: a capitalised role noun after an article (a title), a common word outside a list,
    // a longer capitalised run, a line break, a role noun inside another type's span.
    const none = [
      'The Princess Royal arrived',
      'the Student Union met',
      '5 Musicians Of The 70s',
      'the teacher Great',
      'Queen Mary University',
      'the songwriter\nZorvath',
      'the doctors Great and Graves',
    ];
    // Round 38: `University` makes an organisation of `Queen Mary University` whatever the tagger said.
    expect(none.map(tag)).toEqual(
      none.map(text => (text.startsWith('Queen') ? ['ORGANIZATION:Queen Mary University'] : [])),
    );
    expect(spansOf('Queen Mary University', 'ORGANIZATION', [0, 1, 2])).toEqual([
      'ORGANIZATION:Queen Mary University',
    ]);
  });

  it('takes a first name right before a name into it, when left outside or tagged alone as another type', () => {
    /** The spans of `text` with the tokens labelled as `labels` says: `[token, type, 'B' | 'I']`. */
    const withLabels = (
      text: string,
      labels: Array<[number, (typeof names)[number], 'B' | 'I']>,
    ) => {
      const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
      const tagged = new Uint8Array(scanned.count);
      for (const [token, type, part] of labels)
        tagged[token] = (part === 'B' ? 1 : 2) + 2 * nerEntities.indexOf(type);
      return found(text, spansOfLabels(text, scanned, tagged));
    };
    expect(spansOf('Georgia Zorvath emailed us', 'PERSON', [1])).toEqual([
      'PERSON:Georgia Zorvath',
    ]);
    expect(
      withLabels('Georgia Zorvath emailed us', [
        [0, 'LOCATION', 'B'],
        [1, 'PERSON', 'B'],
      ]),
    ).toEqual(['PERSON:Georgia Zorvath']);
    // No first name, a sign or a line break between, a place of two words: the name stays as tagged.
    const apart = ['Tbilisi Zorvath emailed us', 'Georgia, Zorvath emailed us', 'Georgia\nZorvath'];
    expect(apart.map(value => spansOf(value, 'PERSON', [value.includes(',') ? 2 : 1]))).toEqual(
      apart.map(() => ['PERSON:Zorvath']),
    );
    expect(
      withLabels('New Georgia Zorvath', [
        [0, 'LOCATION', 'B'],
        [1, 'LOCATION', 'I'],
        [2, 'PERSON', 'B'],
      ]),
    ).toEqual(['LOCATION:New Georgia', 'PERSON:Zorvath']);
  });

  it('makes a person of a place or address shaped like a name', () => {
    expect(spansOf('Soib K. Kishiev', 'LOCATION', [0, 1, 2])).toEqual(['PERSON:Soib K. Kishiev']);
    expect(spansOf('Mijail C Adomo', 'STREET_ADDRESS', [0, 1, 2])).toEqual([
      'PERSON:Mijail C Adomo',
    ]);
    // After an honorific the name is what follows it (`Miss` and its full stop are left out).
    expect(spansOf('ask Miss Ramos', 'STREET_ADDRESS', [1, 2])).toEqual(['PERSON:Ramos']);
    expect(spansOf('ask Mrs. Ana Ramos', 'LOCATION', [1, 2, 3, 4])).toEqual(['PERSON:Ana Ramos']);
    // A digit, a street word, a lower-case word or no initial: as tagged.
    expect(spansOf('Soib K. 12', 'STREET_ADDRESS', [0, 1, 2])).toEqual([
      'STREET_ADDRESS:Soib K. 12',
    ]);
    expect(spansOf('Soib K. Street', 'STREET_ADDRESS', [0, 1, 2])).toEqual([
      'STREET_ADDRESS:Soib K. Street',
    ]);
    expect(spansOf('Mrs. de Ramos', 'LOCATION', [0, 1, 2, 3])).toEqual(['LOCATION:Mrs. de Ramos']);
    expect(spansOf('Soib Kishiev', 'LOCATION', [0, 1])).toEqual(['LOCATION:Soib Kishiev']);
  });

  it('labels a first name before a colon at a line start as a speaker', () => {
    const text = 'Nicole: Remember me?\nJohn: You saved my life!\nNote: call back\nAnna:';
    const scanned = scanText(text, gazetteers, new WordTable(gazetteers));
    const none = new Uint8Array(scanned.count);
    // Nicole and John speak; Note is no first name; Anna has nothing after the colon.
    expect(found(text, spansOfLabels(text, scanned, none))).toEqual([
      'PERSON:Nicole',
      'PERSON:John',
    ]);
    expect(none.every(label => label === 0)).toBe(true);
    // In a transcript (two speakers of the name lists), an unlisted capitalised word in that
    // position is a speaker too; not a common word, and not with one listed speaker only.
    const speakers = (value: string) => {
      const tokens = scanText(value, gazetteers, new WordTable(gazetteers));
      return found(value, spansOfLabels(value, tokens, new Uint8Array(tokens.count)));
    };
    expect(
      speakers('Zorvath: What a wife.\nNicole: Remember me?\nJohn: Yes!\nNote: later'),
    ).toEqual(['PERSON:Zorvath', 'PERSON:Nicole', 'PERSON:John']);
    expect(speakers('Zorvath: What a wife.\nNicole: Remember me?')).toEqual(['PERSON:Nicole']);
    // Outside a transcript an unlisted word before a colon is a label even when tagged a name.
    const taggedFirst = (value: string) => {
      const tokens = scanText(value, gazetteers, new WordTable(gazetteers));
      const labels = new Uint8Array(tokens.count);
      labels[0] = 1 + 2 * nerEntities.indexOf('PERSON');
      return found(value, spansOfLabels(value, tokens, labels));
    };
    expect(taggedFirst('Zorvath: 00:00:00:00:00:00')).toEqual([]);
    expect(taggedFirst('Nicole: 00:00:00:00:00:00')).toEqual(['PERSON:Nicole']);
    expect(taggedFirst('Zorvath: What a wife.\nNicole: Remember me?\nJohn: Yes!')).toEqual([
      'PERSON:Zorvath',
      'PERSON:Nicole',
      'PERSON:John',
    ]);
    expect(taggedFirst('Zorvath Smith: hello')).toEqual(['PERSON:Zorvath']);
    // Not at a line start: no speaker.
    const mid = 'The plan, John: go.';
    const midScanned = scanText(mid, gazetteers, new WordTable(gazetteers));
    expect(found(mid, spansOfLabels(mid, midScanned, new Uint8Array(midScanned.count)))).toEqual(
      [],
    );
  });
});

describe('word clusters', () => {
  it("finds a word's cluster by its hash, and 0 for a word not in the table", () => {
    const words = ['london', 'paris', 'said', 'smith'];
    const entries = words
      .map((word, index) => [hashString(word), index + 1] as const)
      .sort((a, b) => a[0] - b[0]);
    const clusters = new WordClusters(
      Uint32Array.from(entries, ([hash]) => hash),
      Uint8Array.from(entries, ([, id]) => id),
    );
    expect(words.map(word => clusters.clusterOf(hashString(word)))).toEqual([1, 2, 3, 4]);
    expect(clusters.clusterOf(hashString('zanzibar'))).toBe(0);
    expect(new WordClusters(new Uint32Array(0), new Uint8Array(0)).clusterOf(1)).toBe(0);
  });

  it('ships with the model and gives the same cluster to every case of a word', () => {
    const gazetteers = decodeNerModel(nerModel).gazetteers;
    expect(gazetteers.clusters?.ids.length).toBe(16_000);
    const scanned = scanText('London london LONDON qzxv', gazetteers, new WordTable(gazetteers));
    const cluster = (index: number) => scanned.words.cluster[scanned.word[index]!];
    expect(cluster(0)).toBeGreaterThan(0);
    expect([cluster(1), cluster(2)]).toEqual([cluster(0), cluster(0)]);
    expect(cluster(3)).toBe(0);
  });

  it('rejects a model whose cluster hashes and ids differ in length', () => {
    const clusters = { hashes: Buffer.from(new Uint8Array(8)).toString('base64'), ids: 'AQ==' };
    expect(() => decodeNerModel({ ...nerModel, clusters })).toThrow(
      'ner model: cluster hashes and ids differ in length',
    );
  });
});

describe('decodeBytes', () => {
  it('decodes base64 as Buffer does, padded or not, and rejects anything else', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => (index * 37) & 255);
    for (const length of [0, 1, 2, 3, 4, 5, 255, 256]) {
      const encoded = Buffer.from(bytes.subarray(0, length)).toString('base64');
      expect([...decodeBytes(encoded)]).toEqual([...bytes.subarray(0, length)]);
    }
    expect(() => decodeBytes('QUJ')).toThrow('not a multiple of 4');
    expect(() => decodeBytes('QU-D')).toThrow('not base64 at 2');
    expect(() => decodeBytes('QUJé')).toThrow('not base64 at 3');
  });
});

describe('cutAroundPatterns', () => {
  it('cuts a tagged span around the pattern matches inside it and keeps the pieces with a word', () => {
    const text = 'Ship it to 742 Evergreen Terrace, +1 415 555 0132, Springfield.';
    const address = { type: 'STREET_ADDRESS' as const, start: 11, end: 62 };
    const phone = { start: text.indexOf('+1'), end: text.indexOf('+1') + 15 };
    expect(
      cutAroundPatterns(text, [address], [phone]).map(span => text.slice(span.start, span.end)),
    ).toEqual(['742 Evergreen Terrace', 'Springfield']);
    expect(cutAroundPatterns(text, [address], [])).toEqual([{ ...address, priority: 0 }]);
    // A pattern match covering the whole span leaves nothing.
    expect(cutAroundPatterns(text, [address], [{ start: 0, end: text.length }])).toEqual([]);
  });
});

describe('findPii with the tagger types', () => {
  it('lists them in allPiiEntities, not in the defaults', () => {
    for (const type of names) {
      expect(allPiiEntities).toContain(type);
      expect(defaultPiiEntities).not.toContain(type);
    }
    expect(findPii('Please forward this to Grace Okafor in accounting.')).toEqual([]);
  });

  it("finds them with entities: 'all' and by name", () => {
    const text = 'Please forward this to Grace Okafor in accounting.';
    expect(found(text, findPii(text, { entities: 'all' }))).toEqual(['PERSON:Grace Okafor']);
    expect(found(text, findPii(text, { entities: ['PERSON'] }))).toEqual(['PERSON:Grace Okafor']);
    expect(findPii(text, { entities: ['LOCATION'] })).toEqual([]);
  });

  it('lets a pattern match win over a tagged span covering it', () => {
    const text = 'Ship it to 742 Evergreen Terrace, Springfield, IL 62704 or call +1 415 555 0132.';
    expect(found(text, findPii(text, { entities: ['STREET_ADDRESS', 'PHONE_NUMBER'] }))).toEqual([
      'STREET_ADDRESS:742 Evergreen Terrace, Springfield, IL 62704',
      'PHONE_NUMBER:+1 415 555 0132',
    ]);
  });

  it('reports offsets into the original text when invisible characters sit inside a name', () => {
    const text = 'Please forward this to Gr\u200Bace Okafor in accounting.';
    expect(found(text, findPii(text, { entities: ['PERSON'] }))).toEqual([
      'PERSON:Gr\u200Bace Okafor',
    ]);
  });

  it('bounds the stream window by the longest tagged type', () => {
    expect(piiMaxMatchLength({ entities: ['PERSON'] })).toBe(2 * nerMaxLength.PERSON);
    expect(piiMaxMatchLength({ entities: 'all' })).toBeGreaterThanOrEqual(
      2 * nerMaxLength.STREET_ADDRESS,
    );
  });
});

describe('placeholders a redaction wrote', () => {
  const tagged = (text: string) =>
    findNamedEntities(text).map(span => `${span.type}:${text.slice(span.start, span.end)}`);

  it('are no name and no context that makes the word beside them one', () => {
    // Each of these read as a name: the placeholder's capitals and brackets beside a
    // capitalised word look like a name's first word, or a line's start.
    expect(tagged('Unspecified [IP_ADDRESS]')).toEqual([]);
    expect(tagged('Office: [PHONE_NUMBER]-Fax')).toEqual([]);
    expect(tagged('[PERSON]')).toEqual([]);
  });

  // Round 41: a name placeholder the text may have written itself; the word after it is read
  // as without it too (`Doe` alone is a name), so it is found. Round 40 read these as none.
  it('of a tagged type hide no name right after them', () => {
    expect(tagged('[PERSON] Doe')).toEqual(['PERSON:Doe']);
    expect(tagged('Hi [PERSON] Smith, thanks')).toEqual(['PERSON:Smith']);
    expect(tagged('<PERSON_1> Doe')).toEqual(['PERSON:Doe']);
  });

  it('leave a name that is not beside one found', () => {
    expect(tagged('Call [PHONE_NUMBER] and ask for Grace Okafor.')).toEqual([
      'PERSON:Grace Okafor',
    ]);
    expect(tagged('[EMAIL_ADDRESS]\nGrace Okafor, 742 Evergreen Terrace')).toEqual(
      tagged('grace@example.com\nGrace Okafor, 742 Evergreen Terrace'),
    );
  });

  it('in a format of the caller: the placeholders given are masked as the default ones are', () => {
    const placeholders = placeholderPattern(['{{PHONE_NUMBER}}', '{{PERSON}}']);
    const text = 'Office: {{PHONE_NUMBER}}-Fax, {{PERSON}} Doe';
    expect(findNamedEntities(text, nerEntities, placeholders)).toEqual([]);
  });
});

describe('pii({ entities: "all" }) redaction is idempotent', () => {
  const context = () => guardContext('output');
  // The first check with a tagged type loads the tagger's model: it settles asynchronously.
  const redact = async (guardrail: ReturnType<typeof pii>, text: string) => {
    const verdict = (await guardrail.check(text, context())) as {
      action: string;
      content?: string;
    };
    return verdict.action === 'modify' ? verdict.content! : text;
  };

  it('redacting its own output again changes nothing, in the default and in a custom format', async () => {
    const texts = [
      'Office: 555-867-5309-Fax',
      'Contact: 212-555-0147-Fax or mail',
      'Fax (415) 555-0132-Fax',
      'Jane Doe\n\n221B Baker Street\nLondon\n(212) 555-0147-Office\\,+1 212 555 0199-Fax',
      'Unspecified 192.168.1.20',
    ];
    for (const placeholder of [undefined, (type: string) => `{{${type}}}`]) {
      const guardrail = pii({ entities: 'all', ...(placeholder && { placeholder }) });
      for (const text of texts) {
        const once = await redact(guardrail, text);
        expect(
          await redact(guardrail, once),
          `${text} (${placeholder ? 'custom' : 'default'})`,
        ).toBe(once);
      }
    }
    expect(await redact(pii({ entities: 'all' }), 'Office: 555-867-5309-Fax')).toBe(
      'Office: [PHONE_NUMBER]-Fax',
    );
  });
});

describe('pii() with PERSON through the AI SDK', () => {
  const userText = 'Please forward this to Grace Okafor in accounting.';

  it('generateText: redacts the name before the model sees it', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Done.') });
    const guarded = wrapLanguageModel({
      model,
      middleware: guardrails({ input: [pii({ entities: ['PERSON'] })] }),
    });
    const result = await generateText({ model: guarded, prompt: userText });
    expect(promptText(model.doGenerateCalls[0]!.prompt)).toBe(
      'Please forward this to [PERSON] in accounting.',
    );
    expect(result.text).toBe('Done.');
  });

  it('streamText (window): redacts a name split across deltas', async () => {
    const deltas = ['I forwarded it to Gr', 'ace Oka', 'for in accounting', '. Anything else?'];
    const model = new MockLanguageModelV4({ doStream: async () => streamOf(textParts(deltas)) });
    const guarded = wrapLanguageModel({
      model,
      middleware: guardrails({
        output: [pii({ entities: ['PERSON'] })],
        stream: { mode: 'window' },
      }),
    });
    const result = streamText({ model: guarded, prompt: 'Who did you forward it to?' });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);
    expect(chunks.join('')).toBe('I forwarded it to [PERSON] in accounting. Anything else?');
    for (const chunk of chunks) expect(chunk).not.toMatch(/Gr|Oka/);
  });

  it('pseudonymize: the model sees <PERSON_1>, the user gets the name back', async () => {
    const p = pii({ action: 'pseudonymize', entities: ['PERSON'] });
    const model = new MockLanguageModelV4({
      doGenerate: async () => generateResult('I will forward it to <PERSON_1> today.'),
    });
    const guarded = wrapLanguageModel({
      model,
      middleware: guardrails({ input: [p], output: [p] }),
    });
    const result = await generateText({ model: guarded, prompt: userText });
    expect(promptText(model.doGenerateCalls[0]!.prompt)).toBe(
      'Please forward this to <PERSON_1> in accounting.',
    );
    expect(result.text).toBe('I will forward it to Grace Okafor today.');
  });
});
