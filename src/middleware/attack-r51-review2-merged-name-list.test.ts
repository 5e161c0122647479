import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../test/helpers';
import { rawWhereGenerateRedacts } from '../../test/helpers/window-differential';
import { pii } from '../guards/pii/pii';

/*
 * Round 51 second review (hI) of r51-hD (c3debeef) and r51-hE (f6e9ea85)
 * merged (a clean merge, 855f926a in the review's scratch worktree). A
 * list of names, one a line (83 lines, 1,126 characters, seeded generator
 * of this review, seed 515103, text 90), streamed in window mode with
 * PERSON, STREET_ADDRESS, LOCATION, ORGANIZATION. At the base, at hD alone
 * and at hE alone the stream equals generate, in one delta and in deltas
 * of 30. Merged, in one delta it does not: generate (hE's tagger: an
 * address run no longer ends 160 characters after its B token, and goes
 * on over lines of at most 64 characters) reads most of the list as one
 * address run, cut into lines (`[STREET_ADDRESS]` a line); the window's
 * checks (hD's hook: context of `maxMatchLength` before the pending text)
 * start after that run's B token and read the lines as names, releasing
 * `[PERSON] van der [PERSON]`: `van der` raw where generate redacts the
 * line. hE's claim (the cut is the same from any start that sees at least
 * the bound of the run) does not hold once the run itself has no bound.
 * Expected: streamed === generated; observed merged: differs, raw
 * ['van', 'der'].
 */
const NAMES = [
  'Katarzyna Müller',
  'Fatima Fischer',
  'Chloé Chen',
  'Giulia Novak',
  'Nguyen van der Berg',
  'José Haddad',
  'José Nakamura',
  "Zoë O'Brien",
  "Dmitri O'Brien",
  'Ahmed Dubois',
  'Zoë Patel',
  "Priya O'Brien",
  'Mateo García',
  'Lars García',
  'Lars Smith',
  "Anna O'Brien",
  'José Nakamura',
  'Dmitri Smith',
  'Priya Lopez',
  'Anna Lopez',
  'Nguyen Nakamura',
  'Olusegun Kim',
  'Chloé Ivanova',
  'Dmitri Andersson',
  'Chloé Rossi',
  'Björn Ivanova',
  'Mateo Silva',
  'Lars Patel',
  'Yuki Smith',
  'Ahmed Chen',
  'Katarzyna Kim',
  'Fatima Okafor',
  'Zoë Fischer',
  'Giulia Lopez',
  'Ahmed Ivanova',
  'Wei Okafor',
  'Chloé García',
  'Yuki Novak',
  'Katarzyna Patel',
  'Hannah Smith',
  'Olusegun van der Berg',
  'Dmitri van der Berg',
  'Olusegun Novak',
  'Priya García',
  'Dmitri Rossi',
  'Dmitri Kim',
  'Dmitri Müller',
  'Chloé Chen',
  'José Haddad',
  "Wei O'Brien",
  'Priya Nakamura',
  'Mateo Ivanova',
  'Giulia Silva',
  'Chloé Haddad',
  'Katarzyna van der Berg',
  'Chloé Okafor',
  'Anna Lopez',
  'Priya Rossi',
  'Giulia Chen',
  'Seán Fischer',
  'Olusegun Smith',
  'José Müller',
  'Maria Fischer',
  'Chloé Novak',
  'Chloé Ivanova',
  'Olusegun Novak',
  'Chloé Silva',
  'Wei Haddad',
  'Maria Okafor',
  'Maria Chen',
  'Ahmed van der Berg',
  'Nguyen Okafor',
  'Chloé Haddad',
  'Mateo Dubois',
  'Priya Chen',
  'Katarzyna Dubois',
  'Fatima Smith',
  'Hannah Andersson',
  'Seán Smith',
  'Dmitri Andersson',
  'Dmitri Smith',
  'Olusegun Nakamura',
  'Maria Dubois',
].join('\n');

const FOUR = ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'] as const;

/** What generate gives for `text`, and what the window stream in deltas of `size` gives. */
async function generatedAndStreamed(text: string, size: number) {
  const guard = pii({ entities: [...FOUR], action: 'redact' });
  const { generated, streamed } = await windowAndGenerateTexts(guard, text, [[size]]);
  return { generated, streamed: streamed[0]! };
}

describe('attack r51 review 2 (hI): hD and hE merged, a name list read as one address run', () => {
  // A guard on main: the branch this pinned (r51-hD, r51-hE) did not land (round 51 lead).
  it('a list of names, one a line, in one delta streams as generate gives it', async () => {
    expect(NAMES.length).toBe(1_126);
    const { generated, streamed } = await generatedAndStreamed(NAMES, NAMES.length);
    expect(rawWhereGenerateRedacts(NAMES, generated, streamed)).toEqual([]);
    expect(streamed).toBe(generated);
  }, 120_000);
});

