import { describe, expect, it } from 'vitest';
import { findNamedEntities } from './find-named-entities';

/** The spans of `text` as `TYPE:value` strings. */
function found(text: string): string[] {
  return findNamedEntities(text).map(span => `${span.type}:${text.slice(span.start, span.end)}`);
}

/**
 * Round 43 (issue 17): a capitalised name right after a request's verb at a sentence's start
 * (chat-names.ts, `capitalisedAfterImperatives`). Sentences written for these tests, none from
 * the dev split or a hand-written fixture; each case read differently before the rule (noted).
 */
describe('names after a request to someone', () => {
  it.each<[string, string[]]>([
    // before: nothing
    ['Ask Turing about the budget.', ['PERSON:Turing']],
    // before: nothing
    ['Remind Okafor to sign the form.', ['PERSON:Okafor']],
    // before: nothing
    ['Tell Okonkwo the plan changed.', ['PERSON:Okonkwo']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('makes no name of a common word, a place or a word before another capitalised word', () => {
    expect(found('Call Support if it breaks.')).toEqual([]);
    expect(found('Email Marketing is dead.')).toEqual([]);
    expect(found('Call London before noon.')).toEqual([]);
    expect(found('Tell Will I said hi.')).toEqual([]);
  });

  it('needs the verb at a sentence start', () => {
    expect(found('We will call Turing soon.')).not.toContain('PERSON:Turing');
  });
});
