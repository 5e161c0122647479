import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * Which canary (or its first ten characters: a quoted snippet) shows up in
 * which report: each entry of `pieces` (records, metadata, events, errors,
 * spans) is read as JSON and, for errors, as everything an error can put in
 * a log. For the record-hygiene (canary) tests.
 */
export function leaksIn(
  pieces: Record<string, unknown>,
  canaries: Record<string, string>,
): string[] {
  return Object.entries(pieces).flatMap(([where, value]) => {
    const text = `${safeJson(value)}\n${describeErrors(value)}`;
    return Object.entries(canaries)
      .filter(([, canary]) => text.includes(canary.slice(0, 10)))
      .map(([canary]) => `${canary} in ${where}`);
  });
}

/** Everything an error can put in a log: message, string form, JSON (toJSON), nested causes. */
export function describeErrors(value: unknown, seen = new Set<unknown>()): string {
  if (value == null || typeof value !== 'object' || seen.has(value)) return '';
  seen.add(value);
  let text = '';
  if (value instanceof Error) {
    text += `${value.message}\n${String(value)}\n${safeJson(value)}\n`;
    text += describeErrors((value as { cause?: unknown }).cause, seen);
  }
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    text += describeErrors(item, seen);
  }
  return text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/** What the finished spans report (name, attributes, status, events), to search for leaks. */
export function spanReports(exporter: InMemorySpanExporter) {
  return exporter.getFinishedSpans().map(span => ({
    name: span.name,
    attributes: span.attributes,
    status: span.status,
    events: span.events,
  }));
}
