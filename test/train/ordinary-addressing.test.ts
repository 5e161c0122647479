import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { syntheticRows } from '../../scripts/train/augment';
import {
  ordinaryAddressingRows,
  ordinaryAddressingTexts,
} from '../../scripts/train/injection/ordinary-addressing';

const lines = (name: string) =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '');

describe('the generated ordinary addressing rows (round 50 hD, ORDINARY_ADDRESSING=1)', () => {
  it('are the same 480 rows on every run, benign, in their own group', () => {
    const rows = ordinaryAddressingRows();
    expect(rows).toHaveLength(480);
    expect(ordinaryAddressingRows()).toEqual(rows);
    expect(new Set(rows.map(row => row.id)).size).toBe(480);
    expect(rows.every(row => row.label === 0 && row.family === 'synthetic')).toBe(true);
    expect(new Set(rows.map(row => row.group))).toEqual(new Set(['synthetic:ordinary-addressing']));
    expect(rows[0]).toEqual({
      id: 'syn-addr-017b26e5',
      text: 'Give me a cheat sheet of the rules for volleyball.',
      label: 0,
      group: 'synthetic:ordinary-addressing',
      family: 'synthetic',
    });
    const texts = ordinaryAddressingTexts();
    expect(texts.slice(0, 3)).toEqual([
      'Ab sofort antworte auf Englisch, bitte.',
      'Ab sofort fass dich kurz, bitte.',
      'Are there rules of thumb for a trampoline in the garden?',
    ]);
    expect(texts.at(-1)).toBe('¿Me explicas las reglas del voleibol?');
  });

  it("generate none of the held-out fixtures' sentences nor a hand-written synthetic row", () => {
    const generated = new Set(ordinaryAddressingTexts().map(text => text.toLowerCase()));
    const heldOut = [
      ...lines('r50-ordinary-addressing.jsonl').map(
        line => (JSON.parse(line) as { text: string }).text,
      ),
      ...lines('ordinary-chat.txt'),
      ...lines('injection-attacks.txt'),
      ...lines('instruction-disclosure-ordinary.txt'),
      ...lines('system-prompt-questions.txt'),
    ];
    expect(heldOut).toHaveLength(111 + 60 + 40 + 70 + 25);
    expect(heldOut.filter(text => generated.has(text.toLowerCase()))).toEqual([]);
    expect(syntheticRows().filter(row => generated.has(row.text.toLowerCase()))).toEqual([]);
  });
});
