/**
 * One line per leave-sources-out JSON (written by `--loso-out`): median
 * attack-source recall, benign sources over FPR 0.03, worst benign FPR,
 * the hand-written ordinary chat left out, the benign look-alikes left out,
 * and the attack sources' recalls — the columns of the model card's
 * variants table.
 *
 *   npx tsx scripts/train/compose/summary.ts a.json b.json …
 */
import { readFileSync } from 'node:fs';
import type { LosoReport } from '../loso-report';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8')) as LosoReport & {
    lookalikes?: { rows: number; flagged: number };
  };
  const rows = report.direct ?? [];
  const real = rows.filter(row => !row.source.startsWith('synthetic:'));
  const recalls = real.filter(row => row.attacks >= 10).map(row => row.caught / row.attacks);
  const fprs = real.filter(row => row.benign >= 10).map(row => row.flagged / row.benign);
  const chat = rows.find(row => row.source === 'synthetic:ordinary-chat');
  const look = report.lookalikes;
  console.log(
    `${file}: median ${median(recalls).toFixed(3)} (mean ${(recalls.reduce((a, b) => a + b, 0) / recalls.length).toFixed(3)}, thresholds ${[...new Set(rows.map(row => row.threshold))].sort().join(' ')}) / benign > 0.03: ${fprs.filter(f => f > 0.03).length} of ${fprs.length} / worst ${Math.max(...fprs).toFixed(3)} / ordinary-chat ${chat ? (chat.flagged / chat.benign).toFixed(3) : '–'} / look-alikes ${look ? `${look.flagged}/${look.rows} (${(look.flagged / look.rows).toFixed(3)})` : '–'}`,
  );
  console.log(
    `  ${real
      .filter(row => row.attacks >= 10)
      .map(row => `${row.source.split('/').pop()} ${(row.caught / row.attacks).toFixed(3)}`)
      .join(', ')}`,
  );
  console.log(
    `  benign: ${real
      .filter(row => row.benign >= 10 && row.flagged > 0)
      .map(row => `${row.source.split('/').pop()} ${(row.flagged / row.benign).toFixed(3)}`)
      .join(', ')}`,
  );
}
