import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../test/helpers';
import { rawWhereGenerateRedacts } from '../../test/helpers/window-differential';
import { pii } from '../guards/pii/pii';

/*
 * Round 51 second review (hI) of r51-hD at c3debeef (issue 16: the
 * tagger's potential-start hook). A staff directory (45 lines of
 * `Name — Title, Company, City, ext. 1234`, 2,561 characters, written by a
 * seeded generator of this review, seed 515101, text 49), streamed in
 * window mode with PERSON, STREET_ADDRESS, LOCATION, ORGANIZATION in deltas
 * of 30. At the base e3931c8e and at r51-hE f6e9ea85 the stream equals
 * generate. At r51-hD c3debeef (and hD merged with hE) it does not: the
 * stream releases `ext. 4190` and the next line's `— Engineer` raw where
 * generate redacts them as one address (`ext. [STREET_ADDRESS]`, the run
 * `4190\n<name> — Engineer, …` read as an address from generate's start):
 * the hook's cut let a check read that run from a later start.
 * Expected: streamed === generated, no word raw that generate redacts;
 * observed at c3debeef: differs, raw ['—', 'Engineer', '4190'].
 * (Whole, in one delta, it streams as generate.)
 */
const STAFF = [
  'Maria Fischer — Head of Sales, Hooli, Madrid, ext. 9124',
  'Zoë Patel — Nurse, Initech, Springfield, ext. 2332',
  'Hannah Andersson — Nurse, Stark Industries, Oslo, ext. 1962',
  'Wei Okafor — Engineer, Banco Santander, Amsterdam, ext. 3611',
  'Olusegun Andersson — Nurse, Hooli, Amsterdam, ext. 4897',
  'Lars Rossi — CFO, Soylent Ltd, Paris, ext. 2870',
  'José Novak — Paralegal, Initech, Amsterdam, ext. 2257',
  'Olusegun Kowalski — Nurse, Acme Corp, Madrid, ext. 9662',
  'Wei Fischer — CFO, Initech, Paris, ext. 2460',
  'Maria Haddad — Engineer, Globex Inc., Kraków, ext. 5570',
  'Seán Rossi — Paralegal, Nordic Trading AB, Sydney, ext. 4817',
  'Maria Silva — CFO, Umbrella GmbH, Toronto, ext. 3852',
  'Maria Okafor — Head of Sales, Nordic Trading AB, Sydney, ext. 9272',
  'Fatima Fischer — Nurse, Banco Santander, Toronto, ext. 830',
  'Hannah Müller — Head of Sales, Wayne Enterprises, Kraków, ext. 9320',
  'Nguyen Ivanova — Engineer, Umbrella GmbH, Boston, ext. 1918',
  'Maria Patel — Nurse, Stark Industries, Toronto, ext. 8886',
  'Giulia Müller — Engineer, Hooli, Madrid, ext. 2492',
  'Olusegun Haddad — Paralegal, Siemens AG, Sydney, ext. 585',
  'Lars Fischer — Nurse, Siemens AG, Amsterdam, ext. 3621',
  'Hannah Kim — CFO, Nordic Trading AB, Boston, ext. 8745',
  'Mateo Rossi — Engineer, Stark Industries, Kraków, ext. 4883',
  'José Andersson — Nurse, Soylent Ltd, Oslo, ext. 8911',
  'José Fischer — Engineer, Stark Industries, Madrid, ext. 972',
  "Zoë O'Brien — Engineer, Acme Corp, Zürich, ext. 8081",
  'Ahmed Ivanova — CFO, Acme Corp, Sydney, ext. 2802',
  'Chloé Okafor — Paralegal, Stark Industries, Tokyo, ext. 1637',
  'José Andersson — CFO, Globex Inc., Boston, ext. 3589',
  'Seán Patel — Nurse, Globex Inc., Paris, ext. 4190',
  'Lars van der Berg — Engineer, Acme Corp, Berlin, ext. 3547',
  'Dmitri Müller — CFO, Stark Industries, Toronto, ext. 2852',
  'Mateo Dubois — Engineer, Siemens AG, Springfield, ext. 7522',
  'Maria Andersson — Nurse, Acme Corp, Springfield, ext. 9691',
  'Olusegun van der Berg — Paralegal, Stark Industries, Madrid, ext. 8719',
  'Yuki Andersson — Nurse, Wayne Enterprises, São Paulo, ext. 9467',
  'Maria Fischer — Paralegal, Hooli, Springfield, ext. 1079',
  'Katarzyna Lopez — Paralegal, Acme Corp, Madrid, ext. 5979',
  'Zoë Müller — Nurse, Initech, São Paulo, ext. 9020',
  'Nguyen Kowalski — Nurse, Soylent Ltd, Springfield, ext. 8809',
  'Priya Rossi — CFO, Nordic Trading AB, Kraków, ext. 6996',
  'Yuki Haddad — Nurse, Siemens AG, Oslo, ext. 6014',
  'Fatima Smith — Nurse, Banco Santander, Kraków, ext. 6817',
  'Björn Andersson — CFO, Siemens AG, Sydney, ext. 3624',
  'Nguyen Novak — Head of Sales, Hooli, São Paulo, ext. 6437',
  'Yuki Rossi — Head of Sales, Stark Industries, Berlin, ext. 4413',
].join('\n');

const FOUR = ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'] as const;

/** What generate gives for `text`, and what the window stream in deltas of `size` gives. */
async function generatedAndStreamed(text: string, size: number) {
  const guard = pii({ entities: [...FOUR], action: 'redact' });
  const { generated, streamed } = await windowAndGenerateTexts(guard, text, [[size]]);
  return { generated, streamed: streamed[0]! };
}

describe('attack r51 review 2 (hI): the NER hook releases a staff directory read from a later start', () => {
  // A guard on main: the branch this pinned (r51-hD, r51-hE) did not land (round 51 lead).
  it('a staff directory in deltas of 30 streams as generate gives it', async () => {
    expect(STAFF.length).toBe(2_561);
    const { generated, streamed } = await generatedAndStreamed(STAFF, 30);
    expect(rawWhereGenerateRedacts(STAFF, generated, streamed)).toEqual([]);
    expect(streamed).toBe(generated);
  }, 120_000);
});