/*
 * The same merged, with names written lower-case in a one-line list
 * (`josé chen and olusegun …`, 2,650 characters, this review's seed
 * 5151777, text 255; the tagger reads lower-case first names): in deltas
 * of 38 the stream shows nine words raw that generate redacts (base, hD
 * alone, hE alone: the stream equals generate). Expected: streamed ===
 * generated; observed merged: raw ['and', 'ahmed', 'van', 'der', 'björn',
 * 'josé', 'yuki', 'chloé', 'ivanova'].
 */
const LOWER = [
  'zoë Patel and ahmed Rossi and wei van der berg and fatima and zoë and lars and Chloé ',
  "O'Brien and björn van der Berg and Wei Okafor and fatima Müller and fatima garcía and zoë ",
  'rossi and nguyen and wei and nguyen and Maria Silva and nguyen lopez and josé Dubois and ',
  'Ahmed Novak and björn and giulia kowalski and yuki and nguyen smith and dmitri andersson ',
  'and anna and olusegun Fischer and seán Nakamura and Maria van der Berg and Mateo Novak ',
  'and seán silva and mateo haddad and Priya van der Berg and Anna Patel and hannah silva ',
  "and maria Silva and Fatima Fischer and Priya Kim and josé O'Brien and ahmed Nakamura and ",
  'hannah and Olusegun Okafor and ahmed kowalski and nguyen and seán Fischer and chloé ',
  "Andersson and katarzyna rossi and Zoë O'Brien and hannah Silva and lars and Nguyen ",
  'Kowalski and seán and José Rossi and maria Müller and Mateo Andersson and josé Okafor and ',
  'björn lopez and lars garcía and chloé and giulia lopez and Anna Müller and chloé Dubois ',
  "and Dmitri Kowalski and björn silva and priya Fischer and Yuki Kim and giulia o'brien and ",
  'zoë dubois and priya garcía and Dmitri Lopez and Yuki Lopez and olusegun dubois and lars ',
  'and Wei Smith and josé and José Silva and Björn Dubois and fatima Chen and ahmed and ',
  "priya Okafor and nguyen and hannah and katarzyna O'Brien and hannah and katarzyna and ",
  "mateo Kim and yuki O'Brien and ahmed García and wei ivanova and Olusegun Smith and lars ",
  'and seán and lars and nguyen Dubois and yuki Müller and giulia and priya Novak and lars ',
  'dubois and björn and lars and chloé and lars haddad and josé and zoë van der Berg and ',
  "olusegun and fatima Andersson and Yuki O'Brien and zoë Lopez and Giulia Andersson and ",
  'olusegun and Dmitri Andersson and wei and giulia patel and Giulia Smith and Fatima van ',
  'der Berg and maria and fatima müller and josé Kowalski and katarzyna and Katarzyna van ',
  'der Berg and Wei Okafor and giulia and Zoë Patel and chloé and wei ivanova and yuki and ',
  'björn and ahmed and chloé and björn van der Berg and wei Dubois and seán rossi and Yuki ',
  "Rossi and Björn O'Brien and maria Kowalski and olusegun ivanova and katarzyna and wei ",
  'chen and Fatima Kowalski and zoë andersson and olusegun Dubois and zoë and mateo and ',
  'hannah novak and seán Chen and Anna Kim and josé kim and Dmitri Chen and seán García and ',
  'mateo and chloé nakamura and Fatima García and giulia and lars and ahmed Kowalski and wei ',
  'dubois and ahmed and wei and Dmitri Kowalski and priya patel and Olusegun Kowalski and ',
  'maria Haddad and chloé Haddad and Wei García and maria and seán and dmitri ivanova and ',
  'dmitri and dmitri Smith and katarzyna and hannah garcía and hannah silva and seán novak ',
  'and priya and Nguyen Nakamura ',
]
  .join('')
  .slice(0, -1);

describe('attack r51 review 2 (hI): hD and hE merged, a lower-case name list', () => {
  // A guard on main: the branch this pinned (r51-hD, r51-hE) did not land (round 51 lead).
  it('a one-line list of lower-case names in deltas of 38 streams as generate gives it', async () => {
    expect(LOWER.length).toBe(2650);
    const { generated, streamed } = await generatedAndStreamed(LOWER, 38);
    expect(rawWhereGenerateRedacts(LOWER, generated, streamed)).toEqual([]);
    expect(streamed).toBe(generated);
  }, 120_000);
});
