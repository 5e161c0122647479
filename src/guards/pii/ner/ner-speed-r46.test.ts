import { describe, expect, it } from 'vitest';
import { ADDRESS_CLUSTER } from './address-runs';
import { CHAT_AHEAD, CHAT_BEHIND } from './chat-names';
import { LIST_ITEMS } from './coordination';
import { findNamedEntities } from './find-named-entities';
import { ROLE_ITEMS, SPEAKER_AHEAD, SPEAKER_BEHIND } from './tagger';

/**
 * Round 46 (issue 17): the five span rules that read an unbounded span now have a reach: a
 * transcript's known speakers within `SPEAKER_REACH` tokens, a chat line's capitals within
 * `CHAT_REACH` tokens, a list of at most `LIST_ITEMS` spans, at most `ROLE_ITEMS` names after one
 * role noun, a cluster of address runs of at most `ADDRESS_CLUSTER` characters. Each pair below
 * is a case at the bound (the spans round 45 gave) and one just past it (round 45's code reached
 * past the bound and gives another answer there: that case fails on it). Round 47 (hH, issue
 * 16): the speaker and chat reaches are characters a stream reads (`SPEAKER_AHEAD`,
 * `SPEAKER_BEHIND`, `CHAT_AHEAD`, `CHAT_BEHIND`); their pairs are at those bounds.
 */
const spans = (text: string): Array<[string, string]> =>
  findNamedEntities(text).map(span => [span.type, text.slice(span.start, span.end)]);

const people = (...names: string[]): Array<[string, string]> => names.map(name => ['PERSON', name]);

