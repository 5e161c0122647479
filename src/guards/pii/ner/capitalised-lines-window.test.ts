import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../bench/fixtures';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import type { PiiEntity } from '../find-pii';
import { pii } from '../pii';

/*
 * Round 47 (hL, issues 16 and 17): window mode with names should redact long
 * capitalised lines as `generateText` does, for any chunking. Like the
 * round 47 review's fuzz (attack-r47-review-window-lines.test.ts): lines of
 * organisations, cities and two-word names, 80 to 200 characters long,
 * between speaker lines, chat lines and line-initial names, with phone
 * numbers and e-mail addresses, each streamed in deltas of 1 to 50
 * characters or whole. The strings are written here (no data rows).
 */

const runs = [
  'International Business Machines',
  'San Francisco',
  'Jonathan Livingston',
  'Microsoft',
  'Paris',
  'Sam',
  'New York',
  'Google headquarters',
  'data',
  'the',
  'a',
  'of',
  'ran',
  'we',
  'ok',
  '555-123-4567',
  'bob@example.org',
];
const starts = [
  'Maria: ok see',
  'John: meet me in',
  'thx mateo!!',
  'Sam we',
  'tell ingvild',
  'Zed said',
];

function line(next: () => number): string {
  const length = 80 + Math.floor(next() * 120);
  let text = next() < 0.6 ? starts[Math.floor(next() * starts.length)]! : '';
  while (text.length < length)
    text += `${text ? ' ' : ''}${runs[Math.floor(next() * runs.length)]}`;
  return text;
}

function sample(next: () => number): string {
  const lines: string[] = [];
  const count = 2 + Math.floor(next() * 3);
  for (let index = 0; index < count; index++) {
    lines.push(next() < 0.3 ? `${starts[Math.floor(next() * starts.length)]} hi` : line(next));
  }
  return `${lines.join(next() < 0.5 ? '\n' : ' \n')}\n`;
}

async function differing(seed: number, entities: PiiEntity[], cases: number) {
  const next = seededRandom(seed);
  const found: Array<{ text: string; size: number }> = [];
  for (let run = 0; run < cases; run++) {
    const text = sample(next);
    const size = run % 10 === 9 ? text.length : 1 + Math.floor(next() * 50);
    const guard = pii({ entities, action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, [[size]]);
    if (streamed[0] !== generated) found.push({ text, size });
  }
  return found;
}

/*
 * Open (round 47, hL): 8 of each 500 still differed (9 and 10 before the
 * blank reading stayed on its line). Round 48 (hD) traced all 16: in 12 a
 * check changed its own left context (the released text read again, cut
 * about 128 characters back, labelled otherwise: `New York` of
 * `[PERSON] New York` made a name, `ok` after a `[PERSON]:` speaker an
 * organisation), and the window then judged the pending text with no
 * context at all, so its first words read as a text's start (`Zed said`
 * a name, `York` alone a person). A changed context is now started again
 * past the change (window-processor `contextPastChange`): 4 and 3 differ.
 * Left: in 4 the context comes back unchanged but the check reads the
 * released names as placeholders where generate read them raw (its first
 * reading) or read the pending names raw where generate read them as
 * placeholders (its second): the tagger's features of a word two tokens
 * from a placeholder and its two-label history after one differ (`ran
 * Microsoft New York` after `[PERSON]` tags `York`); in 3 the context
 * changes again after the restart, and the pending text alone is judged.
 * The counts pin what this round reached; the equality is the goal.
 * Round 48 (hL): the check reads a kept context that holds a change raw,
 * as generate read it (window-processor `checkAfter`): none differs.
 */
describe('long capitalised lines: window mode against generate', () => {
  const found = new Map<string, Array<{ text: string; size: number }>>();
  beforeAll(async () => {
    found.set('PERSON', await differing(4701, ['PERSON'], 500));
    found.set('PERSON, ORGANIZATION', await differing(4702, ['PERSON', 'ORGANIZATION'], 500));
  }, 240_000);

  it('at most 4 and 3 of 500 seeded texts differ, each in deltas of 1 to 50 characters or whole', () => {
    expect(found.get('PERSON')!.length).toBeLessThanOrEqual(4);
    expect(found.get('PERSON, ORGANIZATION')!.length).toBeLessThanOrEqual(3);
  });

  it('none differs (PERSON; PERSON and ORGANIZATION)', () => {
    expect(found.get('PERSON')).toEqual([]);
    expect(found.get('PERSON, ORGANIZATION')).toEqual([]);
  });
});
