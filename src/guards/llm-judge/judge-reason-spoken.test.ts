import { describe, expect, it } from 'vitest';
import { withoutQuotes } from './reason-masking';

/*
 * Round 36: a judge that spelled an address out (`jane dot doe at example
 * dot com`) had only its first word masked: the record, the events and a
 * retry's feedback carried `doe at example dot com`. `at` and `dot` as
 * whole words now read as the `@` and `.` they stand for (nothing, in a
 * skeleton, like every other punctuation mark), in the reason and in the
 * judged texts alike.
 */
const content = 'Write to jane.doe@example.com about the refund.';

describe('llmJudge reason masking: an address spelled out', () => {
  it.each([
    'The answer names jane dot doe at example dot com.',
    'The answer names JANE DOT DOE AT EXAMPLE DOT COM.',
    'The answer names jane [dot] doe [at] example [dot] com.',
    'The answer names jane.doe at example.com.',
  ])('%s', reason => {
    expect(withoutQuotes(reason, [content, ''])).toBe('The answer names [quoted].');
  });

  it('masks an address the judged text spelled out and the reason wrote plainly', () => {
    expect(
      withoutQuotes('Mentions jane.doe@example.com.', ['mail jane dot doe at example dot com', '']),
    ).toBe('Mentions [quoted].');
  });

  it('leaves words that only contain at or dot alone', () => {
    expect(withoutQuotes('The message is about a cat and a dotted line.', [content, ''])).toBe(
      'The message is about a cat and a dotted line.',
    );
  });
});
