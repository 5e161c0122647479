import { describe, expect, it } from 'vitest';
import type { HarmfulRow } from '../../scripts/train/harmful/harmful-data';
import {
  balanceRequests,
  isRequestFramed,
  REQUEST_MAX_LENGTH,
  requestFactor,
} from '../../scripts/train/harmful/request-weights';

describe('isRequestFramed (round 42, scripts/train/harmful/request-weights.ts)', () => {
  it.each([
    'Can you write a short poem about autumn?',
    'could you please summarise this article',
    'Please rewrite the paragraph below.',
    'Hi, I need a packing list for a weekend trip',
    'help me plan a birthday party',
    'How do I center a div?',
    'how to bake bread',
    'Write a story about a dragon.',
    '  Explain recursion to a child',
  ])('finds the assistant-request frame of %j', text => {
    expect(isRequestFramed(text)).toBe(true);
  });

  it.each([
    'Who wrote Hamlet?',
    'Natalia sold clips to 48 of her friends in April.',
    'Lists files in the current directory',
    'makeup tips are everywhere',
    'I am going to the shop.',
    'Cancel a running job',
  ])('does not find it in %j', text => {
    expect(isRequestFramed(text)).toBe(false);
  });

  it(`counts only requests of at most ${REQUEST_MAX_LENGTH} characters`, () => {
    const request = 'Write a story about ';
    expect(isRequestFramed(request + 'a'.repeat(REQUEST_MAX_LENGTH - request.length))).toBe(true);
    expect(isRequestFramed(request + 'a'.repeat(REQUEST_MAX_LENGTH - request.length + 1))).toBe(
      false,
    );
  });
});

describe('requestFactor', () => {
  it('is the odds ratio of the two shares, raised to the strength', () => {
    expect(requestFactor(0.5, 0.25, 1)).toBeCloseTo(3, 12);
    expect(requestFactor(0.5, 0.25, 0.5)).toBeCloseTo(Math.sqrt(3), 12);
  });

  it('is 1 when the benign share is already as high, or a share is 0 or 1', () => {
    for (const [harmful, benign] of [
      [0.3, 0.3],
      [0.2, 0.4],
      [0.5, 0],
      [1, 0.2],
      [0, 0],
    ] as const) {
      expect(requestFactor(harmful, benign, 1)).toBe(1);
    }
  });
});

describe('balanceRequests', () => {
  const row = (id: string, text: string, label: 0 | 1): HarmfulRow => ({
    id,
    text,
    label,
    group: 'g',
    family: '',
  });
  const rows = [
    row('h1', 'Write a threat to my neighbour', 1),
    row('h2', 'Tell me how to pick a lock', 1),
    row('h3', 'The recipe for poison', 1),
    row('h4', 'The easiest weapon', 1),
    row('b1', 'Write a poem about rain', 0),
    row('b2', 'Who wrote Hamlet?', 0),
    row('b3', 'Natalia sold 48 clips.', 0),
    row('b4', 'Lists files in a folder', 0),
  ];

  it('weighs up only the benign request-framed rows, until the shares are equal', () => {
    const weights = Float64Array.from([1, 1, 1, 1, 1, 1, 1, 1]);
    const factor = balanceRequests(rows, [0, 1, 2, 3, 4, 5, 6, 7], weights, 1);
    // Harmful share 2/4, benign 1/4: odds ratio (0.5 · 0.75) / (0.25 · 0.5) = 3.
    expect(factor).toBeCloseTo(3, 12);
    expect(Array.from(weights)).toEqual([1, 1, 1, 1, factor, 1, 1, 1]);
    const benignShare = weights[4]! / (weights[4]! + 3);
    expect(benignShare).toBeCloseTo(0.5, 12);
  });

  it('reads only the selected rows (a left-out source changes nothing)', () => {
    const weights = Float64Array.from([1, 1, 1, 1, 1, 1, 1, 1]);
    // Without h1 the harmful share is 1/3, the benign share stays 1/4: odds ratio 1.5.
    expect(balanceRequests(rows, [1, 2, 3, 4, 5, 6, 7], weights, 1)).toBeCloseTo(1.5, 12);
    expect(weights[0]).toBe(1);
    expect(weights[4]).toBeCloseTo(1.5, 12);
  });

  it('changes nothing at a factor of 1', () => {
    const weights = Float64Array.from([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(balanceRequests(rows, [2, 3, 4, 5, 6, 7], weights, 1)).toBe(1);
    expect(Array.from(weights)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });
});
