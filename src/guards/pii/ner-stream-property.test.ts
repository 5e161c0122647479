import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedText, streamedTextDeltas } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { defaultPiiEntities } from './find-pii';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 40 (issues 16/17): a property test of the name tagger's types in a
 * stream. A tagged name's verdict may hang on words after it ("Siemens
 * announced", "plays for Arsenal", "… sold the flat; its roof"), so window
 * mode must not release a name before the words that make it one arrive.
 * Random prose from templates (names of many origins, firms, clubs, places,
 * addresses, context words before and after, emoji and combining marks)
 * through `streamText` in random deltas of 1–50 code points (or whole), in
 * window and hold mode, against `generateText` on the same answer: the
 * streamed text is generate's; no released prefix holds a value generate
 * hid; no delta begins or ends inside a surrogate pair.
 */

const entities = [
  ...new Set([
    'PERSON',
    'STREET_ADDRESS',
    'LOCATION',
    'ORGANIZATION',
    ...defaultPiiEntities,
  ] as const),
];

const PEOPLE = [
  'Maria González',
  'Siobhán O’Connor',
  'Nguyễn Văn An',
  'Zoë Kowalczyk',
  'Olúwaṣeun Adébáyọ̀',
  'Jürgen Müller',
  'Aisha Rahman',
  'Hiroshi Tanaka',
  'Priya Natarajan',
  'Ólafur Jónsson',
  'Dmitri Ivanov',
  'Kwame Mensah',
  'José\u0301 Pérez',
  'Anna Berg',
  'Mr. Okafor',
  'Dr. Li Wei',
];
const FIRMS = ['Siemens', 'Acme Corp', 'Globex Industries', 'Initech Ltd', 'Bayer AG', 'Nordea'];
const CLUBS = ['Arsenal', 'Juventus', 'Real Madrid', 'Bayern Munich', 'Celtic'];
const PLACES = ['Oslo', 'Lagos', 'São Paulo', 'Kraków', 'Nairobi', 'Reykjavík', 'Hà Nội'];
const ADDRESSES = [
  '221B Baker Street',
  '1600 Pennsylvania Avenue',
  '742 Evergreen Terrace',
  '10 Downing Street, London',
  '12 Rue de Rivoli',
  'Hauptstraße 5',
];
/** Lower-case words, some long: the words that decide a name may come far after it. */
const WORDS = [
  'a',
  'recall',
  'pneumonoultramicroscopicsilicovolcanoconiosis',
  'supercalifragilisticexpialidocious',
  'floccinaucinihilipilification',
  'hippopotomonstrosesquippedaliophobia',
  // German compounds (lower-cased) of 63 and 79 letters.
  'rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz',
  'donaudampfschiffahrtselektrizitaetenhauptbetriebswerkbauunterbeamtengesellschaft',
];
/** One word: a firm or a given name, which words after it may make a firm. */
const SINGLE = ['Siemens', 'Nordea', 'Nokia', 'Kwame', 'Maria', 'Ford'];
/**
 * Glued to a sentence's ends. A letter with a combining mark is a word of
 * its own here: glued to a capitalised word after a line that ends in a
 * tagged name (`Celtic.\n äDear Priya`), the word's label turns on that
 * name's, which window mode reads as a placeholder. Since round 40 the
 * tagger reads a typed placeholder as a name of its type, which fixed the
 * case seeds 1 and 2 found (`Maria González🙂 \nFord cut … for its staff`
 * under PERSON alone, ner-placeholder-context.test.ts); after a one-word
 * name the history can still differ (see docs/streaming.md).
 */
const EXTRAS = ['🙂', '👨‍👩‍👧', '🇳🇴', ' a\u0308 ', '✌🏿', '—', '\n', '', '', '', ''];

