/** docs/benchmarks-chart.svg: precision vs recall, one panel per task. */
import { tasks as allTasks } from '../../bench/peers/adapter';
import { rates } from '../../src/cli/scoring';
import { inOurTypes, piiAggregate } from './aggregate';
import type { SystemReport } from './report';

export const palette: Record<string, string> = {
  'ai-guardrails': '#d62728',
  '@openai/guardrails': '#1f77b4',
  '@presidio-dev/hai-guardrails': '#2ca02c',
  'llm-guard': '#9467bd',
  llm_guardrail: '#ff7f0e',
};

export const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Precision vs recall, one panel per task, one point per system (variant). */
export function renderChart(reports: SystemReport[]): string {
  const all = reports.flatMap(report => report.results).filter(r => r.status !== 'error');
  const panel = 300;
  const margin = { left: 50, top: 40, gap: 70 };
  const width = margin.left + 2 * (panel + margin.gap);
  const height = margin.top + 2 * (panel + margin.gap) + 60;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">Precision vs recall per system (npm run compare)</text>`,
  ];
  allTasks.forEach((task, index) => {
    const x0 = margin.left + (index % 2) * (panel + margin.gap);
    const y0 = margin.top + Math.floor(index / 2) * (panel + margin.gap);
    const px = (recall: number) => x0 + recall * panel;
    const py = (precision: number) => y0 + panel - precision * panel;
    parts.push(
      `<text x="${x0 + panel / 2}" y="${y0 - 8}" text-anchor="middle" font-size="12" font-weight="bold">${escapeXml(task === 'pii' ? 'PII spans (our 12 pattern types)' : `${task} (all rows)`)}</text>`,
      `<rect x="${x0}" y="${y0}" width="${panel}" height="${panel}" fill="none" stroke="#333"/>`,
    );
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      parts.push(
        `<line x1="${px(tick)}" y1="${y0}" x2="${px(tick)}" y2="${y0 + panel}" stroke="#eee"/>`,
        `<line x1="${x0}" y1="${py(tick)}" x2="${x0 + panel}" y2="${py(tick)}" stroke="#eee"/>`,
        `<text x="${px(tick)}" y="${y0 + panel + 14}" text-anchor="middle">${tick}</text>`,
        `<text x="${x0 - 6}" y="${py(tick) + 4}" text-anchor="end">${tick}</text>`,
      );
    }
    parts.push(
      `<text x="${x0 + panel / 2}" y="${y0 + panel + 30}" text-anchor="middle">recall</text>`,
      `<text x="${x0 - 36}" y="${y0 + panel / 2}" text-anchor="middle" transform="rotate(-90 ${x0 - 36} ${y0 + panel / 2})">precision</text>`,
    );
    const points = all.filter(r => r.task === task);
    points.forEach((result, i) => {
      const r = task === 'pii' ? piiAggregate(result, inOurTypes) : rates(result.overall.confusion);
      if (r.precision === null || r.recall === null) return;
      const cx = px(r.recall);
      const cy = py(r.precision);
      const color = palette[result.system] ?? '#555';
      parts.push(
        `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="5" fill="${color}" fill-opacity="0.85"/>`,
        `<text x="${(cx + 7).toFixed(1)}" y="${(cy + 4 + (i % 3) * 10 - 10).toFixed(1)}" fill="${color}" font-size="9">${escapeXml(result.label || result.system.replace(/^@[^/]+\//, ''))}</text>`,
      );
    });
  });
  const legendY = height - 30;
  Object.entries(palette).forEach(([system, color], i) => {
    const x = margin.left + i * 150;
    parts.push(
      `<circle cx="${x}" cy="${legendY}" r="5" fill="${color}"/>`,
      `<text x="${x + 9}" y="${legendY + 4}">${escapeXml(system)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
