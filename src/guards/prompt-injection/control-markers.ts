import { namedFeature } from './hashed-features';

/**
 * Fake control markers (issue 15, round 49 hF): a user's message that
 * forges the structure a model reads its instructions from, so that what
 * follows passes for the system's or the developer's words rather than the
 * user's. Written from general knowledge of the kind (chat templates,
 * instruction-tuning formats, injected "system notes"), not from any
 * dataset. Three markers, each emitted as one named feature of the direct
 * detector (the model learns its weight beside the n-grams; no marker
 * decides on its own):
 *
 * - `marker:chat-token`: a chat-template special token (`<|im_start|>`,
 *   `<|system|>`, `<|endoftext|>`, `<<SYS>>`, `[INST]`, `<start_of_turn>`).
 * - `marker:system-label`: a line that opens with a system / instruction
 *   header: `system:`, `[system note: …`, `(system) …`, `### Instruction:`,
 *   `<system>`, `SYSTEM MESSAGE:`.
 * - `marker:banner`: a line-like banner: a run of two or more `#`, `*`, `%`,
 *   `=`, `-`, `~`, `<`, `>`, `[`, `]` around at most six words, one of them
 *   an instructions / system / update / override word ("*** new
 *   instructions ***", "%%% end of instructions %%%", "== system update ==").
 *
 * Folded text only (lower case, homoglyphs folded: `|` reads as `l`, see
 * `foldForModel`). Every expression is built once at load, anchored and
 * bounded (no nested unbounded repetition): linear time in the window.
 */

/** Marker names, in bit order. */
export const CONTROL_MARKERS = ['chat-token', 'system-label', 'banner', 'line-banner'] as const;

const CHAT_TOKEN = 1;
const SYSTEM_LABEL = 2;
const BANNER = 4;
const LINE_BANNER = 8;

// `|` folds to `l`; both are accepted.
const chatToken =
  /<[l|](?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|end_of_text|start_header_id|end_header_id|eot_id)[l|]>|<<\/?sys>>|\[\/?inst\]|<\/?(?:start|end)_of_turn>/;

// A line start, optional opening punctuation, then a system / instruction
// header word and its closing mark.
const systemLabel =
  /(?:^|\n)[ \t]{0,8}(?:[[({][ \t]{0,2}(?:system|sys)(?:[ \t]{1,3}(?:note|update|override|notice|alert|announcement|message))?[ \t]{0,3}[:\])}]|(?:system|sys)[ \t]{1,3}(?:note|update|override|notice|alert|announcement)[ \t]{0,3}[:\]])/g;

// Delimiter run, 1 to 6 words (one of them a banner word), delimiter run, on one line.
const bannerWord =
  'instructions?|system|update|override|admin|administrator|reprogramming|directives?|prompt|commands?|important|urgent|alert|begin|end';
// Markdown's own `**bold**`, `## heading`, `---` and `<tag>` are no banner:
// a run of three or more of `#*%=~`, or two of `#%=~`, on both sides.
const delimiter = '(?:[#*%=~]{3,8}|[#%=~]{2})';
const banner = new RegExp(
  `${delimiter}[ \\t]{0,3}(?:[a-z0-9']{1,20}[ \\t]{1,3}){0,5}?(?:${bannerWord})(?:[ \\t]{1,3}[a-z0-9']{1,20}){0,5}[ \\t]{0,3}${delimiter}`,
);

// Any-language banner at a line start: a delimiter run, one to six words
// of any script, a delimiter run ("*** nuevas instrucciones ***").
const lineBanner =
  /(?:^|\n)[ \t]{0,8}(?:[#*%=~]{3,8}|[#%~]{2})[ \t]{0,3}(?:\p{L}[\p{L}\p{N}'’]{0,19}[ \t]{1,3}){0,5}\p{L}[\p{L}\p{N}'’]{0,19}[ \t]{0,3}(?:[#*%=~]{3,8}|[#%~]{2})/u;

/** Bit mask of the control markers found in folded `text[start, end)` (bits in `CONTROL_MARKERS` order). */
export function controlMarkerMask(text: string, start: number, end: number): number {
  const window = start === 0 && end === text.length ? text : text.slice(start, end);
  let mask = 0;
  if (chatToken.test(window)) mask |= CHAT_TOKEN;
  if (matches(systemLabel, window)) mask |= SYSTEM_LABEL;
  if (banner.test(window)) mask |= BANNER;
  if (lineBanner.test(window)) mask |= LINE_BANNER;
  return mask;
}

/** Whether the global `pattern` matches `text` (from its start). */
function matches(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
}

/** Names of the markers of folded `text` (for tests and explanations). */
export function controlMarkerNames(folded: string): string[] {
  const mask = controlMarkerMask(folded, 0, folded.length);
  return CONTROL_MARKERS.filter((_, bit) => (mask & (1 << bit)) !== 0);
}

const indicesByBits: Int32Array[] = [];

/** Hashed feature index of each marker (`marker:<name>`), by `bits`. */
export function controlMarkerIndices(bits: number): Int32Array {
  indicesByBits[bits] ??= Int32Array.from(CONTROL_MARKERS, name =>
    namedFeature(`marker:${name}`, bits),
  );
  return indicesByBits[bits];
}
