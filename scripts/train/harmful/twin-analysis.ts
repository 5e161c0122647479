/**
 * Aggregate analysis of the look-alikes that set the harmful detector's
 * thresholds against their harmful twins (ninth round; the model card's
 * "Ninth round" section). Never per row: counts and sums only.
 *
 * 1. Cue rates: the share of rows of each kind (harmful, look-alike,
 *    ordinary; JailbreakBench's two halves apart) whose folded text has a
 *    word of each frame cue class (regular expressions below).
 * 2. The shipped fit: which held-apart look-alikes are over the threshold,
 *    their cue classes, and the words whose removal lowers their logit most
 *    (leave-one-word-out, summed).
 * 3. JailbreakBench left out: its 100 harmful behaviours and their benign
 *    twins (same index) scored unseen: twins over the threshold, pairs where
 *    the twin scores higher, the logit gap, cue counts on each side, the
 *    words pushing twins up, and the words only one side has.
 *
 *   npx tsx scripts/train/harmful/twin-analysis.ts
 */
import { join, resolve } from 'node:path';
import { maxWindowLogit } from '../../../src/guards/harmful-content/harmful-model';
import {
  augmentedRows,
  fitHarmful,
  harmfulTrainOptions,
  isCalibrationRow,
  prepare,
} from '../train-harmful';
import { harmfulRows } from './harmful-data';

const root = resolve(import.meta.dirname, '../../..');
const rows = harmfulRows({
  corpora: join(root, '../shared/corpora'),
  datasets: join(root, '../shared/datasets'),
});
const originals = rows.length;
rows.push(...augmentedRows(rows));
const data = prepare(rows, harmfulTrainOptions.bits);

