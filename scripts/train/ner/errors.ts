/**
 * Error analysis of cross-validated predictions: every gold span is exact,
 * a boundary error (a predicted span of its type overlaps it, not exactly),
 * a type confusion (only a span of another type overlaps it) or a miss; every
 * predicted span overlapping no gold span of its type is a false alarm (of a
 * gold span of another type, or of nothing). Counts per type and per
 * template, with a few examples of each.
 */
import { type NerEntity, nerEntities } from '../../../src/guards/pii/ner/labels';
import type { NerSpan } from '../../../src/guards/pii/ner/tagger';
import type { GoldSpan, Sequence } from './data';

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

type Kind = 'exact' | 'boundary' | 'confused' | 'missed' | 'alarm-other' | 'alarm';

const honorifics = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'dr',
  'prof',
  'sir',
  'madam',
  'mx',
  'jr',
  'sr',
]);
const greetings = new Set([
  'hi',
  'hello',
  'hey',
  'dear',
  'thanks',
  'thank',
  'regards',
  'greetings',
]);
const units = new Set(['suite', 'apt', 'unit', 'box', 'floor', 'flat', 'room', 'po', 'p']);

/** A coarse class of the token text at an edge of a boundary error. */
export function tokenClass(token: string): string {
  const word = token.replace(/\.$/, '').toLowerCase();
  if (/^\d{1,5}[a-z]?$/i.test(token)) return 'number (1-5 digits)';
  if (/^\d+$/.test(token)) return 'number (6+ digits)';
  if (/\d/.test(token)) return 'alphanumeric';
  if (/^['’]s$/i.test(token)) return "possessive 's";
  if (honorifics.has(word)) return 'title';
  if (greetings.has(word)) return `greeting (${word})`;
  if (units.has(word)) return `unit word (${word})`;
  if (/^\p{Lu}\.?$/u.test(token)) return 'initial';
  if (/^[\p{P}\p{S}]$/u.test(token)) return `sign ${JSON.stringify(token)}`;
  if (token === token.toLowerCase()) return word.length <= 6 ? `lower "${word}"` : 'lower word';
  if (token === token.toUpperCase()) return 'ALL CAPS word';
  return 'Capitalised word';
}

/** Tokens of `text[start, end)`: word runs (with a trailing full stop of an initial) or single signs. */
function edgeTokens(text: string, start: number, end: number): string[] {
  return (
    text
      .slice(start, end)
      .match(/['’]s\b|[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*\.?|[^\s]/gu) ?? []
  );
}

/**
 * What went wrong at the edges of one boundary error: the gold span cut into
 * several predicted spans (`split`), one predicted span covering several gold
 * spans of the type (`merged`), else per side the first token the prediction
 * added or left out, by class (`left +title`, `right -number`…).
 */
export function boundaryCategories(
  text: string,
  gold: { start: number; end: number },
  same: ReadonlyArray<{ start: number; end: number }>,
  goldOfType: ReadonlyArray<{ start: number; end: number }>,
): string[] {
  if (same.length > 1) return [`split in ${same.length}`];
  const predicted = same[0]!;
  if (goldOfType.some(other => other !== gold && overlaps(other, predicted)))
    return ['merged with another gold span'];
  const categories: string[] = [];
  const crosses = (from: number, to: number) =>
    /\n/.test(text.slice(from, to)) ? ', across a line break' : '';
  if (predicted.start < gold.start)
    categories.push(
      `left +${tokenClass(edgeTokens(text, predicted.start, gold.start)[0] ?? '')}${crosses(predicted.start, gold.start)}`,
    );
  if (predicted.start > gold.start)
    categories.push(
      `left -${tokenClass(edgeTokens(text, gold.start, predicted.start)[0] ?? '')}${crosses(gold.start, predicted.start)}`,
    );
  if (predicted.end > gold.end)
    categories.push(
      `right +${tokenClass(edgeTokens(text, gold.end, predicted.end).at(-1) ?? '')}${crosses(gold.end, predicted.end)}`,
    );
  if (predicted.end < gold.end)
    categories.push(
      `right -${tokenClass(edgeTokens(text, predicted.end, gold.end).at(-1) ?? '')}${crosses(predicted.end, gold.end)}`,
    );
  return categories;
}

/**
 * The class of one boundary error: `split` (several predictions of the type), `merged` (one
 * prediction over several gold spans of the type), `too short` (inside the gold span),
 * `too long` (covers it) or `shifted` (crosses one edge).
 */
export function boundaryClass(
  gold: { start: number; end: number },
  same: ReadonlyArray<{ start: number; end: number }>,
  goldOfType: ReadonlyArray<{ start: number; end: number }>,
): string {
  if (same.length > 1) return 'boundary: split';
  const predicted = same[0]!;
  if (goldOfType.some(other => other !== gold && overlaps(other, predicted)))
    return 'boundary: merged';
  if (predicted.start >= gold.start && predicted.end <= gold.end) return 'boundary: too short';
  if (predicted.start <= gold.start && predicted.end >= gold.end) return 'boundary: too long';
  return 'boundary: shifted';
}

export function errorReport(
  sequences: ReadonlyArray<Pick<Sequence, 'id' | 'group' | 'text' | 'spans'>>,
  predictions: ReadonlyMap<string, readonly NerSpan[]>,
  examples = Number(process.env.NER_EXAMPLES ?? 6),
): string {
  const counts = new Map<string, number>();
  const samples = new Map<string, string[]>();
  const byGroup = new Map<string, Map<Kind, number>>();
  const edges = new Map<string, number>();
  /** Finer classes per type: boundary too short / too long / shifted / split / merged, confused with and false alarms on each other type. */
  const classes = new Map<string, number>();
  const classify = (type: NerEntity, name: string) => {
    const key = `${type}\t${name}`;
    classes.set(key, (classes.get(key) ?? 0) + 1);
  };
  const note = (type: NerEntity, kind: Kind, group: string, sample: string) => {
    const key = `${type} ${kind}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const list = samples.get(key) ?? [];
    if (list.length < examples) list.push(sample);
    samples.set(key, list);
    const groupKey = `${type} ${group}`;
    const tallies = byGroup.get(groupKey) ?? new Map<Kind, number>();
    tallies.set(kind, (tallies.get(kind) ?? 0) + 1);
    byGroup.set(groupKey, tallies);
  };
  for (const sequence of sequences) {
    const predicted = predictions.get(sequence.id) ?? [];
    const gold: readonly GoldSpan[] = sequence.spans;
    const text = sequence.text;
    const show = (span: { start: number; end: number }) =>
      JSON.stringify(text.slice(span.start, span.end));
    const context = JSON.stringify(text.length > 140 ? `${text.slice(0, 140)}…` : text);
    const group = sequence.group ?? 'none';
    for (const span of gold) {
      const same = predicted.filter(p => p.type === span.type && overlaps(p, span));
      if (same.some(p => p.start === span.start && p.end === span.end)) {
        note(span.type, 'exact', group, '');
      } else if (same.length > 0) {
        const goldOfType = gold.filter(g => g.type === span.type);
        classify(span.type, boundaryClass(span, same, goldOfType));
        for (const category of boundaryCategories(text, span, same, goldOfType)) {
          const key = `${span.type} ${category}`;
          edges.set(key, (edges.get(key) ?? 0) + 1);
        }
        note(
          span.type,
          'boundary',
          group,
          `${show(span)} got ${same.map(show).join(' + ')} in ${context}`,
        );
      } else {
        const other = predicted.filter(p => overlaps(p, span));
        if (other.length > 0) {
          const types = [...new Set(other.map(p => p.type))].sort().join('+');
          const same = other.some(p => p.start === span.start && p.end === span.end);
          classify(span.type, `confused with ${types}${same ? ', same bounds' : ''}`);
        }
        if (other.length > 0)
          note(
            span.type,
            'confused',
            group,
            `${show(span)} as ${other.map(p => `${p.type}:${show(p)}`).join(' + ')}`,
          );
        else note(span.type, 'missed', group, `${show(span)} in ${context}`);
      }
    }
    for (const span of predicted) {
      if (gold.some(g => g.type === span.type && overlaps(g, span))) continue;
      const other = gold.filter(g => overlaps(g, span));
      if (other.length > 0) {
        const types = [...new Set(other.map(g => g.type))].sort().join('+');
        const same = other.some(g => g.start === span.start && g.end === span.end);
        classify(span.type, `false alarm on ${types}${same ? ', same bounds' : ''}`);
      } else classify(span.type, 'false alarm on nothing');
      if (other.length > 0)
        note(
          span.type,
          'alarm-other',
          group,
          `${show(span)} is ${other.map(g => g.type).join('+')}`,
        );
      else note(span.type, 'alarm', group, `${show(span)} in ${context}`);
    }
  }
  const lines: string[] = [
    '| type | exact | boundary | confused | missed | alarm (other type) | alarm (nothing) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const kinds: Kind[] = ['exact', 'boundary', 'confused', 'missed', 'alarm-other', 'alarm'];
  for (const type of nerEntities) {
    lines.push(
      `| ${type} | ${kinds.map(kind => counts.get(`${type} ${kind}`) ?? 0).join(' | ')} |`,
    );
  }
  lines.push(
    '',
    'Error classes (gold side: boundary, confused, missed; predicted side: false alarms):',
    '',
  );
  lines.push('| type | class | count |', '|---|---|---:|');
  for (const type of nerEntities) {
    const missed = counts.get(`${type} missed`) ?? 0;
    if (missed > 0) classes.set(`${type}\tmissed`, missed);
    const rows = [...classes].filter(([key]) => key.startsWith(`${type}\t`));
    for (const [key, count] of rows.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)))
      lines.push(`| ${type} | ${key.slice(type.length + 1)} | ${count} |`);
  }
  lines.push(
    '',
    'Boundary errors by side and token (+ the prediction added it, - left it out; first token past the gold edge):',
    '',
  );
  lines.push('| type | category | count |', '|---|---|---:|');
  for (const [key, count] of [...edges].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    const space = key.indexOf(' ');
    lines.push(`| ${key.slice(0, space)} | ${key.slice(space + 1)} | ${count} |`);
  }
  lines.push('');
  for (const type of nerEntities) {
    for (const kind of kinds.slice(1)) {
      const list = samples.get(`${type} ${kind}`);
      if (!list || list.length === 0) continue;
      lines.push(`${type} ${kind}:`);
      for (const sample of list) lines.push(`  ${sample}`);
    }
  }
  lines.push('', 'Worst groups (errors = gold spans not exact + false alarms):');
  const worst = [...byGroup.entries()]
    .map(([key, tallies]) => {
      let errors = 0;
      for (const [kind, count] of tallies) if (kind !== 'exact') errors += count;
      return { key, errors, tallies };
    })
    .sort((a, b) => b.errors - a.errors || (a.key < b.key ? -1 : 1))
    .slice(0, 25);
  for (const { key, errors, tallies } of worst) {
    lines.push(
      `  ${key}: ${errors} errors (${[...tallies].map(([k, v]) => `${k} ${v}`).join(', ')})`,
    );
  }
  return lines.join('\n');
}
