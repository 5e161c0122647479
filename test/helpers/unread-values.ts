import { expect } from 'vitest';
import { configErrorOf } from './index';

/** The issue of a value whose reading threw (core/caller-values' `notReadIssue`), as JSON. */
export function notReadIssueJson(path: string, thrown = 'an Error') {
  return {
    path,
    value: '(not read)',
    expected: `a value that can be read (reading it threw ${thrown}, its message not shown)`,
  };
}

/**
 * The `GuardrailConfigError` that `run` throws, as JSON (its message and
 * issues), after checking that neither it nor its stack quotes `secret`.
 */
export function configErrorJson(
  run: () => unknown,
  secret: string,
): { message: string; issues: unknown } {
  const error = configErrorOf(run);
  expect(JSON.stringify(error)).not.toContain(secret);
  expect(String(error.stack)).not.toContain(secret);
  return { message: error.message, issues: JSON.parse(JSON.stringify(error.issues)) };
}
