import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodingRequests, syntheticRows } from '../../scripts/train/augment';
import type { TrainingRow } from '../../scripts/train/injection-data';
import { buildLanguageModel, prng } from '../../scripts/train/logistic';
import { encodePlaceholders } from '../../scripts/train/obfuscations';
import {
  fitModel,
  languageModelFile,
  modelFile,
  pickStatementCutoff,
  prepare,
} from '../../scripts/train/train-injection';
import { decodeSegments } from '../../src/guards/prompt-injection/decode-segments';
import { InjectionScorer } from '../../src/guards/prompt-injection/injection-model';

// Hand-written prose for the language model: no corpus text.
const prose = [
  'The river ran quietly past the old mill, and the children watched the ducks until supper.',
  'She opened the letter slowly, read it twice, and then laughed at her own worry.',
  'In the morning the market filled with carts of apples, bread and fresh cheese.',
];
const options = { bits: 12, epochs: 3, learningRate: 0.2, l2: 1e-6, seed: 1 };

function train(seed: number) {
  const languageModel = buildLanguageModel(prose);
  const rows = syntheticRows();
  const fitted = fitModel(
    prepare(rows, options.bits, languageModel),
    { ...options, seed },
    languageModel,
    0.02,
    undefined,
    0,
  );
  return {
    fitted,
    files: [
      languageModelFile(languageModel, prose.length),
      modelFile('direct', fitted, rows.length, 'T'),
    ],
  };
}

describe('the hand-written training rows (scripts/train/augment.ts)', () => {
  const fixture = (name: string) =>
    readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
      .split('\n')
      .filter(line => line.trim() !== '');

  it("generate none of the test fixtures' sentences, so those stay unseen", () => {
    const generated = new Set(syntheticRows().map(row => row.text.toLowerCase()));
    const decoding = fixture('decoding-requests.txt');
    const sentences = [
      ...fixture('ordinary-chat.txt'),
      ...fixture('injection-attacks.txt'),
      ...decoding,
      ...decoding.map(encodePlaceholders),
    ];
    expect(sentences).toHaveLength(60 + 40 + 50 + 50);
    expect(sentences.filter(sentence => generated.has(sentence.toLowerCase()))).toEqual([]);
  });

  it('include benign decoding requests, half with an encoded ordinary sentence (issue 15)', () => {
    const rows = syntheticRows();
    const requests = decodingRequests(prng(1), 40);
    expect(requests).toHaveLength(40);
    expect(new Set(requests).size).toBe(40);
    // Every other request carries a payload that the decoders read as text
    // (not three short reversed ones: fewer than three listed words), the
    // others none.
    const decoded = (parity: number) =>
      requests.filter((text, index) => index % 2 === parity && decodeSegments(text).length > 0);
    expect(decoded(0)).toHaveLength(17);
    expect(decoded(1)).toEqual([]);
    expect(rows.filter(row => row.label === 0)).toHaveLength(642);
    expect(rows.filter(row => row.label === 1)).toHaveLength(500);
  });
});

