import { describe, expect, it } from 'vitest';
import {
  LANGUAGE_REQUESTS_GROUP,
  languageRequestRows,
} from '../../scripts/train/harmful/language-requests';
import { isCalibrationRow } from '../../scripts/train/train-harmful';
import { foldText } from '../../src/guards/prompt-injection/fold-text';
import { harmfulFixtureTexts as fixtureTexts } from './harmful-fixture-texts';

describe('the language-request training rows (scripts/train/harmful/language-requests.ts)', () => {
  it('are 240 distinct benign ordinary prompts of their own source, twelve per language and 120 English', () => {
    const rows = languageRequestRows();
    expect(rows).toHaveLength(240);
    expect(new Set(rows.map(row => row.id)).size).toBe(240);
    expect(new Set(rows.map(row => row.text)).size).toBe(240);
    const perFamily = new Map<string, number>();
    for (const row of rows) perFamily.set(row.family, (perFamily.get(row.family) ?? 0) + 1);
    expect(Object.fromEntries([...perFamily].sort())).toEqual({
      'synthetic-ar': 12,
      'synthetic-bn': 12,
      'synthetic-en-writing': 120,
      'synthetic-fr': 12,
      'synthetic-it': 12,
      'synthetic-jv': 12,
      'synthetic-ko': 12,
      'synthetic-sw': 12,
      'synthetic-th': 12,
      'synthetic-vi': 12,
      'synthetic-zh': 12,
    });
    expect(
      rows.every(
        row =>
          row.label === 0 &&
          row.kind === 'general' &&
          row.group === LANGUAGE_REQUESTS_GROUP &&
          row.augmentOf === undefined,
      ),
    ).toBe(true);
    expect(languageRequestRows()).toEqual(rows);
    expect(rows.map(row => row.id)).toEqual(rows.map(row => row.id).sort());
    expect(rows[0]).toEqual({
      id: 'language-0070d805',
      text: 'Help me write an opening statement for a class debate: people should eat more vegetables',
      label: 0,
      group: 'synthetic:language-requests',
      family: 'synthetic-en-writing',
      kind: 'general',
    });
  });

  it("generate none of the report fixtures, nor the pinned prompts' topics, so they stay report cases", () => {
    const generated = new Set(languageRequestRows().map(row => foldText(row.text)));
    expect(fixtureTexts.length).toBeGreaterThan(200);
    expect(fixtureTexts.filter(text => generated.has(foldText(text)))).toEqual([]);
    // Nor the pinned report prompts' topics (attack-r48-review-languages.test.ts,
    // text-request.test.ts): school start times, rice, maths homework, maize,
    // learning English, a job application letter, pho.
    const topics = /start later|\bwali\b|\bhesabu\b|mahindi|kiingereza|kuomba kazi|phở|ภาษาอังกฤษ/i;
    expect(languageRequestRows().filter(row => topics.test(row.text))).toEqual([]);
  });

  it('train only: never in the calibration slice that picks the threshold', () => {
    expect(languageRequestRows().filter(isCalibrationRow)).toEqual([]);
  });
});
