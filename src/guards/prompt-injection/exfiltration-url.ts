/**
 * Exfiltration through a rendered URL (issue 15, round 47): a markdown image
 * or link, `![x](https://host/p?q=[QUERY])` or `[x](https://host/?d=[DATA])`,
 * or an HTML `src=`, whose URL carries a fill-in slot as a parameter's value
 * (right after `?`, `#`, `=` or `&`): a bracketed name (`[QUERY]`,
 * `[DATA]`; curly and `$` slots are template code's, see `hasSlot`). The model is told to put data (a
 * token, the conversation, its instructions) into the URL, and the client
 * sends it out when it renders the image (Rehberger's markdown-image
 * exfiltration; garak's `xss` probes; spikee's `![image](…?q=[QUERY])`).
 * The kind of attack, not a string: any host, any slot name.
 *
 * A markdown reference definition (`[1]: https://host/p.gif?d=[SECRET]`)
 * renders as `](` does when the text uses its label as an image or link
 * (`![p][1]`, `[p][1]`, `[1][]`, `![1]`; round 47 hM, from the review): its
 * URL is read too, only then.
 *
 * One pass over the text: each URL is read once, whole (the search goes on
 * after its end; round 47 review: a cap of 2,048 characters let padding in
 * the parameters hide the slot). No RegExp.
 */

/** Signal id of the exfiltration URL in `scorePromptInjection`'s signals. */
export const EXFILTRATION_URL_SIGNAL = 'exfiltration-url';

/**
 * Probability a direct-mode text gets when it carries an exfiltration URL
 * (the higher of it and the model's counts): over every threshold the
 * trainer picks.
 */
export const EXFILTRATION_URL_PROBABILITY = 0.99;

/** Longest slot name. */
const MAX_SLOT = 40;

const BRACKET_CLOSE = 0x5d;

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isSlotChar(code: number): boolean {
  return (
    isLetter(code) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f /* _ */ ||
    code === 0x2d /* - */
  );
}

/** A URL ends at whitespace, a closing parenthesis, a quote or `>`. */
function endsUrl(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0x29 ||
    code === 0x22 ||
    code === 0x27 ||
    code === 0x3e ||
    code === 0x60
  );
}

/**
 * Length of `http://` / `https://` at `at` (any case), or of `//` before a
 * host's first letter or digit (a protocol-relative URL, which a client
 * fetches as its page's scheme: round 47 review), else 0.
 */
function schemeLength(text: string, at: number): number {
  if (text.startsWith('//', at)) {
    const host = text.charCodeAt(at + 2);
    return isLetter(host) || (host >= 0x30 && host <= 0x39) ? 2 : 0;
  }
  if (at + 7 > text.length) return 0;
  const lower = (offset: number) => text.charCodeAt(at + offset) | 0x20;
  if (lower(0) !== 0x68 || lower(1) !== 0x74 || lower(2) !== 0x74 || lower(3) !== 0x70) return 0;
  let index = 4;
  if (lower(index) === 0x73) index++;
  return text.startsWith('://', at + index) ? index + 3 : 0;
}

/**
 * Where a slot that opens at `at` (with `open`) closes, or -1: a name of
 * 1..MAX_SLOT slot characters that starts with a letter, then `close`.
 */
function slotEnd(text: string, at: number, end: number, close: number): number {
  const first = at + 1;
  if (first >= end || !isLetter(text.charCodeAt(first))) return -1;
  const last = Math.min(end, first + MAX_SLOT + 1);
  for (let index = first + 1; index < last; index++) {
    const code = text.charCodeAt(index);
    if (code === close) return index;
    if (!isSlotChar(code)) return -1;
  }
  return -1;
}

/**
 * Whether `text[start, end)` (a URL after its scheme) has a slot in its
 * parameters: `[NAME]` right after `?`, `#`, `=` or `&` (`?q=[QUERY]`,
 * `azure=[DATA]`), not followed by `=` or `[` (a key such as JSON:API's
 * `?filter[status]=open` is no slot). Curly, `$NAME` and `%NAME%` slots are
 * not read: they are how template code writes a URL (Vue's `{{userId}}`,
 * OpenSearch's `{searchTerms}`, a badge's `$BRANCH_NAME`; round 47 review),
 * and no attack of the corpora or dev sets writes one.
 */
function hasSlot(text: string, start: number, end: number): boolean {
  let inParameters = false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x3f || code === 0x23 || code === 0x3d || code === 0x26) {
      // ? # = &
      inParameters = true;
      continue;
    }
    if (!inParameters || code !== 0x5b) continue;
    const before = text.charCodeAt(index - 1);
    if (before !== 0x3f && before !== 0x23 && before !== 0x3d && before !== 0x26) continue;
    const close = slotEnd(text, index, end, BRACKET_CLOSE);
    if (close < 0) continue;
    const after = text.charCodeAt(close + 1);
    if (after !== 0x3d && after !== 0x5b) return true;
  }
  return false;
}

/**
 * Where the URL that opens at `at` ends (exclusive), read whole (`-end - 1`
 * when it has a slot); `at` itself when no URL opens there.
 */
