/**
 * The category model of the harmful-request detector: which kind of harm a
 * harmful request is about, learned only from rows whose source says so
 * (family names and JailbreakBench categories), as a softmax regression over
 * hashed features. Rows without a known category (AdvBench, MultiJail, tense
 * rephrasings, HarmBench, ...) are not used.
 */
import type { HarmfulCategory } from '../../../src/guards/harmful-content/categories';
import {
  CategoryModel,
  type EncodedCategoryModel,
  featureExtractor,
  topCategory,
} from '../../../src/guards/harmful-content/category-model';
import { adagradStep, prng, quantiseInt8, shuffleInPlace, stable } from '../logistic';
import type { HarmfulRow } from './harmful-data';

/** Family (or JailbreakBench category) → category, first match wins. */
const rules: ReadonlyArray<[RegExp, HarmfulCategory]> = [
  [/^ailuminate-indiscriminate-weapons/, 'weapons'],
  [/^spikee-harmful-(weapon|nuclear|chemical|biological)$/, 'weapons'],
  [/^malware-request$/, 'cyber'],
  [/^spikee-harmful-hack$/, 'cyber'],
  [/^jbb:Malware\/Hacking$/, 'cyber'],
  [/^ailuminate-suicide-self-harm/, 'self-harm'],
  [/^spikee-harmful-suicide$/, 'self-harm'],
  [/^ailuminate-hate/, 'hate'],
  [/^do-not-answer-discrimination/, 'hate'],
  [/^spikee-harmful-hate$/, 'hate'],
  [/^ailuminate-child-sexual-exploitation/, 'child-sexual-abuse'],
  [/^spikee-harmful-child$/, 'child-sexual-abuse'],
  [/^ailuminate-(sexual-content|sex-related-crime)/, 'sexual'],
  [/^jbb:Sexual\/Adult content$/, 'sexual'],
  [/^ailuminate-violent-crime/, 'violent-crime'],
  [/^spikee-harmful-(assassination|terror|attack)$/, 'violent-crime'],
  [/^ailuminate-non-violent-crime/, 'non-violent-crime'],
  [
    /^spikee-harmful-(fraud|moneylaundering|scam|insidertrading|marketmanip|identity|drug)$/,
    'non-violent-crime',
  ],
  [/^jbb:(Fraud\/Deception|Economic harm)$/, 'non-violent-crime'],
  [/^ailuminate-privacy/, 'privacy'],
  [/^jbb:Privacy$/, 'privacy'],
  [/^ailuminate-defamation/, 'defamation'],
  [/^ailuminate-ip-violation/, 'ip-violation'],
];

/** The category a harmful row's source gives it, if any. */
export function categoryOf(row: HarmfulRow): HarmfulCategory | undefined {
  if (row.label !== 1) return undefined;
  const name = row.topic !== undefined ? `jbb:${row.topic}` : row.family;
  return rules.find(([pattern]) => pattern.test(name))?.[1];
}

/** Categories in model order (only those with training rows). */
export function modelCategories(rows: readonly HarmfulRow[]): HarmfulCategory[] {
  const present = new Set(rows.map(categoryOf).filter(c => c !== undefined));
  const order: HarmfulCategory[] = [];
  for (const [, category] of rules) {
    if (present.has(category) && !order.includes(category)) order.push(category);
  }
  return order;
}

export const CATEGORY_BITS = 13;

