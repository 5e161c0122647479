/**
 * What a tool call may restore (round 36). A tool call knows no prompt of
 * its own, so its placeholders were looked up in the conversation's vault:
 * a client who wrote `send to <EMAIL_ADDRESS_1>` into a history that dropped
 * the value got the tool to receive the value of an earlier turn (or of any
 * conversation whose vault the call could name). Now a placeholder is
 * restored only when its value is in the messages the tool call came from
 * (the AI SDK passes the caller's messages, before the middleware
 * pseudonymised them, with the results of earlier tools): values the client
 * sent or a tool of this loop returned, which the model was shown as those
 * placeholders. A value the messages do not carry stays a placeholder.
 */

/**
 * Work bound of one tool call's scope check, in characters compared (values
 * to look for times the characters of the messages). Past it the remaining
 * placeholders stay as written (fail closed, linear).
 */
export const maxToolScopeWork = 64 * 1024 * 1024;

/** Every string in the messages (texts, tool results, file data), iteratively: no depth limit to hit. */
export function messageStrings(messages: unknown): string[] {
  const strings: string[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [messages];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') strings.push(value);
    else if (value !== null && typeof value === 'object' && !seen.has(value)) {
      seen.add(value);
      if (ArrayBuffer.isView(value)) continue;
      for (const item of Array.isArray(value) ? value : Object.values(value)) stack.push(item);
    }
  }
  return strings;
}

/**
 * Of `originals` (placeholder to value), those whose value occurs in
 * `strings`; the rest, and all past `maxToolScopeWork`, are left out.
 */
export function originalsShownIn(
  originals: ReadonlyMap<string, string>,
  strings: readonly string[],
  maxWork = maxToolScopeWork,
): Map<string, string> {
  let total = 0;
  for (const text of strings) total += text.length;
  const shown = new Map<string, string>();
  let work = 0;
  for (const [token, value] of originals) {
    work += total + value.length;
    if (work > maxWork) break;
    if (value.length > 0 && strings.some(text => text.includes(value))) shown.set(token, value);
  }
  return shown;
}
