import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut } from '../../../test/helpers';
import { countingModel, firstText } from '../../../test/r51-blind-stream';
import { guardrails } from '../../middleware/guardrails-middleware';
import { pii } from './pii';

/*
 * Round 51 review (hH) of r51-hD (issue 16, a potential-start hook for the
 * name tagger's entities in window mode, with a hold bound of 32,768).
 * An ordinary contacts export as a markdown table (a header, then one
 * `| Name | Company |` row per person), streamed in deltas of 20 with
 * pii PERSON / STREET_ADDRESS / LOCATION / ORGANIZATION redacting.
 *
 * At the base (e3931c8e) the table streams as it is written: the first
 * text reaches the reader after a few hundred characters of 50,558 (2,000
 * rows), and 2,300 rows (58,148 characters) stream to the end as generate
 * gives them. On r51-hD at c3debeef the hook holds the table whole: the
 * first text comes only after all 50,558 characters (one delta), and at 2,300 rows the hold
 * passes the bound and the answer ends with `content-filter` ("Sorry, I
 * can't help with that."), where generate redacts the names and keeps the
 * table. (A list of names one per line or joined by ` · `
 * is held whole at the base as well: the open name-list hold.)
 * At cb1e85c0 (the hold bound checked right past it) all three still
 * fail: the 2,000-row table shows its first text only after 32,820
 * characters. These pass at the base and on main at f2d7032a; if r51-hD merges as it is they become
 * `it.fails` (the lead's call).
 */
const FIRST = ['Anna', 'Ben', 'Carmen', 'Derek', 'Esther', 'Felix', 'Gina', 'Hiro', 'Ines'];
const LAST = ['Kowalski', 'Foster', 'Ruiz', 'Wong', 'Levi', 'Wagner', 'Russo', 'Tanaka', 'Silva'];
const FIRMS = ['Microsoft', 'Deloitte', 'Shopify', 'Telefónica', 'HSBC', 'Wix', 'SAP', 'Siemens'];

function table(rows: number): string {
  const lines = Array.from(
    { length: rows },
    (_, i) => `| ${FIRST[i % 9]} ${LAST[(i * 5) % 9]} | ${FIRMS[i % 8]} |`,
  );
  return `| Name | Company |\n|---|---|\n${lines.join('\n')}\n`;
}

const guard = () =>
  pii({ entities: ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'], action: 'redact' });

const windowed = () => guardrails({ output: [guard()], stream: { mode: 'window' } });

describe('attack r51 review: lists of names in window mode (r51-hD)', () => {
  // Base: first text after 960 of 5,145 characters. r51-hD at c3debeef:
  // after all of them (one delta); a CSV, a bullet list and a table of
  // names with a lower-case column are held whole the same way.
  it('a numbered list of 200 people and their firms shows text before its end', async () => {
    const text = Array.from(
      { length: 200 },
      (_, i) => `${i + 1}. ${FIRST[i % 9]} ${LAST[(i * 5) % 9]} – ${FIRMS[i % 8]}`,
    ).join('\n');
    expect(text.length).toBe(5_145);
    const { first, out } = await firstText(windowed(), text, [20]);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(2_048);
    expect(out.startsWith('1. [PERSON] – [ORGANIZATION]\n2. [PERSON] – [ORGANIZATION]')).toBe(true);
  }, 120_000);

  it('2,000 table rows: text reaches the reader long before the table ends', async () => {
    const text = table(2000);
    expect(text.length).toBe(50_558);
    const { first, out } = await firstText(windowed(), text, [20]);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(2_048);
    expect(
      out.startsWith('| Name | [ORGANIZATION] |\n|---|---|\n| [PERSON] | [ORGANIZATION] |'),
    ).toBe(true);
  }, 120_000);

  it('2,300 rows stream to the end as generate gives them', async () => {
    const text = table(2300);
    expect(text.length).toBe(58_148);
    const generated = await generateText({
      model: wrapLanguageModel({
        model: countingModel(text, [text]).model,
        middleware: windowed(),
      }),
      prompt: 'hi',
    });
    expect(generated.finishReason).toBe('stop');
    const streamed = streamText({
      model: wrapLanguageModel({
        model: countingModel(text, cut(text, [20])).model,
        middleware: windowed(),
      }),
      prompt: 'hi',
    });
    expect(await streamed.text).toBe(generated.text);
    expect(await streamed.finishReason).toBe('stop');
  }, 120_000);
});