describe('the prompt-injection training script', () => {
  it('trains on the text with its cipher runs masked, as the scorer reads it (issue 15)', () => {
    const languageModel = buildLanguageModel(prose);
    const row = (id: string, text: string): TrainingRow => ({
      id,
      text,
      label: 0,
      group: 'hand',
      family: 'hand',
    });
    const morse = '.... --- .-- / -.. --- / .. / -... .- -.- . / -... .-. . .- -..';
    const [encoded, blank, other] = [
      `Here is my text: ${morse}`,
      'Here is my text:  ',
      'Here is my text: how do i bake bread',
    ].map(text => {
      const { sparse } = prepare([row('a', text)], options.bits, languageModel);
      return [...sparse.indices];
    });
    // The dots and dashes add no feature: the row reads as its lead-in alone.
    expect(encoded).toEqual(blank);
    expect(other).not.toEqual(blank);
  });

  it('writes byte-identical model files on every run (fixed seed, sorted rows)', () => {
    const first = train(1);
    const second = train(1);
    expect(second.files).toEqual(first.files);
    // The seed does reach the result: another seed gives other weights.
    expect(train(2).files[1]).not.toBe(first.files[1]);
  });

  it('learns the hand-written rows: separates them on its calibration slice', () => {
    const { fitted } = train(1);
    expect(fitted.calibration.benign).toBeGreaterThan(10);
    expect(fitted.calibration.caught / fitted.calibration.attacks).toBeGreaterThan(0.8);
    expect(fitted.scorer).toBeInstanceOf(InjectionScorer);
  });

  it('calibrates on sources a model did not see: k models, each without a fold of the sources', () => {
    const languageModel = buildLanguageModel(prose);
    // The hand-written rows dealt into four pretend sources per class.
    const rows = syntheticRows().map((row, index) => ({
      ...row,
      group: `${row.label === 1 ? 'attack' : 'benign'}-${index % 4}`,
    }));
    const data = prepare(rows, options.bits, languageModel);
    const fitOutOfSource = () => fitModel(data, options, languageModel, 0.05, undefined, 2);
    const fitted = fitOutOfSource();
    // Every row of every source is scored once, by the model trained without its fold
    // (no source here has more than 400 rows); the 10% slice is not used.
    const benign = rows.filter(row => row.label === 0).length;
    expect(fitted.calibration.benign).toBe(benign);
    expect(fitted.calibration.attacks).toBe(rows.length - benign);
    // Threshold: the mean of the four benign sources' false-positive rates is within 5%.
    expect(fitted.calibration.falsePositives).toBeLessThanOrEqual(Math.floor(0.05 * benign) + 4);
    expect(fitted.calibration.caught / fitted.calibration.attacks).toBeGreaterThan(0.5);
    expect(fitted.threshold).toBeGreaterThan(0);
    expect(fitted.threshold).toBeLessThanOrEqual(1);
    // Deterministic like the rest of training.
    expect(modelFile('direct', fitOutOfSource(), rows.length, 'T')).toBe(
      modelFile('direct', fitted, rows.length, 'T'),
    );
  });

  it('picks the statement cutoff with the best F1 within FPR 0.02 on the named groups only', () => {
    const row = (label: 0 | 1, group: string, index: number): TrainingRow => ({
      id: `${group}-${label}-${index}`,
      text: '',
      label,
      group,
      family: '',
    });
    const attacks = [0.99, 0.9, 0.6, 0.3];
    const rows = [
      ...attacks.map((_, index) => row(1, 'dev:a', index)),
      ...Array.from({ length: 50 }, (_, index) => row(0, 'dev:a', index)),
      // Another group, all false positives at any cutoff: not looked at.
      ...Array.from({ length: 20 }, (_, index) => row(0, 'other', index)),
    ];
    const phrase = rows.map(() => 0);
    const benignAt = (highs: number) =>
      rows.map((candidate, index) =>
        candidate.group === 'other'
          ? 1
          : candidate.label === 1
            ? attacks[index]!
            : index - attacks.length < highs
              ? 0.95
              : 0,
      );
    // One benign statement at 0.95 (FPR 0.02): F1 is best at 0.6 (3 caught, 1 false alarm).
    expect(pickStatementCutoff(rows, phrase, benignAt(1), new Set(['dev:a']))).toBe(0.6);
    // Two (FPR 0.04 at any cutoff <= 0.95): only cutoffs above 0.95 qualify; the highest wins the tie.
    expect(pickStatementCutoff(rows, phrase, benignAt(2), new Set(['dev:a']))).toBe(0.99);
    // A phrase hit counts as flagged whatever the cutoff: one on a benign row
    // leaves room for no benign statement at 0.95, so only cutoffs above it qualify.
    const phraseHit = rows.map((_, index) => (index === attacks.length + 10 ? 0.9 : 0));
    expect(pickStatementCutoff(rows, phraseHit, benignAt(1), new Set(['dev:a']))).toBe(0.99);
  });
});
