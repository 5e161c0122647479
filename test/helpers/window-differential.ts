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

/**
 * The kinds of text: capitalised lines, speakers' chat, place lists, e-mail
 * addresses near names; and round 50's held-out shapes (hC, written before
 * any change they were read on): chat transcripts with speakers at line
 * starts, signatures after e-mails, postal addresses split over lines,
 * names beside emoji, flags and combining marks.
 */
export type DifferentialKind =
  | 'lines'
  | 'speakers'
  | 'places'
  | 'emails'
  | 'transcripts'
  | 'signatures'
  | 'addresses'
  | 'marks';

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
  transcripts: [
    '\nPriya:',
    '\nTom:',
    '\nAgent:',
    '\nCustomer:',
    '\nDr. Okafor:',
    '\n[PERSON]:',
    '\nhelen:',
    'thanks',
    'I',
    'spoke',
    'with',
    'Helen',
    'Helen Park',
    'yesterday',
    'about',
    'the',
    'refund',
    'Chase Bank',
    'in',
    'Denver',
    'my',
    'name',
    'is',
    'Omar',
    'ok',
    'sure',
    'Tom',
    'said',
    'call',
    'Priya',
    'back',
    'at',
    '555-201-8890',
    '?',
    '.',
    'Microsoft',
    'Lisbon',
    'hmm',
    'yes',
    'no',
    'lol',
    'Kenji Watanabe',
  ],
  signatures: [
    'Best,',
    'Regards,',
    '\n--',
    '\n',
    'Thanks,',
    'Helen Park',
    'Omar',
    'Dr. Okafor',
    'Senior Engineer',
    'Acme Corp',
    'Globex Inc.',
    'h.park@globex.com',
    'omar.k@mail.net',
    'tel',
    '+1 415 555 0134',
    'Sent from my phone',
    'On',
    'Monday',
    'wrote:',
    '>',
    'Cheers',
    'Kenji',
    'Watanabe',
    'Director',
    'Berlin',
    'office',
    'Lisbon',
    'cc:',
    'HR',
    '<h.park@globex.com>',
  ],
  addresses: [
    '221B Baker Street',
    '\n',
    'London',
    'NW1 6XE',
    'Apt 4',
    '1600 Pennsylvania Avenue',
    'Washington',
    'DC',
    'Suite 200',
    '10 Downing Street',
    'Portland',
    'OR',
    '97201',
    'c/o',
    'Helen Park',
    'Omar',
    'ship to',
    'Mr.',
    'Kenji Watanabe',
    'Denver',
    'CO',
    'Main St',
    '5th Avenue',
    'New York',
    'NY',
    ',',
    'Globex Inc.',
    'Attn:',
    'PO Box 77',
    'the',
  ],
  marks: [
    '\u{1F1E9}\u{1F1EA}',
    '\u{1F1EF}\u{1F1F5}',
    '\u{1F44B}',
    '\u{1F389}',
    '\u2764\uFE0F',
    'Jos\u00e9',
    'Jose\u0301',
    'Zo\u00eb',
    'Zoe\u0308',
    'Ren\u00e9e',
    'S\u00f8ren',
    '\u00c5sa',
    'Helen',
    'Park',
    'M\u00fcller',
    'Berlin',
    'M\u00fcnchen',
    'Tokyo',
    '\u{1F642}',
    'met',
    'with',
    'and',
    'from',
    'in',
    'hi',
    'thanks',
    '\u2014',
    '\n',
    'Kenji',
    '(',
    ')',
    'Acme Corp',
    'Fran\u00e7ois',
    'Dvo\u0159\u00e1k',
    'Helen\u{1F44B}',
    '\u{1F1E9}\u{1F1EA}Berlin',
  ],
};

/** The kinds written for round 50's held-out differential. */
export const HELD_OUT_KINDS = [
  'transcripts',
  'signatures',
  'addresses',
  'marks',
] as const satisfies readonly DifferentialKind[];

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
      if (picked.startsWith('\n')) text += picked;
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

/**
 * Delta sizes that cut `text` at each capitalised word's start and two
 * characters into it (never inside a surrogate pair): names at delta edges.
 */
export function edgeSizes(text: string): number[] {
  const sizes: number[] = [];
  let last = 0;
  const cutAt = (at: number) => {
    if (at > last && at < text.length && !/[\uDC00-\uDFFF]/.test(text[at]!)) {
      sizes.push(at - last);
      last = at;
    }
  };
  for (const match of text.matchAll(/(?<![\p{L}\p{M}])\p{Lu}/gu)) {
    cutAt(match.index);
    cutAt(match.index + 2);
  }
  sizes.push(text.length - last);
  return sizes;
}

/**
 * The texts of `kind` whose window stream differs from generate, in either
 * chunking (with `edges`, also in deltas cut at names' edges, `edgeSizes`).
 */
export async function windowDifferential(
  kind: DifferentialKind,
  seed: number,
  count: number,
  options: { edges?: boolean } = {},
): Promise<Differing[]> {
  const next = seededRandom(seed ^ 0x5eed);
  const found: Differing[] = [];
  const texts = differentialTexts(kind, seed, count);
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!;
    const sizes = [[1 + Math.floor(next() * 50)], [3, 11, 1]];
    if (options.edges) sizes.push(edgeSizes(text));
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