describe('round 46 reach bounds', () => {
  it('uses the bounds it documents', () => {
    expect([
      SPEAKER_AHEAD,
      SPEAKER_BEHIND,
      CHAT_AHEAD,
      CHAT_BEHIND,
      LIST_ITEMS,
      ROLE_ITEMS,
      ADDRESS_CLUSTER,
    ]).toEqual([64, 96, 64, 64, 16, 16, 640]);
  });

  // Behind, each name counts as 8 characters: `IPs` is 27 + 64 + `pad` characters after Nicole.
  const knownBefore = (pad: number) =>
    `Nicole: hi\nJohn: yo\n${'the '.repeat(16)}${'a'.repeat(pad)}\nIPs: 10.0.0.1`;

  it('both known speakers within SPEAKER_BEHIND characters make `IPs:` a speaker', () => {
    expect(spans(knownBefore(5))).toEqual(people('Nicole', 'John', 'IPs'));
  });

  it('Nicole a character past SPEAKER_BEHIND: `IPs:` is a label', () => {
    expect(spans(knownBefore(6))).toEqual(people('Nicole', 'John'));
  });

  // Ahead, raw characters: John starts 26 + 4 × `filler` characters after `IPs`.
  const knownAfter = (filler: number) =>
    `IPs: 10.0.0.1\n${'the '.repeat(filler)}\nNicole: hi\nJohn: yo`;

  it('both known speakers within SPEAKER_AHEAD characters make `IPs:` a speaker', () => {
    expect(spans(knownAfter(9))).toEqual(people('IPs', 'Nicole', 'John'));
  });

  it('John past SPEAKER_AHEAD: `IPs:` is a label', () => {
    expect(spans(knownAfter(10))).toEqual(people('Nicole', 'John'));
  });

  // `Zed` starts 60 + `pad` characters after `mateus`.
  const chat = (pad: number) => `omg mateus just called${' the'.repeat(10)} ${'a'.repeat(pad)} Zed`;

  it('a capital CHAT_AHEAD characters ahead: no chat line, no name after `omg`', () => {
    expect(spans(chat(4))).toEqual([]);
  });

  it('a capital a character past CHAT_AHEAD: a chat line, `mateus` is a name', () => {
    expect(spans(chat(5))).toEqual(people('mateus'));
  });

  // `bjorn` starts `pad` + 9 characters after `We` ends (a capital outside every entity).
  const behindChat = (pad: number) => `We ${'x'.repeat(pad)} me and bjorn went`;

  it('a capital ending CHAT_BEHIND characters before: no chat line, `bjorn` no name', () => {
    expect(spans(behindChat(55))).toEqual([]);
  });

  it('a capital a character past CHAT_BEHIND: a chat line, `bjorn` is a name', () => {
    expect(spans(behindChat(56))).toEqual(people('bjorn'));
  });

  const surnames = [
    'Becker',
    'Vasquez',
    'Kowalski',
    'Okafor',
    'Lindqvist',
    'Haddad',
    'Moreau',
    'Tanaka',
    'Novak',
    'Petrov',
    'Jansen',
    'Costa',
    'Weber',
    'Fischer',
    'Ricci',
    'Rossi',
  ];
  const firmList = (items: number) =>
    `We thank ${surnames.slice(0, items - 1).join(' and ')} and Loveland Technologies.`;

  it('a list of LIST_ITEMS spans with a firm word is a list of firms', () => {
    expect(spans(firmList(LIST_ITEMS))).toEqual([
      ...surnames.slice(0, 15).map((name): [string, string] => ['ORGANIZATION', name]),
      ['ORGANIZATION', 'Loveland Technologies'],
    ]);
  });

  it('a run of LIST_ITEMS + 1 spans is no list: its spans keep their types', () => {
    expect(spans(firmList(LIST_ITEMS + 1))).toEqual([
      ...people('Becker', 'Vasquez', 'Kowalski', 'Okafor'),
      ...surnames.slice(4).map((name): [string, string] => ['ORGANIZATION', name]),
      ['ORGANIZATION', 'Loveland Technologies'],
    ]);
  });

  const words = [
    'Rain',
    'Snow',
    'Hill',
    'Stone',
    'Wood',
    'Field',
    'Brook',
    'Lake',
    'Rivers',
    'Frost',
    'Banks',
    'Marsh',
    'Hale',
    'Dale',
    'Moss',
    'Reed',
    'Heath',
  ];
  const founders = (items: number) =>
    `Our founders: ${words.slice(0, items - 1).join(', ')} and ${words[items - 1]} spoke.`;

  it('ROLE_ITEMS names after a plural role noun are people', () => {
    expect(spans(founders(ROLE_ITEMS))).toEqual(people(...words.slice(0, 16)));
  });

  it('the name after the ROLE_ITEMS-th is read as the tagger reads it', () => {
    expect(spans(founders(ROLE_ITEMS + 1))).toEqual(people(...words.slice(0, 16)));
  });

  const addressLine = (parts: number) =>
    `Note:\n${'Paris 75001 Road Grace - '.repeat(parts).trim()}\nEnd.`;

  it('a cluster of address runs within ADDRESS_CLUSTER characters is joined', () => {
    const text = addressLine(25);
    const part = 'Paris 75001 Road Grace - ';
    expect(spans(text)).toEqual([
      ['PERSON', 'Paris'],
      ['STREET_ADDRESS', `${part.repeat(6).slice(6)}Paris 75001 Road`],
      ['STREET_ADDRESS', `${part.repeat(6)}Paris`],
      ['STREET_ADDRESS', `${part.repeat(6)}Paris`],
      ['STREET_ADDRESS', `${part.repeat(3)}Paris 75001 Road Grace`],
      ['LOCATION', 'End'],
    ]);
  });

  it('a cluster longer than ADDRESS_CLUSTER widens nothing', () => {
    expect(spans(addressLine(26))).toEqual([
      ['PERSON', 'Paris'],
      ['STREET_ADDRESS', '75001 Road Grace'],
      ...Array.from({ length: 25 }, (): [string, string] => [
        'STREET_ADDRESS',
        'Paris 75001 Road Grace',
      ]),
      ['LOCATION', 'End'],
    ]);
  });
});