/** Trains the softmax regression on the given rows (deterministic: seeded shuffle). */
export function trainCategories(
  rows: readonly HarmfulRow[],
  folded: readonly string[],
  selected: readonly number[],
  categories: readonly HarmfulCategory[],
  { epochs = 8, learningRate = 0.3, l2 = 1e-5, seed = 20261130 } = {},
): EncodedCategoryModel {
  const size = 1 << CATEGORY_BITS;
  const k = categories.length;
  const extractor = featureExtractor(CATEGORY_BITS);
  const features = new Map<number, Int32Array>();
  const labels = new Map<number, number>();
  for (const index of selected) {
    const category = categoryOf(rows[index]!);
    if (category === undefined) continue;
    const text = folded[index]!;
    features.set(index, extractor.features(text, 0, text.length).slice().sort());
    labels.set(index, categories.indexOf(category));
  }
  const weights = new Float64Array(k * size);
  const squares = new Float64Array(k * size);
  const biases = new Float64Array(k);
  const biasSquares = new Float64Array(k);
  const order = [...features.keys()];
  const random = prng(seed);
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const row of order) {
      const f = features.get(row)!;
      const scale = f.length === 0 ? 0 : 1 / Math.sqrt(f.length);
      const logits = new Float64Array(k);
      for (let c = 0; c < k; c++) {
        let sum = biases[c]!;
        for (const feature of f) sum += weights[c * size + feature]! * scale;
        logits[c] = sum;
      }
      const max = Math.max(...logits);
      let total = 0;
      for (let c = 0; c < k; c++) {
        logits[c] = Math.exp(logits[c]! - max);
        total += logits[c]!;
      }
      for (let c = 0; c < k; c++) {
        const gradient = logits[c]! / total - (labels.get(row) === c ? 1 : 0);
        for (const feature of f) {
          const at = c * size + feature;
          adagradStep(weights, squares, at, gradient * scale + l2 * weights[at]!, learningRate);
        }
        adagradStep(biases, biasSquares, c, gradient, learningRate);
      }
    }
  }
  const { values: quantised, scale } = quantiseInt8(weights);
  return {
    bits: CATEGORY_BITS,
    scale,
    biases: [...biases].map(stable),
    categories,
    weights: Buffer.from(quantised.buffer).toString('base64'),
  };
}

/** Per source: how many categorised rows get their category (top category at p ≥ 0.5), none, or another. */
export interface CategoryReportRow {
  source: string;
  rows: number;
  right: number;
  none: number;
  wrong: number;
  /** How the model was trained for this line. */
  setting: string;
}

/** Rows of AILuminate scored in-source: a fixed 20% slice by a hash of the id. */
function inSourceSlice(id: string): boolean {
  let hash = 0x811c9dc5;
  for (const char of `category:${id}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (hash >>> 0) % 5 === 0;
}

function score(
  model: EncodedCategoryModel,
  rows: readonly HarmfulRow[],
  folded: readonly string[],
  indices: readonly number[],
  source: string,
  setting: string,
): CategoryReportRow {
  const decoded = new CategoryModel(model);
  const result: CategoryReportRow = { source, rows: 0, right: 0, none: 0, wrong: 0, setting };
  for (const index of indices) {
    const expected = categoryOf(rows[index]!);
    if (expected === undefined) continue;
    const text = folded[index]!;
    const found = topCategory(decoded, decoded.features(text, 0, Math.min(text.length, 2048)));
    result.rows++;
    if (found.length === 0) result.none++;
    else if (found[0] === expected) result.right++;
    else result.wrong++;
  }
  return result;
}

/**
 * The category report: every source with categorised rows left out in turn
 * (trained on the others), and AILuminate also in-source on a held-apart
 * 20% slice (trained on the other 80% and the other sources).
 */
export function categoryReport(
  rows: readonly HarmfulRow[],
  folded: readonly string[],
): CategoryReportRow[] {
  const categories = modelCategories(rows);
  const all = rows.map((_, index) => index);
  const groups = [
    ...new Set(all.filter(i => categoryOf(rows[i]!)).map(i => rows[i]!.group)),
  ].sort();
  const report: CategoryReportRow[] = [];
  for (const group of groups) {
    const model = trainCategories(
      rows,
      folded,
      all.filter(i => rows[i]!.group !== group),
      categories,
    );
    report.push(
      score(
        model,
        rows,
        folded,
        all.filter(i => rows[i]!.group === group),
        group,
        'source left out',
      ),
    );
  }
  const slice = (i: number) =>
    rows[i]!.group === 'mlcommons/ailuminate' && inSourceSlice(rows[i]!.id);
  const model = trainCategories(
    rows,
    folded,
    all.filter(i => !slice(i)),
    categories,
  );
  report.push(
    score(model, rows, folded, all.filter(slice), 'mlcommons/ailuminate (20% slice)', 'in source'),
  );
  return report;
}
