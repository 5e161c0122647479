import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  type InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * Registers a global tracer provider for the enclosing `describe` (and
 * removes it after) that sends every finished span to `exporter`, so the
 * spans guardrails start can be read back; the exporter is emptied after
 * each test.
 */
export function captureSpans(exporter: InMemorySpanExporter): void {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
  });
  afterEach(() => exporter.reset());
  afterAll(() => {
    trace.disable();
    context.disable();
  });
}
