import { describe, expect, it } from 'vitest';
import { findNamedEntities } from './find-named-entities';

/**
 * Round 45 (issue 17, speed only): the span rules of `tagger.ts`, `chat-names.ts` and
 * `organisations.ts` ask one word-class mask per token (`WordClasses`) where each asked its word
 * sets (or sliced and lower-cased the token). Each sentence below reaches one of those sets (a
 * speech cue, a work noun, a particle, a role noun, a greeting, a weekday, a chat cue, a request's
 * verb, an employer cue, a company verb and object, a firm's cue and possession, `of its`, a
 * connector, a head or trade word); the spans are those the code before the masks gave (checked
 * against round 44's `src/` in one process), so a mask wired to the wrong set fails here.
 */
const cases: Array<[string, Array<[string, string]>]> = [
  ['“We will win,” says Bergqvist after the game.', [['PERSON', 'Bergqvist']]],
  [
    'I loved the Christiansen novel and a Kubrick film.',
    [
      ['PERSON', 'Christiansen'],
      ['PERSON', 'Kubrick'],
    ],
  ],
  [
    'She met Maria de la Cruz and Omar bin Said yesterday.',
    [
      ['PERSON', 'Maria de la Cruz'],
      ['PERSON', 'Omar'],
    ],
  ],
  [
    'The event had songwriter Zoe Young and our founders: Kónya, Becker and Vasquez.',
    [
      ['PERSON', 'Zoe Young'],
      ['PERSON', 'Kónya'],
      ['PERSON', 'Becker'],
      ['PERSON', 'Vasquez'],
    ],
  ],
  ['Hi Freddy, thanks for the notes.', [['PERSON', 'Freddy']]],
  ['Sunday was quiet.', []],
  ['my name is lena andersson', [['PERSON', 'lena andersson']]],
  ['thx mateo!!', [['PERSON', 'mateo']]],
  ['hey priya', [['PERSON', 'priya']]],
  ['thx ingvild!!', [['PERSON', 'ingvild']]],
  ['called ingvild', []],
  ['lol ingvild', []],
  [
    'ok so farhan and leila',
    [
      ['PERSON', 'farhan'],
      ['PERSON', 'leila'],
    ],
  ],
  ['bjorn and i are going fishing', [['PERSON', 'bjorn']]],
  ['omg mateus just called', [['PERSON', 'mateus']]],
  ['me and chidi went out\nchidi and funmi are here', []],
  ["pls tell ingvild i'll be late", []],
  ['Please ask Turing about the budget.', [['PERSON', 'Turing']]],
  ['Tell Okonkwo the plan changed.', [['PERSON', 'Okonkwo']]],
  ['ok lol', []],
  [
    'She works at Hudson Cole and joined Microsoft last year.',
    [
      ['ORGANIZATION', 'Hudson Cole'],
      ['ORGANIZATION', 'Microsoft'],
    ],
  ],
  ['Siemens announced a new train contract.', [['ORGANIZATION', 'Siemens']]],
  ['Garcia announced her retirement.', [['PERSON', 'Garcia']]],
  ['He bought shares of Vantor last week.', [['ORGANIZATION', 'Vantor']]],
  [
    "Brakefield's shareholders met at Brakefield's office.",
    [
      ['ORGANIZATION', 'Brakefield'],
      ['ORGANIZATION', 'Brakefield'],
    ],
  ],
  ['Ford announced a recall of its pickups.', [['ORGANIZATION', 'Ford']]],
  ['Charles Schwab cut its forecast.', [['ORGANIZATION', 'Charles Schwab']]],
  [
    'Bank of America and Banco do Brasil merged with the Royal Academy of Music.',
    [
      ['ORGANIZATION', 'Bank of America'],
      ['STREET_ADDRESS', 'Banco do Brasil'],
      ['ORGANIZATION', 'Royal Academy of Music'],
    ],
  ],
  [
    'Northgate Plumbing Services fixed it, not Customer Services.',
    [['ORGANIZATION', 'Northgate Plumbing Services']],
  ],
  ['Ask Oliver Brown Services to call me.', [['PERSON', 'Oliver Brown']]],
  ['Leeds United beat the United Nations team.', [['ORGANIZATION', 'Leeds United']]],
  [
    'Ernst & Young audited Procter & Gamble.',
    [
      ['ORGANIZATION', 'Ernst & Young'],
      ['ORGANIZATION', 'Procter & Gamble'],
    ],
  ],
  [
    'National Travel Agency and Crescent Travel Agency.',
    [
      ['ORGANIZATION', 'National Travel Agency'],
      ['ORGANIZATION', 'Crescent Travel Agency'],
    ],
  ],
  ['Nokia reported higher profits in a regulatory filing.', [['LOCATION', 'Nokia']]],
  [
    'Pieter de Vries met Prof. Ada Obi.',
    [
      ['PERSON', 'Pieter de Vries'],
      ['PERSON', 'Ada Obi'],
    ],
  ],
];

describe('span rules read through word-class masks', () => {
  it.each(cases)('%s', (text, expected) => {
    const spans = findNamedEntities(text).map(span => [
      span.type,
      text.slice(span.start, span.end),
    ]);
    expect(spans).toEqual(expected);
  });
});
