/** Longest validator message a record may quote; a longer one is left out. */
const MAX_SHOWN_MESSAGE = 200;
/** Shortest text of the answer looked for anywhere in a message (shorter ones only when quoted). */
const MIN_SEARCHED_TEXT = 3;

/**
 * The texts of a parsed answer a validator message could quote: its object
 * keys, strings and numbers, each at most `maxLength` characters (a longer
 * one cannot be inside the message). One walk, with an explicit stack.
 */
function answerTexts(value: unknown, maxLength: number): Set<string> {
  const texts = new Set<string>();
  const keep = (text: string) => {
    if (text.length > 0 && text.length <= maxLength) texts.add(text);
  };
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') keep(node);
    else if (typeof node === 'number') keep(String(node));
    else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        keep(key);
        stack.push(child);
      }
    }
  }
  return texts;
}

/**
 * The texts a message puts in quotes (`"…"`, `` `…` ``, and `'…'` where the
 * `'` is no apostrophe: not after a letter or digit), each from its quote
 * to the next same one.
 */
function quotedPieces(message: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < message.length; at++) {
    const quote = message[at]!;
    if (quote !== '"' && quote !== '`' && quote !== "'") continue;
    if (quote === "'" && /[\p{L}\p{N}]/u.test(message[at - 1] ?? '')) continue;
    const close = message.indexOf(quote, at + 1);
    if (close === -1) break;
    pieces.push(message.slice(at + 1, close));
    at = close;
  }
  return pieces;
}

/**
 * The validator's message of a failed schema check as a record may show it,
 * or `undefined` when it quotes the answer. Records travel to logs,
 * telemetry and (through `providerMetadata`) to the browser, while the
 * answer they are about was blocked: zod's `Unrecognized key: "…"` names a
 * key of the answer (paths show such keys as `*`), and other Standard
 * Schema libraries write the value they received into the message
 * (`Expected number but received "…"`). A message is left out when it holds
 * a text of the answer (a key, a string or a number) of three characters or
 * more, or a shorter one in quotes, unless the schema itself spells that
 * text (an enum value, a declared property name): those are configuration.
 * Since round 37 it is left out too when it quotes any text the schema does
 * not spell: a value quoted escaped (`"a\"b"`, `"a\nb"`, as `JSON.stringify`
 * writes it) or cut short (`"sk_live_4…"`) is no text of the answer, and
 * the message was kept with it.
 * Messages over 200 characters are left out. Bounded: at most 200² / 2
 * substrings of the message are looked up, whatever the answer's size.
 */
export function shownIssueMessage(
  message: unknown,
  answer: unknown,
  schemaKnows: (text: string) => boolean,
): string | undefined {
  if (typeof message !== 'string' || message.length > MAX_SHOWN_MESSAGE) return undefined;
  const texts = answerTexts(answer, message.length);
  if (texts.size === 0) return message;
  const quotes = (text: string, at: number) => {
    const before = message[at - 1];
    return (
      before !== undefined &&
      (before === '"' || before === "'" || before === '`') &&
      message[at + text.length] === before
    );
  };
  for (const piece of quotedPieces(message)) {
    if (!schemaKnows(piece)) return undefined;
  }
  for (let start = 0; start < message.length; start++) {
    for (let end = start + 1; end <= message.length; end++) {
      const piece = message.slice(start, end);
      if (!texts.has(piece)) continue;
      if (piece.length < MIN_SEARCHED_TEXT && !quotes(piece, start)) continue;
      if (!schemaKnows(piece)) return undefined;
    }
  }
  return message;
}