type Slots = {
  p: string;
  q: string;
  f: string;
  g: string;
  c: string;
  l: string;
  a: string;
  w: string[];
};
const TEMPLATES: ((s: Slots) => string)[] = [
  s => `${s.p} plays for ${s.c}.`,
  s => `${s.f} announced a new plant in ${s.l}.`,
  s => `${s.p} sold the flat at ${s.a}; its roof leaks.`,
  s => `Yesterday ${s.p} met ${s.q} in ${s.l}.`,
  s => `${s.f} said its profits rose, ${s.p} told reporters`,
  s => `Dear ${s.p},`,
  s => `${s.c} signed ${s.p} from ${s.f}`,
  s => `Send it to ${s.a}, ${s.l}.`,
  s => `${s.p} works at ${s.f} in ${s.l}`,
  s => `${s.q}: thanks, ${s.p}!`,
  s => `${s.l} is lovely in May.`,
  s => `Call ${s.p} on +44 20 7946 0958 or mail ${s.q.split(' ')[0]!.toLowerCase()}@example.org`,
  s => `${s.f} hired ${s.p} as CEO`,
  s => `the ${s.c} fans cheered ${s.p}`,
  s => `${s.g} announced ${s.w.join(' ')} of its pickups.`,
  s => `${s.g} cut ${s.w.join(' ')} for its staff`,
  s => `${s.p} cut ${s.w.join(' ')} for its staff`,
  s => `${s.g} said in a ${s.w.slice(0, 2).join(' ')} filing`,
  s => `${s.g} sold ${s.w.join(' ')} its`,
];

const pick = <T>(items: readonly T[]) => fc.constantFrom(...items);
const sentence = fc
  .record({
    template: fc.nat({ max: TEMPLATES.length - 1 }),
    p: pick(PEOPLE),
    q: pick(PEOPLE),
    f: pick(FIRMS),
    g: pick(SINGLE),
    c: pick(CLUBS),
    l: pick(PLACES),
    a: pick(ADDRESSES),
    w: fc.array(pick(WORDS), { minLength: 1, maxLength: 4 }),
    before: pick(EXTRAS),
    after: pick(EXTRAS),
  })
  .map(({ template, before, after, ...slots }) => before + TEMPLATES[template]!(slots) + after);
const answer = fc.array(sentence, { minLength: 1, maxLength: 6 }).chain(sentences =>
  fc
    .array(fc.constantFrom(' ', ' ', '\n', '\n\n', ' 🙂 '), {
      minLength: sentences.length,
      maxLength: sentences.length,
    })
    .map(joins => sentences.map((line, i) => line + joins[i]).join('')),
);
/** Delta sizes in code points, 1–50 (small or large), or the whole answer at once. */
const chunking = fc.oneof(
  fc.constant<number[]>([]),
  fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 30 }),
  fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 30 }),
);

/** `text` cut into deltas of `sizes` code points (cycled); whole when `sizes` is empty. */
function deltasOf(text: string, sizes: number[]): string[] {
  if (sizes.length === 0) return [text];
  const points = Array.from(text);
  const deltas: string[] = [];
  for (let at = 0, index = 0; at < points.length; index++) {
    const size = sizes[index % sizes.length]!;
    deltas.push(points.slice(at, at + size).join(''));
    at += size;
  }
  return deltas;
}

const SEED = 20261205;
const RUNS = 100;

// The full set holds back 320 characters in window mode (2 × STREET_ADDRESS's 160); names and
// firms alone 192; names alone 128, the least.
const CASES = [
  ['window', entities],
  ['window', ['PERSON', 'ORGANIZATION']],
  ['window', ['PERSON']],
  ['hold', entities],
] as const;

describe.each(CASES)('tagged types streamed in %s mode, entities %j', (mode, entities) => {
  it(`stream == generate, nothing hidden released, no lone surrogate (seed ${SEED})`, async () => {
    const guard = pii({ entities: [...entities] });
    const streaming = guardrails({ output: [guard], stream: { mode } });
    const reference = guardrails({ output: [guard] });
    let hiding = 0;
    await fc.assert(
      fc.asyncProperty(answer, chunking, async (text, sizes) => {
        const expected = await generatedText(reference, text);
        // The values generate hid (longer than 3 characters, so a bare "Li" is no proof of a leak).
        const hidden = findPii(text, { entities })
          .map(span => text.slice(span.start, span.end))
          .filter(value => value.length > 3 && !expected.includes(value));
        if (hidden.length > 0) hiding++;
        const deltas = await streamedTextDeltas(streaming, text, deltasOf(text, sizes));
        let released = '';
        for (const delta of deltas) {
          expect(delta).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
          released += delta;
          const leaked = hidden.find(value => released.includes(value));
          expect(leaked, `released ${JSON.stringify(released)}`).toBeUndefined();
        }
        expect(released).toBe(expected);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generator is not idle: most answers hide a tagged value.
    expect(hiding).toBeGreaterThan(RUNS / 2);
  }, 120_000);
});
