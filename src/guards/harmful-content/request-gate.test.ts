import { describe, expect, it } from 'vitest';
import { foldText } from '../prompt-injection/fold-text';
import { InjectionScorer } from '../prompt-injection/injection-model';
import { bestHarmfulWindow } from './harmful-model';
import { HarmfulScorer } from './harmful-scorer';
import { gatedSum, requestBucket, requestOpeningEnd, sigmoid } from './request-gate';

const bits = 12;
/** Weights that differ per bucket (so a wrong bucket changes the sum). */
const weights = Int8Array.from({ length: 1 << bits }, (_, bucket) => ((bucket * 37) % 255) - 127);
const spec = {
  bits,
  weights,
  scale: 0.01,
  bias: 0.25,
  suffixWeights: [0, 0, 0],
  plattA: 1,
  plattB: 0,
};

describe('requestOpeningEnd', () => {
  it('finds the request opening of folded text', () => {
    const opening = (text: string) => text.slice(0, requestOpeningEnd(text));
    expect(opening('can you make this email more polite?')).toBe('can you make');
    expect(opening('make the email more polite.')).toBe('make');
    expect(opening('i need to write a letter to my boss')).toBe('i need to write');
    expect(opening('hi, could you please give me a recipe')).toBe('hi, could you please give me');
    expect(opening('how do i kill a python process')).toBe('how do i');
    expect(opening('what is the best way to cook rice')).toBe('what is the best way to');
    expect(opening('tell me a joke')).toBe('tell me');
  });

  it('finds none in text that does not open with a request, or in a longer word', () => {
    expect(requestOpeningEnd('the weather is nice')).toBe(0);
    expect(requestOpeningEnd('writer block')).toBe(0);
    expect(requestOpeningEnd('')).toBe(0);
    expect(requestOpeningEnd(`${' '.repeat(200)}write a poem`)).toBe(0);
  });
});

describe('gatedSum', () => {
  const weight = (bucket: number) => [0, 2, -4, 6][bucket]!;

  it('adds the request part times σ(topic + offset), all scaled by 1/√n', () => {
    // topic buckets 1, 2; request bucket 3 (as ~3)
    const { topic, request, gate, sum } = gatedSum([1, 2, ~3], weight, 0.5);
    expect(topic).toBeCloseTo(-2 / Math.sqrt(3), 12);
    expect(request).toBeCloseTo(6 / Math.sqrt(3), 12);
    expect(gate).toBeCloseTo(sigmoid(-2 / Math.sqrt(3) + 0.5), 12);
    expect(sum).toBeCloseTo(topic + gate * request, 12);
  });

  it('shuts the request part out when the topic carries no harm evidence', () => {
    expect(gatedSum([~3], weight, -30).sum).toBeCloseTo(0, 9);
    expect(gatedSum([~3], weight, 30).sum).toBeCloseTo(6, 9);
    expect(gatedSum([], weight, 0)).toEqual({ topic: 0, request: 0, gate: 0.5, sum: 0 });
  });
});

describe('HarmfulScorer with the request gate', () => {
  const text = foldText('Can you make this email more polite?');
  const cut = requestOpeningEnd(text);

  it('reads the opening apart from the rest, in its own buckets, only in a window at the start', () => {
    const plain = new InjectionScorer(spec);
    const topic = [...plain.features(text, cut, text.length)];
    const request = [...plain.features(text, 0, cut)].map(index => ~requestBucket(index, bits));
    const gated = new HarmfulScorer(spec, { noisyTailMaxLength: 0, requestGate: -1 });
    expect([...gated.features(text, 0, text.length)]).toEqual([...topic, ...request]);
    expect(request.every(feature => feature < 0 && ~feature < 1 << bits)).toBe(true);
    expect([...gated.features(text, 4, text.length)]).toEqual([
      ...plain.features(text, 4, text.length),
    ]);
  });

  it('scores bias + t + σ(t + offset) · r, and the plain sum without the option', () => {
    const gated = new HarmfulScorer(spec, { noisyTailMaxLength: 0, requestGate: -1 });
    const features = gated.features(text, 0, text.length).slice();
    const { sum } = gatedSum(features, bucket => weights[bucket]! * spec.scale, -1);
    expect(gated.logit(features, 0).logit).toBeCloseTo(spec.bias + sum, 12);
    expect(bestHarmfulWindow(text, gated).logit).toBeCloseTo(spec.bias + sum, 12);
    const shipped = new HarmfulScorer(spec, { noisyTailMaxLength: 0 });
    const plain = new InjectionScorer(spec);
    expect(bestHarmfulWindow(text, shipped).logit).toBe(
      plain.logit(plain.features(text, 0, text.length), 0).logit,
    );
  });

  it('keeps the offset in its readings and rejects a non-finite one with a typed error', () => {
    expect(
      new HarmfulScorer(spec, { noisyTailMaxLength: 4096, requestGate: -1.5 }).readings,
    ).toEqual({
      noisyTailMaxLength: 4096,
      requestGate: -1.5,
    });
    expect(
      () => new HarmfulScorer(spec, { noisyTailMaxLength: 0, requestGate: Number.NaN }),
    ).toThrow('HarmfulScorer: requestGate must be a finite number, got NaN');
    expect(
      () => new HarmfulScorer(spec, { noisyTailMaxLength: 0, requestGate: '1' as never }),
    ).toThrow(RangeError);
  });
});
