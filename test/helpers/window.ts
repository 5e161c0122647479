import { CallGuard } from '../../src/middleware/call-guard';
import type { InputJudge } from '../../src/middleware/input-guard';

/** A call guard with no input, for driving a stream processor directly. */
export function bareCallGuard(): CallGuard {
  return new CallGuard({
    input: { prompt: [], records: [], texts: [], contents: [], cachedVerdicts: 0 },
    metadata: {},
    state: new Map(),
    controller: new AbortController(),
    release: () => {},
    judge: undefined as unknown as InputJudge,
    defaultTimeoutMs: 30_000,
  });
}

/** `count` random tokens, each followed by a random blank (a test's own lists). */
export function randomTokenText(
  next: () => number,
  count: number,
  tokens: readonly string[],
  blanks: readonly string[],
): string {
  let text = '';
  for (let i = 0; i < count; i++) {
    text += tokens[Math.floor(next() * tokens.length)];
    text += blanks[Math.floor(next() * blanks.length)];
  }
  return text;
}
