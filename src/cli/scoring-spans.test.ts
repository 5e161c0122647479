import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../test/helpers/cli-run';
import {
  type Confusion,
  emptyConfusion,
  type GoldSpan,
  goldTypeAliases,
  scoreSpans,
} from './scoring';

/*
 * Round 36: scoreSpans compared every prediction with every gold span
 * (`findIndex` over the row's gold), so one JSONL row of 100,000 e-mail
 * addresses labelled as another type, or shifted by one word, cost 10^10
 * comparisons: the eval command (and `npm run compare`) hung for hours.
 */

/** The matching scoreSpans has always done, written out plainly: the specification. */
function reference(
  predicted: readonly GoldSpan[],
  gold: readonly GoldSpan[],
  scoredTypes: ReadonlySet<string>,
  match: 'overlap' | 'exact',
): Map<string, Confusion> {
  const byType = new Map<string, Confusion>();
  const count = (type: string, key: keyof Confusion) => {
    const entry = byType.get(type) ?? emptyConfusion();
    entry[key]++;
    byType.set(type, entry);
  };
  const used = new Set<number>();
  for (const span of predicted) {
    let found = -1;
    for (let position = 0; position < gold.length && found < 0; position++) {
      const candidate = gold[position]!;
      const sameType = (goldTypeAliases[candidate.type] ?? candidate.type) === span.type;
      const matches =
        match === 'exact'
          ? candidate.start === span.start && candidate.end === span.end
          : candidate.start < span.end && span.start < candidate.end;
      if (!used.has(position) && sameType && matches) found = position;
    }
    if (found >= 0) used.add(found);
    count(span.type, found >= 0 ? 'truePositives' : 'falsePositives');
  }
  gold.forEach((span, position) => {
    const type = goldTypeAliases[span.type] ?? span.type;
    if (!used.has(position) && scoredTypes.has(type)) count(type, 'falseNegatives');
  });
  return byType;
}

const span = fc.record({
  type: fc.constantFrom('EMAIL_ADDRESS', 'URL', 'DOMAIN_NAME', 'PERSON'),
  start: fc.integer({ min: 0, max: 40 }),
  length: fc.integer({ min: 1, max: 12 }),
});
const spans = fc
  .array(span, { maxLength: 14 })
  .map(list => list.map(({ type, start, length }) => ({ type, start, end: start + length })));

const emails = (count: number, from: number, width: number, type = 'EMAIL_ADDRESS') =>
  Array.from({ length: count }, (_, index) => ({
    type,
    start: from + index * width,
    end: from + index * width + width - 1,
  }));

describe('scoreSpans', () => {
  it('matches as it always did: the first unused gold span of the type that overlaps (or coincides), in file order (property)', () => {
    fc.assert(
      fc.property(
        spans,
        spans,
        fc.constantFrom('overlap' as const, 'exact' as const),
        (p, g, m) => {
          const scored = new Set(['EMAIL_ADDRESS', 'URL']);
          const byType = new Map<string, Confusion>();
          scoreSpans(p, g, byType, scored, m);
          expect(byType).toEqual(reference(p, g, scored, m));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('scores 100,000 predictions against 100,000 gold spans that none of them meets', () => {
    const byType = new Map<string, Confusion>();
    // Gold labelled PERSON at the same places, and EMAIL_ADDRESS one address further on.
    const gold = [...emails(100_000, 0, 10, 'PERSON'), ...emails(100_000, 1_000_000, 10)];
    scoreSpans(emails(100_000, 0, 10), gold, byType, new Set(['EMAIL_ADDRESS', 'PERSON']));
    expect(byType).toEqual(
      new Map([
        [
          'EMAIL_ADDRESS',
          { ...emptyConfusion(), falsePositives: 100_000, falseNegatives: 100_000 },
        ],
        ['PERSON', { ...emptyConfusion(), falseNegatives: 100_000 }],
      ]),
    );
  });

  it('scores 100,000 predictions that each meet their gold span, listed in reverse', () => {
    const byType = new Map<string, Confusion>();
    const gold = emails(100_000, 0, 10).reverse();
    scoreSpans(emails(100_000, 0, 10), gold, byType, new Set(['EMAIL_ADDRESS']), 'exact');
    expect(byType).toEqual(
      new Map([['EMAIL_ADDRESS', { ...emptyConfusion(), truePositives: 100_000 }]]),
    );
  });

  it('eval refuses, with the row, gold spans stacked so that 10^10 pairs would meet', async () => {
    const count = 100_000;
    const text = 'a@b.co '.repeat(count);
    const gold = Array.from({ length: count }, () => ({
      entity_type: 'EMAIL_ADDRESS',
      start: 0,
      end: text.length,
    }));
    const path = join(mkdtempSync(join(tmpdir(), 'ai-guardrails-')), 'rows.jsonl');
    writeFileSync(
      path,
      `${JSON.stringify({ text: 'x', label: 0 })}\n${JSON.stringify({ text, label: 1, spans: gold })}\n`,
    );
    const { code, stdout, stderr } = await runCliCaptured(
      'eval',
      '--guardrail',
      'pii',
      '--data',
      path,
    );
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `${path}: row 2: its spans are too many to match one by one (100000 predicted, 100000 gold; more than 10000000 pairs to compare)\n`,
    });
  });
});
