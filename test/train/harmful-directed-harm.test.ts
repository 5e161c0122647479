import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DIRECTED_HARM_SIGNALS,
  directedHarmFeatures,
  directedHarmMask,
} from '../../scripts/train/harmful/directed-harm';
import {
  DIRECTED_HARM_GROUP,
  directedHarmRows,
} from '../../scripts/train/harmful/directed-harm-rows';
import { isCalibrationRow } from '../../scripts/train/train-harmful';
import {
  DEFAULT_HARMFUL_THRESHOLD,
  scoreHarmful,
} from '../../src/guards/harmful-content/score-harmful';
import { foldText } from '../../src/guards/prompt-injection/fold-text';

/** The signal names present in `text` (folded first, as the scorer folds it). */
const signals = (text: string) => {
  const folded = foldText(text);
  const mask = directedHarmMask(folded, 0, folded.length);
  return DIRECTED_HARM_SIGNALS.filter((_, at) => (mask & (1 << at)) !== 0);
};

describe('directedHarmMask (round 50, hG)', () => {
  it('finds a threat only from a first-person intent through a harm verb to "you"', () => {
    expect(signals("Tonight I'm going to hurt you")).toEqual(['threat']);
    // The harm verb is 8 words after the intent (reach 5): no threat.
    expect(signals("Tonight I'm going to wait by the door and hurt you")).toEqual([]);
    expect(signals('I will find you and we will hurt your sister')).toEqual(['threat']);
    expect(signals('Going to hurt you is not a plan')).toEqual([]);
    expect(signals('I will hurt my back if I lift the sofa alone, can you help?')).toEqual([]);
  });

  it('finds wishes of harm, goading to self-harm and abusive vocatives', () => {
    expect(signals('I hope you get sick and die')).toEqual(['wish']);
    expect(signals('I hope you get well soon')).toEqual([]);
    expect(signals('Nobody likes you, go kill yourself')).toEqual(['self']);
    expect(signals('Go hang yourself')).toEqual(['self']);
    // "end" is not a harm verb (end the meeting, end the loop): not read.
    expect(signals('You should end your own life')).toEqual([]);
    expect(signals('You useless idiot, go away')).toEqual(['vocative']);
    expect(signals('Thank you for the lovely dinner')).toEqual([]);
  });

  it('gives each signal its copies, once per signal', () => {
    const features = directedHarmFeatures(0b1010, 18, 3);
    expect(features).toHaveLength(6);
    expect(new Set(features).size).toBe(6);
    expect(features.every(index => index >= 0 && index < 2 ** 18)).toBe(true);
    expect(directedHarmFeatures(0, 18, 3)).toEqual([]);
  });
});

describe('the directed-harm training rows (scripts/train/harmful/directed-harm-rows.ts)', () => {
  it('are 176 distinct harmful rows of their own source, sorted, never calibrating', () => {
    const rows = directedHarmRows();
    expect(rows).toHaveLength(176);
    expect(new Set(rows.map(row => row.text)).size).toBe(176);
    const perFamily = new Map<string, number>();
    for (const row of rows) perFamily.set(row.family, (perFamily.get(row.family) ?? 0) + 1);
    expect(Object.fromEntries([...perFamily].sort())).toEqual({
      'synthetic-directed-abuse': 60,
      'synthetic-directed-extortion': 16,
      'synthetic-directed-goading': 8,
      'synthetic-directed-threat': 60,
      'synthetic-directed-wish': 32,
    });
    expect(rows.every(row => row.label === 1 && row.group === DIRECTED_HARM_GROUP)).toBe(true);
    expect(rows.some(isCalibrationRow)).toBe(false);
    expect(rows.map(row => row.id)).toEqual(rows.map(row => row.id).sort());
    expect(directedHarmRows()).toEqual(rows);
    expect(rows[0]).toEqual({
      id: 'directed-0149a358',
      text: 'You worthless waste of oxygen, crawl back into your hole and die',
      label: 1,
      group: 'synthetic:directed-harm',
      family: 'synthetic-directed-abuse',
    });
  });

  it('share no text with the round-50 look-alike fixture', () => {
    const fixture = readFixture();
    const texts = new Set(directedHarmRows().map(row => foldText(row.text)));
    expect(fixture.filter(row => texts.has(foldText(row.text)))).toEqual([]);
  });
});

function readFixture(): { text: string; label: number; topic: string }[] {
  return readFileSync(
    new URL('../fixtures/r50-harmful-directed-harm-benign.jsonl', import.meta.url),
    'utf8',
  )
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line));
}

describe('benign look-alikes of harm aimed at the reader (round 50 fixture)', () => {
  it('the shipped model blocks 23 of the 60 (banter, idioms, quoted threats, tech "kill")', () => {
    const rows = readFixture();
    expect(rows).toHaveLength(60);
    const blocked = rows.filter(row => scoreHarmful(row.text).score >= DEFAULT_HARMFUL_THRESHOLD);
    const byTopic = new Map<string, number>();
    for (const row of blocked) byTopic.set(row.topic, (byTopic.get(row.topic) ?? 0) + 1);
    expect(Object.fromEntries([...byTopic].sort())).toEqual({
      advice: 1,
      banter: 6,
      health: 1,
      history: 1,
      idiom: 3,
      misc: 2,
      quote: 4,
      sport: 1,
      tech: 2,
      wish: 2,
    });
  });

  it.fails('blocks the quoted threat asked about for safety: "I\'m going to make you pay" (0.992 today)', () => {
    // Over-blocking of the kind, found in round 50 and not fixed: the n-grams of
    // the quoted threat outweigh the help-seeking frame around it.
    const text =
      'My ex texted me "I\'m going to make you pay for this". Should I go to the police?';
    expect(scoreHarmful(text).score).toBeLessThan(DEFAULT_HARMFUL_THRESHOLD);
  });
});

describe('harm aimed at the reader, own strings, shipped model', () => {
  it('blocks threats, wishes of harm and goading (exact scores)', () => {
    const score = (text: string) => Math.round(scoreHarmful(text).score * 1000) / 1000;
    expect(score("Tonight I'm going to wait outside your flat and hurt you")).toBe(0.965);
    expect(score('I hope you get sick and die alone in that apartment')).toBe(0.988);
    expect(score('Nobody likes you, go kill yourself')).toBe(0.978);
  });

  it.fails('blocks an extortion threat without a harm verb (0.716 today)', () => {
    // Missed in round 50: the shipped model's threat words are violent verbs;
    // a demand with "or your photos go to …" carries none of them.
    const text = 'Pay me a thousand dollars or your photos go to your parents';
    expect(scoreHarmful(text).score).toBeGreaterThanOrEqual(DEFAULT_HARMFUL_THRESHOLD);
  });
});
