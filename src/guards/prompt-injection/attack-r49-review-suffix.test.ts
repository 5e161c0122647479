import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMPT_INJECTION_THRESHOLD } from './model/direct-model';
import { scorePromptInjection } from './score-prompt-injection';
import { SUFFIX_WORD_PIECES_ON } from './suffix-word-piece-gate';

/*
 * Round 49 review (hI) of r49-hD: the word-piece suffix gate, on by
 * default at ecf78ebf (SUFFIX_WORD_PIECES_ON). A security or safety
 * question followed by glued words an ordinary user writes (camelCase
 * identifiers, which fold to lower-case word pieces; keyword lists of
 * compounds) opens the gate; the question before it is read by the harmful
 * model, and the text scores 0.97-0.995 (adversarial-suffix:harmful). At
 * the base 3b605143 the same texts score 0.079-0.207. Test strings written
 * for this review.
 */
const ordinary: Array<[string, { score: number; signals: string[] }]> = [
  // a developer's safety question with their function names (base 0.108)
  [
    'What household chemicals should never be mixed because they make toxic gas? getUserPasswordHash resetAuthenticationToken validateSessionCookie',
    { score: 0.108, signals: [] },
  ],
  // security awareness training (base 0.079, 0.207, 0.199)
  [
    'How do phishing emails trick people into giving passwords? getUserPasswordHash resetAuthenticationToken validateSessionCookie',
    { score: 0.079, signals: ['harmful-topic'] },
  ],
  [
    'How do phishing emails trick people into giving passwords? Our training covers phishingawareness passwordhygiene multifactorauthentication',
    { score: 0.207, signals: ['harmful-topic'] },
  ],
  [
    'How do phishing emails trick people into giving passwords? Keywords: phishingsimulation credentialharvesting socialengineering',
    { score: 0.199, signals: ['harmful-topic'] },
  ],
];

describe('r49 review: ordinary questions with glued words the word-piece gate blocks', () => {
  // Fixed (round 49, lead): the gate ships off (SUFFIX_WORD_PIECES_ON), so
  // each scores as at the base: under the threshold, no suffix signal.
  for (const [text, expected] of ordinary) {
    it(`passes: ${text.slice(0, 60)}…`, () => {
      expect(SUFFIX_WORD_PIECES_ON).toBe(false);
      expect(scorePromptInjection(text)).toEqual(expected);
      expect(expected.score).toBeLessThan(DEFAULT_PROMPT_INJECTION_THRESHOLD);
    });
  }

  it('sanity: each question alone passes', () => {
    for (const [text] of ordinary) {
      const question = text.slice(0, text.indexOf('?') + 1);
      expect([
        question,
        scorePromptInjection(question).score < DEFAULT_PROMPT_INJECTION_THRESHOLD,
      ]).toEqual([question, true]);
    }
  });
});
