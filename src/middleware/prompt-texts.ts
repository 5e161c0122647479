import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';

type UserContent = Extract<LanguageModelV4Message, { role: 'user' }>['content'];

/**
 * One text of a prompt that input guardrails judge: a system message, or all
 * the text parts of one user message joined as the model reads them.
 */
export interface PromptText {
  /** Index of the message in the prompt. */
  message: number;
  role: 'system' | 'user';
  /** The text parts' texts joined without a separator (the system message's content). */
  text: string;
  /** User messages: index of each text part in the message's content, in order. */
  parts: number[];
  /** User messages: length of each of those parts' texts. */
  lengths: number[];
}

/**
 * The texts input guardrails judge, in prompt order: user messages, system
 * messages inside the conversation (after its first user, assistant or tool
 * message), and with `includeSystem` the leading system messages too. The text parts of one
 * user message are joined with nothing between them, so that a value split
 * across parts (an e-mail address in two halves) is seen whole, as the model
 * sees it. User messages without text (images or files only) give no text.
 */
export function promptTexts(prompt: LanguageModelV4Prompt, includeSystem: boolean): PromptText[] {
  const texts: PromptText[] = [];
  // The system messages before the conversation are the server's (the `system`
  // option); one inside it came with the messages, which the client owns (AI
  // SDK 6 passes them on with a warning), so it is always judged.
  let inConversation = false;
  for (let index = 0; index < prompt.length; index++) {
    const message = prompt[index]!;
    if (message.role === 'system') {
      if (includeSystem || inConversation) {
        texts.push({
          message: index,
          role: 'system',
          text: message.content,
          parts: [],
          lengths: [],
        });
      }
      continue;
    }
    inConversation = true;
    if (message.role !== 'user') continue;
    const parts: number[] = [];
    const lengths: number[] = [];
    const pieces: string[] = [];
    message.content.forEach((part, p) => {
      if (part.type !== 'text') return;
      parts.push(p);
      lengths.push(part.text.length);
      pieces.push(part.text);
    });
    if (parts.length > 0) {
      texts.push({ message: index, role: 'user', text: pieces.join(''), parts, lengths });
    }
  }
  return texts;
}

function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: string, b: string, prefix: number): number {
  const max = Math.min(a.length, b.length) - prefix;
  let i = 0;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/**
 * Splits the modified text of a multi-part message back into its parts.
 * Text before the first change and after the last one keeps its part; the
 * changed region (from the first changed character to the last) goes whole
 * into the part where it starts, and the other parts it covered lose what it
 * covered. So the parts always join to exactly `modified`, and no part keeps
 * a character of the original that a guardrail replaced, even when a
 * redaction spans a boundary. Linear in the length of the texts.
 */
export function splitModified(original: string, modified: string, lengths: number[]): string[] {
  if (lengths.length === 1) return [modified];
  const prefix = commonPrefix(original, modified);
  const suffix = commonSuffix(original, modified, prefix);
  const changeEnd = original.length - suffix; // end of the changed region in the original
  const replacement = modified.slice(prefix, modified.length - suffix);
  const result: string[] = [];
  let start = 0;
  let placed = false;
  for (const length of lengths) {
    const end = start + length;
    // The part's text = its piece before the change + (the replacement, once) + its piece after.
    const before = original.slice(start, Math.min(end, Math.max(start, prefix)));
    const after = original.slice(Math.max(start, Math.min(end, changeEnd)), end);
    let middle = '';
    // The replacement goes to the part holding the change's first character
    // (or, for a pure insertion at a boundary, the part ending there).
    if (!placed && (prefix < end || (prefix === end && end === original.length))) {
      middle = replacement;
      placed = true;
    }
    result.push(before + middle + after);
    start = end;
  }
  if (!placed) result[result.length - 1] += replacement;
  return result;
}

/**
 * The prompt with the judged texts replaced by `modified` (same order as
 * `texts`); messages whose text did not change are kept as they were.
 */
export function rebuildPrompt(
  prompt: LanguageModelV4Prompt,
  texts: readonly PromptText[],
  modified: readonly string[],
): LanguageModelV4Prompt {
  let output: LanguageModelV4Prompt | undefined;
  texts.forEach((entry, i) => {
    const text = modified[i]!;
    if (text === entry.text) return;
    output ??= [...prompt];
    const message = prompt[entry.message]!;
    if (message.role === 'system') {
      output[entry.message] = { ...message, content: text };
      return;
    }
    if (message.role !== 'user') return;
    const pieces = splitModified(entry.text, text, entry.lengths);
    const content: UserContent = [...message.content];
    entry.parts.forEach((p, k) => {
      const part = content[p]!;
      if (part.type === 'text' && part.text !== pieces[k])
        content[p] = { ...part, text: pieces[k]! };
    });
    output[entry.message] = { ...message, content };
  });
  return output ?? prompt;
}

/**
 * The user text of a whole prompt, for per-call guardrails: each user
 * message's text (parts joined as in `promptTexts`), messages separated by a
 * newline. Empty when the prompt has no user text (images only).
 */
export function userTextOf(texts: readonly PromptText[], modified: readonly string[]): string {
  const pieces: string[] = [];
  texts.forEach((entry, i) => {
    if (entry.role === 'user') pieces.push(modified[i]!);
  });
  return pieces.join('\n');
}