function urlEnd(text: string, at: number): number {
  let start = at;
  while (start < text.length && start < at + 3) {
    const code = text.charCodeAt(start);
    // `](<https://…>)`, `src="https://…"`, `]( https://…)`
    if (code !== 0x3c && code !== 0x22 && code !== 0x27 && code !== 0x20) break;
    start++;
  }
  const scheme = schemeLength(text, start);
  if (scheme === 0) return at;
  let end = start + scheme;
  while (end < text.length && !endsUrl(text.charCodeAt(end))) end++;
  return hasSlot(text, start + scheme, end) ? -end - 1 : end;
}

/**
 * Whether `text` carries an exfiltration URL: a markdown image or link
 * target (`](`) or an HTML `src=` whose http(s) URL has a fill-in slot in its
 * parameters. Linear: every character is read at most a bounded number of
 * times (the search goes on after each URL read).
 */
export function hasExfiltrationUrl(text: string): boolean {
  return hasTargetWithSlot(text) || hasReferenceWithSlot(text);
}

/** `](` and `src=` targets (see `hasExfiltrationUrl`). */
function hasTargetWithSlot(text: string): boolean {
  let from = 0;
  // Each search resumes only when the search point has passed its last find.
  let link = -2;
  let source = -2;
  while (from < text.length) {
    if (link !== -1 && link < from) link = text.indexOf('](', from);
    if (source !== -1 && source < from) source = indexOfSrc(text, from);
    const next = link < 0 ? source : source < 0 ? link : Math.min(link, source);
    if (next < 0) return false;
    const at = next === link ? link + 2 : source;
    const end = urlEnd(text, at);
    if (end < 0) return true;
    from = Math.max(end, next + 1);
  }
  return false;
}

/** Index of the next `src=` (any case) at or after `from`, just past its `=`; -1 if none. */
function indexOfSrc(text: string, from: number): number {
  let index = from;
  while (true) {
    const equals = text.indexOf('=', index);
    if (equals < 0) return -1;
    if (
      equals >= 3 &&
      (text.charCodeAt(equals - 3) | 0x20) === 0x73 &&
      (text.charCodeAt(equals - 2) | 0x20) === 0x72 &&
      (text.charCodeAt(equals - 1) | 0x20) === 0x63
    ) {
      return equals + 1;
    }
    index = equals + 1;
  }
}

/** Longest reference label read (CommonMark allows 999; longer ones are not read). */
const MAX_LABEL = 100;

const BRACKET_OPEN = 0x5b;

/**
 * The label of a bracket that opens at `at`, `[label]`, normalised
 * (lower case, blank runs as one space, trimmed), and where its `]` is; or
 * undefined (no `]` within MAX_LABEL characters, a `[` or a line break
 * first, or only blanks). Reads up to the next bracket only, so a scan of
 * every `[` reads each character at most twice.
 */
function readLabel(text: string, at: number): { label: string; close: number } | undefined {
  const last = Math.min(text.length, at + 2 + MAX_LABEL);
  let label = '';
  let blank = false;
  for (let index = at + 1; index < last; index++) {
    const code = text.charCodeAt(index);
    if (code === BRACKET_CLOSE) return label === '' ? undefined : { label, close: index };
    if (code === BRACKET_OPEN || code === 0x0a || code === 0x0d) return undefined;
    if (code <= 0x20) {
      blank = label !== '';
      continue;
    }
    if (blank) label += ' ';
    blank = false;
    label += text[index]!.toLowerCase();
  }
  return undefined;
}

/**
 * The labels of the text's reference definitions whose URL has a slot: a
 * line that opens (after up to 8 blanks or blockquote `>`) with `[label]:`
 * and an http(s) or protocol-relative URL (as `](`'s, optionally in `<>`;
 * on that line or the next).
 * One pass over the line starts; each definition's URL is read once.
 */
function slotDefinitions(text: string): Set<string> {
  const labels = new Set<string>();
  let line = 0;
  while (line < text.length) {
    let at = line;
    while (at < line + 8 && (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x3e)) at++;
    let next = text.indexOf('\n', at);
    if (next < 0) next = text.length;
    if (text.charCodeAt(at) === BRACKET_OPEN) {
      const read = readLabel(text, at);
      if (read !== undefined && text.charCodeAt(read.close + 1) === 0x3a /* : */) {
        // A URL ends at a blank, so within its line; it may open on the
        // next line (CommonMark: blanks and at most one line break first).
        if (urlEnd(text, definitionUrl(text, read.close + 2)) < 0) labels.add(read.label);
      }
    }
    line = next + 1;
  }
  return labels;
}

/** Where a definition's URL opens after its `:` at `at - 1`: past blanks and at most one line break. */
function definitionUrl(text: string, at: number): number {
  let index = at;
  let breaks = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x0a) {
      if (++breaks > 1) break;
    } else if (code !== 0x20 && code !== 0x09 && code !== 0x0d) break;
    index++;
  }
  return index;
}

/**
 * Whether a reference definition with a slot in its URL is used: its label
 * in brackets anywhere else, not followed by `:` (`![p][1]`, `[p][1]`,
 * `[1][]`, `![1]`, `[1]`). Read only when the text has `]:` at all.
 */
function hasReferenceWithSlot(text: string): boolean {
  if (text.indexOf(']:') < 0) return false;
  const labels = slotDefinitions(text);
  if (labels.size === 0) return false;
  let at = text.indexOf('[');
  while (at >= 0) {
    const read = readLabel(text, at);
    if (read !== undefined && text.charCodeAt(read.close + 1) !== 0x3a && labels.has(read.label)) {
      return true;
    }
    at = text.indexOf('[', at + 1);
  }
  return false;
}
