import { seededRandom } from '../../bench/fixtures';
import type { PiiEntity } from '../../src/guards/pii/find-pii';
import { pii } from '../../src/guards/pii/pii';
import { windowAndGenerateTexts } from './index';

/*
 * A seeded differential of window mode with NER entities against generate
 * (issues 16 and 17), after the round 48 review's (hJ): texts made of the
 * words below (written here, no data rows), each streamed in deltas of one
 * random size (1 to 50) and of 3, 11, 1; every second text asks seven
 * entities, the others PERSON and ORGANIZATION.
 */

/** The kinds of text: capitalised lines, speakers' chat, place lists, e-mail addresses near names. */
export type DifferentialKind = 'lines' | 'speakers' | 'places' | 'emails';

const WORDS: Record<DifferentialKind, readonly string[]> = {
  lines: [
    'Mr. Dalton',
    'Anna Kowalski',
    'met',
    'in',
    'Berlin',
    'New York',
    'at',
    'Acme Corp',
    'Google',
    'said',
    'ok',
    'the',
    'call',
    'me at',
    '555-123-4567',
    'my name is',
    'Lars',
    'from',
    'Oslo',
    'Dr.',
    'Smith',
    'and',
    'Rivera',
    'IBM',
    'Paris',
    'hi',
    'we',
    'ran',
    'data',
    'Jean-Luc',
    'Picard',
    'wrote',
    'to',
    'St.',
    'Louis',
    'Zed',
    'York',
    'New',
    '[PERSON]',
    '\n',
    'lives at',
    '42 Elm Street',
    'Springfield',
    'card',
  ],
  speakers: [
    'Maria:',
    'Sam:',
    'Zed said',
    'its',
    'marta',
    'here',
    'omg',
    'mateus',
    'just',
    'called',
    'ok',
    'so',
    'farhan',
    'and',
    'leila',
    'hey',
    'thx',
    'my',
    'name',
    'is',
    'ingvild',
    'me',
    'tell',
    'pls',
    'ask',
    'jae-hyun',
    'Sam',
    'we',
    'the',
    'Tencent',
    'hired',
    'New',
    'York',
    'Google',
    '\n',
    '!!',
    ',',
    '.',
    '[PERSON]',
    'see',
    'you',
    'at',
    'Jonathan',
    'Livingston',
  ],
  places: [
    'Chile',
    'Peru',
    'Bolivia',
    'Mali',
    'Niger',
    'Chad',
    'New York',
    'San Francisco',
    'Paris',
    'St. Louis',
    'Berlin',
    'Oslo',
    'Springfield',
    'New',
    'York',
    ',',
    'and',
    'to',
    'from',
    'via',
    'the',
    'we',
    'flew',
    'Anna',
    'Kowalski',
    'Lars',
    'Acme Corp',
    'IBM',
    'in',
    '\n',
    '.',
  ],
  emails: [
    'jo.sm@mail.com',
    'anna@corp.io',
    'bob@example.org',
    'Anna Kowalski',
    'Mr. Dalton',
    'Lars',
    'Smith',
    'Rivera',
    'from',
    'to',
    'cc',
    'wrote',
    'at',
    'mail',
    'me',
    'Dr.',
    'Google',
    'said',
    'hi',
    'ok',
    '<',
    '>',
    ',',
    '\n',
    'Maria:',
    'the',
    'Picard',
    'New York',
  ],
};

const SEVEN: PiiEntity[] = [
  'PERSON',
  'LOCATION',
  'ORGANIZATION',
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'US_SSN',
  'CREDIT_CARD',
];

/** `count` seeded texts of `kind` (60 to 220 words each, on lines). */
export function differentialTexts(kind: DifferentialKind, seed: number, count: number): string[] {
  const next = seededRandom(seed);
  const words = WORDS[kind];
  const texts: string[] = [];
  for (let index = 0; index < count; index++) {
    const length = 60 + Math.floor(next() * 160);
    let text = '';
    for (let word = 0; word < length; word++) {
      const picked = words[Math.floor(next() * words.length)]!;
      if (picked === '\n') text += '\n';
      else text += (text && !text.endsWith('\n') ? ' ' : '') + picked;
    }
    texts.push(`${text}\n`);
  }
  return texts;
}

/** One text of the differential whose stream differs from generate. */
export interface Differing {
  index: number;
  text: string;
  generated: string;
  streamed: string[];
  /** Words of the text that a stream shows more often than generate does, when generate shows them less often than the text: released raw where generate redacts. */
  raw: string[];
}

function counts(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const word of text.split(/[\s,.:<>!]+/)) {
    if (word) found.set(word, (found.get(word) ?? 0) + 1);
  }
  return found;
}

/** Words the text has more of than `generated` (redacted there) that `streamed` shows more of than `generated`. */
export function rawWhereGenerateRedacts(
  text: string,
  generated: string,
  streamed: string,
): string[] {
  const original = counts(text);
  const kept = counts(generated);
  const shown = counts(streamed);
  const raw: string[] = [];
  for (const [word, times] of original) {
    const inGenerated = kept.get(word) ?? 0;
    if (inGenerated < times && (shown.get(word) ?? 0) > inGenerated) raw.push(word);
  }
  return raw;
}

/** The texts of `kind` whose window stream differs from generate, in either chunking. */
export async function windowDifferential(
  kind: DifferentialKind,
  seed: number,
  count: number,
): Promise<Differing[]> {
  const next = seededRandom(seed ^ 0x5eed);
  const found: Differing[] = [];
  const texts = differentialTexts(kind, seed, count);
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!;
    const sizes = [[1 + Math.floor(next() * 50)], [3, 11, 1]];
    const guard = pii({
      entities: index % 2 ? SEVEN : ['PERSON', 'ORGANIZATION'],
      action: 'redact',
    });
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, sizes);
    if (streamed.every(one => one === generated)) continue;
    const raw = [
      ...new Set(streamed.flatMap(one => rawWhereGenerateRedacts(text, generated, one))),
    ];
    found.push({ index, text, generated, streamed, raw });
  }
  return found;
}