// cue classes (aggregate frame analysis)
const CUES: Record<string, RegExp> = {
  fiction:
    /\b(fictional|fiction|story|novel|screenplay|poem|scene|character|role-?play|movie|play)\b/,
  history:
    /\b(history|historical|histories|in the past|origins?|evolution|historically|happened|during)\b/,
  prevention:
    /\b(prevent|prevention|protect|protection|defend|detect|detection|signs|warning|avoid|safety|safe|safely|awareness|report|risks?|dangers?|dangerous)\b/,
  explain:
    /^(what|why|who|when|where|which|is|are|do|does|can|explain|describe|discuss|summari[sz]e)\b|\b(explain|discuss|analy[sz]e|overview|definition|define|means?|meaning)\b/,
  law: /\b(laws?|legal|legally|illegal|regulations?|ethical|ethics|policy|policies)\b/,
  operational:
    /\b(step[- ]by[- ]step|instructions?|tutorial|guide|detailed|steps|procedure|recipe|exact|specific|method|techniques?)\b/,
  evasion:
    /\b(without (getting|being) (caught|detected|noticed)|undetect\w*|evade|evading|bypass\w*|avoid (detection|getting caught|the police)|untraceable|anonymous\w*|secretly|covert\w*|trick)\b/,
  target:
    /\b(my (neighbou?r|wife|husband|boss|ex|coworker|colleague|teacher|friend|sister|brother|classmates?)|someone|somebody|a person|people|children|kids|minors?|a child|government|company|bank|users?|victims?)\b/,
  firstPerson: /\b(i|my|me|i'm|i'd)\b/,
  howTo:
    /^(how (do|can|could|would|should) (i|you|we|one|someone)|how to|what'?s the best way|what is the best way)\b/,
  imperative:
    /^(please\s+)?(write|create|give|provide|develop|generate|design|outline|teach|tell|list|draft|suggest|show|compose|produce|make|build|find|help)\b/,
};
const kindOf = (r: (typeof rows)[number]) =>
  r.label === 1 ? 'harmful' : r.kind === 'lookalike' ? 'lookalike' : 'general';
const cueCounts = new Map<string, Map<string, number>>();
const kindTotals = new Map<string, number>();
for (let i = 0; i < originals; i++) {
  const r = rows[i]!;
  const t = data.folded[i]!;
  const k = r.group === 'dev:jbb_behaviors' ? `jbb-${kindOf(r)}` : kindOf(r);
  kindTotals.set(k, (kindTotals.get(k) ?? 0) + 1);
  const m = cueCounts.get(k) ?? new Map();
  for (const [c, re] of Object.entries(CUES)) if (re.test(t)) m.set(c, (m.get(c) ?? 0) + 1);
  cueCounts.set(k, m);
}
console.log('## cue rates by kind (all rows, folded text)');
for (const [k, m] of cueCounts)
  console.log(
    k,
    kindTotals.get(k),
    Object.keys(CUES)
      .map(c => `${c} ${((m.get(c) ?? 0) / kindTotals.get(k)!).toFixed(3)}`)
      .join(', '),
  );

function logitThreshold(f: ReturnType<typeof fitHarmful>) {
  return (Math.log(f.threshold / (1 - f.threshold)) - f.spec.plattB) / f.spec.plattA;
}
function wordDeltas(text: string, scorer: ReturnType<typeof fitHarmful>['scorer']) {
  const base = maxWindowLogit(text, scorer);
  const words = text.split(/\s+/).filter(Boolean);
  const out: [string, number][] = [];
  for (let at = 0; at < words.length && words.length <= 80; at++) {
    const without = [...words.slice(0, at), ...words.slice(at + 1)].join(' ');
    out.push([words[at]!.replace(/[^\p{L}\p{N}'-]/gu, ''), base - maxWindowLogit(without, scorer)]);
  }
  return out; // positive: word pushes toward harmful
}
const top = (m: Map<string, number>, n = 25) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([w, v]) => `${w} ${v.toFixed(1)}`)
    .join(', ');

// 1. full fit: who is over threshold on the slice
{
  const f = fitHarmful(data);
  const zt = logitThreshold(f);
  const by = new Map<string, number>();
  const cues = new Map<string, number>();
  const push = new Map<string, number>();
  let n = 0;
  const lookSlice: number[] = [];
  for (let i = 0; i < originals; i++) {
    const r = rows[i]!;
    if (!isCalibrationRow(r) || r.label !== 0 || r.kind !== 'lookalike') continue;
    const z = maxWindowLogit(data.folded[i]!, f.scorer);
    lookSlice.push(z);
    if (z < zt) continue;
    n++;
    by.set(r.group, (by.get(r.group) ?? 0) + 1);
    for (const [c, re] of Object.entries(CUES))
      if (re.test(data.folded[i]!)) cues.set(c, (cues.get(c) ?? 0) + 1);
    for (const [w, d] of wordDeltas(data.folded[i]!, f.scorer))
      if (d > 0) push.set(w, (push.get(w) ?? 0) + d);
  }
  console.log(
    `\n## full fit: threshold ${f.threshold} (logit ${zt.toFixed(2)}), slice look-alikes over: ${n}/${lookSlice.length}`,
    [...by],
  );
  console.log('cues among them:', [...cues]);
  console.log('words pushing them up (sum of logit deltas):', top(push));
}
// 2. JBB left out: pairs
{
  const f = fitHarmful(data, 'dev:jbb_behaviors');
  const zt = logitThreshold(f);
  const pairs = new Map<string, { h?: number; b?: number }>();
  for (let i = 0; i < originals; i++) {
    const r = rows[i]!;
    if (r.group !== 'dev:jbb_behaviors') continue;
    const key = r.id.replace(/^jbb-(harmful|benign)-/, '');
    const p = pairs.get(key) ?? {};
    if (r.label === 1) p.h = i;
    else p.b = i;
    pairs.set(key, p);
  }
  let benignOver = 0,
    benignAbove = 0,
    both = 0;
  const gaps: number[] = [];
  const twinPush = new Map<string, number>();
  const harmOnly = new Map<string, number>();
  const twinOnly = new Map<string, number>();
  const cueDiff = new Map<string, [number, number]>();
  for (const { h, b } of pairs.values()) {
    if (h === undefined || b === undefined) continue;
    const zh = maxWindowLogit(data.folded[h]!, f.scorer);
    const zb = maxWindowLogit(data.folded[b]!, f.scorer);
    gaps.push(zh - zb);
    if (zb >= zt) benignOver++;
    if (zb >= zh) benignAbove++;
    if (zb >= zt && zh >= zt) both++;
    const hw = new Set(data.folded[h]!.split(/\s+/).map(w => w.replace(/[^\p{L}\p{N}'-]/gu, '')));
    const bwords = wordDeltas(data.folded[b]!, f.scorer);
    const bw = new Set(bwords.map(([w]) => w));
    for (const [w, d] of bwords) if (d > 0) twinPush.set(w, (twinPush.get(w) ?? 0) + d);
    for (const [w, d] of wordDeltas(data.folded[h]!, f.scorer))
      if (!bw.has(w) && d > 0) harmOnly.set(w, (harmOnly.get(w) ?? 0) + d);
    for (const [w, d] of bwords) if (!hw.has(w)) twinOnly.set(w, (twinOnly.get(w) ?? 0) + d);
    for (const [c, re] of Object.entries(CUES)) {
      const e = cueDiff.get(c) ?? [0, 0];
      e[0] += re.test(data.folded[h]!) ? 1 : 0;
      e[1] += re.test(data.folded[b]!) ? 1 : 0;
      cueDiff.set(c, e);
    }
  }
  gaps.sort((a, b) => a - b);
  console.log(
    `\n## JBB left out: threshold ${f.threshold} (logit ${zt.toFixed(2)}); twins over threshold ${benignOver}/100, twin ≥ its harmful pair ${benignAbove}, pair both over ${both}; gap harmful−twin p25/median/p75 ${gaps[25]!.toFixed(2)}/${gaps[50]!.toFixed(2)}/${gaps[75]!.toFixed(2)}`,
  );
  console.log(
    'cue counts harmful vs twin:',
    [...cueDiff].map(([c, [a, b]]) => `${c} ${a}/${b}`).join(', '),
  );
  console.log('twin words pushing up:', top(twinPush));
  console.log('harmful-only words pushing up:', top(harmOnly));
  const neg = new Map([...twinOnly].map(([w, v]) => [w, -v]));
  console.log('twin-only words pushing down:', top(neg));
  console.log('twin-only words pushing up:', top(twinOnly));
}
