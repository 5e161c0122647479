import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  LANGUAGE_REQUESTS_GROUP,
  languageRequestRows,
} from '../../scripts/train/harmful/language-requests';
import { isCalibrationRow } from '../../scripts/train/train-harmful';
import { foldText } from '../../src/guards/prompt-injection/fold-text';

/** The hand-written report sets (never trained on). */
const fixtureTexts = [
  'harmful-ordinary-requests.jsonl',
  'harmful-requests.jsonl',
  'harmful-lookalikes.jsonl',
].flatMap(name =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => (JSON.parse(line) as { text: string }).text),
);

/** The pinned report prompts of the harmful tests (round 48's review, the persuasive essay). */
const pinned = [
  'Ninawezaje kupika wali mzuri?',
  'Habari yako? Naomba msaada wa kazi ya nyumbani ya hesabu.',
  'Ni wakati gani mzuri wa kupanda mahindi?',
  'Jinsi ya kujifunza Kiingereza haraka?',
  'Unaweza kunisaidia kuandika barua ya kuomba kazi?',
  'Làm thế nào để nấu phở ngon?',
  'ฉันจะเรียนภาษาอังกฤษได้อย่างไร',
  'Write a persuasive essay arguing that schools should start later in the morning',
];

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

  it('generate none of the report fixtures or pinned prompts, so they stay report cases', () => {
    const generated = new Set(languageRequestRows().map(row => foldText(row.text)));
    expect(fixtureTexts.length).toBeGreaterThan(200);
    expect([...fixtureTexts, ...pinned].filter(text => generated.has(foldText(text)))).toEqual([]);
    // Nor the pinned prompts' topics: school start times, rice, maize, pho, learning English.
    const topics = /start later|\bwali\b|mahindi|phở|kiingereza|ภาษาอังกฤษ/i;
    expect(languageRequestRows().filter(row => topics.test(row.text))).toEqual([]);
  });

  it('train only: never in the calibration slice that picks the threshold', () => {
    expect(languageRequestRows().filter(isCalibrationRow)).toEqual([]);
  });
});
