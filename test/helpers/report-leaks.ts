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
export function describeErrors(
  value: unknown,
  seen = new Set<unknown>(),
  { numbersAsZero = false }: { numbersAsZero?: boolean } = {},
): string {
  if (value == null || typeof value !== 'object' || seen.has(value)) return '';
  seen.add(value);
  let text = '';
  if (value instanceof Error) {
    text += `${value.message}\n${String(value)}\n${safeJson(value, numbersAsZero)}\n`;
    text += describeErrors((value as { cause?: unknown }).cause, seen, { numbersAsZero });
  }
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    text += describeErrors(item, seen, { numbersAsZero });
  }
  return text;
}

/**
 * JSON of a value; with `numbersAsZero` every number reads as 0 (a record's
 * `durationMs` such as 4.1111234 holds any four digits by chance, which a
 * search for 4-character pieces of a hidden card number found: a flaky test).
 */
function safeJson(value: unknown, numbersAsZero = false): string {
  try {
    return (
      JSON.stringify(
        value,
        numbersAsZero ? (_key, entry) => (typeof entry === 'number' ? 0 : entry) : undefined,
      ) ?? ''
    );
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
