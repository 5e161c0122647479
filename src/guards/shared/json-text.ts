/** The text a JSON document carries: see {@link jsonText}. */
export interface JsonText {
  /** The strings, escapes decoded, joined by line breaks in document order. */
  text: string;
  /** How many strings `text` is made of. */
  strings: number;
  /** Where the longest string (the first of that length) starts in `text`. */
  longestStart: number;
  /** Where it ends in `text` (exclusive). */
  longestEnd: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const whiteSpace = /\s/u;

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * How many levels of JSON written out as a string value (an MCP text
 * content whose text is the server's JSON payload) are read as JSON; a
 * deeper one is read as its text.
 */
export const MAX_NESTED_JSON = 3;

/**
 * The text a JSON document carries, for detectors that judge prose
 * (`promptInjection`, `harmfulContent`) at tool kinds: its string values,
 * escapes decoded, in document order, each on its own line(s). Keys that
 * read as names (no white space, one or two words: `"snippet"`,
 * `"created_at"`) and the JSON's punctuation are left out; a key with white
 * space in it is prose a tool can hide an instruction in, and is read as a
 * string of its own, as is a longer name, as its words (`keyWords`). Keys
 * without a string value, or with one that holds no letter (`""`, `"12"`),
 * are read as a line of their words (`{"Ignore":"","all":"",…}`), such a
 * value left out; so are keys whose value is one word (no white space, at
 * most 40 characters: `{"Ignore":"x","all":"y",…}`, round 20), such a
 * value read as a line of its own. Numbers,
 * booleans and `null` are left out. A string value that is itself a JSON
 * array or object (MCP servers return their payload written out as the
 * text of a text content) is read the same way, up to `MAX_NESTED_JSON`
 * levels, its strings counted as the document's.
 *
 * Read as written, a string's last line ended in `"}` and its first began
 * after `{"content":"`, so a line-anchored signal (a standalone imperative
 * line) never fired on the first or last line of a document returned as a
 * tool result, and a text split into several strings was read as one line.
 * `undefined` when `json` is not a JSON array, object or string (read it as
 * written: nothing outside a string may go unread; brackets need not
 * balance). One scan, linear in the text at any depth; a nested document
 * is scanned once more per level.
 */
export function jsonText(json: string): JsonText | undefined {
  let index = 0;
  while (index < json.length && isJsonSpace(json.charCodeAt(index))) index++;
  const first = json.charCodeAt(index);
  if (first !== 0x7b && first !== 0x5b && first !== QUOTE) return undefined;
  return readStrings(json, index, 0);
}

// A number or literal of JSON, read where a token starts (sticky): one
// token, no nested repetition, so each match is linear in its length.
const jsonToken = /true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const tokenGlue = /[A-Za-z0-9_.+-]/;

/**
 * Whether `json` from `from` to `to` (outside strings) holds only JSON
 * punctuation, white space, numbers and literals: then nothing but the
 * strings carries text. Bracket balance is not checked: it hides nothing.
 * (JSON.parse checked more, but grew superlinear on deep nesting: 1 MB of
 * `[` took 24 times what 0.5 MB took.)
 */
function onlyStructure(json: string, from: number, to: number): boolean {
  let index = from;
  while (index < to) {
    const code = json.charCodeAt(index);
    if (
      isJsonSpace(code) ||
      code === 0x7b ||
      code === 0x7d ||
      code === 0x5b ||
      code === 0x5d ||
      code === 0x2c ||
      code === COLON
    ) {
      index++;
      continue;
    }
    jsonToken.lastIndex = index;
    if (!jsonToken.test(json) || jsonToken.lastIndex > to) return false;
    index = jsonToken.lastIndex;
    if (index < to && tokenGlue.test(json[index]!)) return false;
  }
  return true;
}

/** Whether `text` starts with `{` or `[` and ends with `}` or `]`, blanks aside: worth parsing. */
function looksLikeJsonDocument(text: string): boolean {
  let start = 0;
  while (start < text.length && isJsonSpace(text.charCodeAt(start))) start++;
  let end = text.length - 1;
  while (end > start && isJsonSpace(text.charCodeAt(end))) end--;
  const first = text.charCodeAt(start);
  const last = text.charCodeAt(end);
  return (first === 0x7b && last === 0x7d) || (first === 0x5b && last === 0x5d);
}

// Every character but letters and digits parts a key's words (`+`, `,`,
// `|`, `=` too: `IGNORE+ALL+PREVIOUS+INSTRUCTIONS` was one word).
const keySeparators = /[^\p{L}\p{N}]+/gu;
const caseChange = /([a-z0-9])(?=[A-Z])/g;
const hasLetter = /\p{L}/u;

/**
 * A key without white space read as the words it is made of (every
 * character but letters and digits, and a lower-to-upper case change, as spaces), when it
 * is a phrase of three words or more; '' for a name of one or two words
 * (`snippet`, `created_at`, `userId`), which is left out as before. Left
 * out whatever its length, `ignore_all_previous_instructions_and_…` carried
 * an instruction the model reads past every detector; read as written, it
 * was one word to them.
 */
function keyWords(key: string): string {
  if (!hasLetter.test(key)) return '';
  const words = key.replace(keySeparators, ' ').replace(caseChange, '$1 ').trim();
  let spaces = 0;
  for (
    let index = words.indexOf(' ');
    index >= 0 && spaces < 2;
    index = words.indexOf(' ', index + 1)
  )
    spaces++;
  return spaces >= 2 ? words : '';
}

/** A key's words (every character but letters and digits, and a lower-to-upper case change, as spaces); '' without a letter. */
function nameWords(key: string): string {
  if (!hasLetter.test(key)) return '';
  return key.replace(keySeparators, ' ').replace(caseChange, '$1 ').trim();
}

/** The longest string value read as one word beside its key (a name, an id, a status). */
const MAX_ONE_WORD = 40;

/** Whether `value` is one word: no white space, at most `MAX_ONE_WORD` characters. */
function isOneWord(value: string): boolean {
  return value.length <= MAX_ONE_WORD && !whiteSpace.test(value);
}

function wordCount(words: string): number {
  let count = 1;
  for (let index = words.indexOf(' '); index >= 0; index = words.indexOf(' ', index + 1)) count++;
  return count;
}

/**
 * The strings of `json` from `index` on, or `undefined` when something
 * outside its strings is not JSON structure, or a string does not end or
 * holds an escape JSON does not allow.
 */
function readStrings(json: string, index: number, depth: number): JsonText | undefined {
  // Built with += in locals (held in an object or a closure, the text was
  // several times slower to build on 100,000 strings).
  let text = '';
  let strings = 0;
  let longestStart = 0;
  let longestEnd = 0;
  // Where the next backslash is, searched again only once passed: linear.
  let nextBackslash = json.indexOf('\\');
  let structureFrom = index;
  // The words of the keys read since the last string value, when none of
  // them had a string value (`{"Ignore":1,"all":2,…}`,
  // `{"ignore":{"all":{"previous":…}}}`): one line once a string value or
  // the end comes, if it holds three words or more.
  let bareKeys = '';
  let bareWords = 0;
  const addLine = (line: string, count = 1, longestFrom = 0, longestTo = line.length) => {
    if (strings > 0) text += '\n';
    if (strings === 0 || longestTo - longestFrom > longestEnd - longestStart) {
      longestStart = text.length + longestFrom;
      longestEnd = text.length + longestTo;
    }
    text += line;
    strings += count;
  };
  /**
   * A key without a string value (or with one that holds no word): its
   * words join the keys before it that had none either, an instruction
   * spread one word a key.
   */
  const addBareKey = (name: string) => {
    const words = nameWords(name);
    if (words === '') return;
    bareKeys += bareKeys === '' ? words : ` ${words}`;
    bareWords += wordCount(words);
  };
  /** The key whose string value comes next. */
  let key: string | undefined;
  /** The one-word values of keys read into `bareKeys`, read after their line. */
  let pendingValues: string[] = [];
  const endBareKeys = () => {
    if (bareWords >= 3) addLine(bareKeys);
    bareKeys = '';
    bareWords = 0;
    if (pendingValues.length === 0) return;
    for (const value of pendingValues) addLine(value);
    pendingValues = [];
  };
  let open = json.indexOf('"', index);
  while (open >= 0) {
    if (!onlyStructure(json, structureFrom, open)) return undefined;
    // The string ends at the first quote not escaped.
    let close = open + 1;
    for (;;) {
      if (close >= json.length) return undefined;
      const code = json.charCodeAt(close);
      if (code === QUOTE) break;
      close += code === BACKSLASH ? 2 : 1;
    }
    if (nextBackslash >= 0 && nextBackslash < open) nextBackslash = json.indexOf('\\', open);
    const escaped = nextBackslash >= 0 && nextBackslash < close;
    let string: string;
    if (!escaped) string = json.slice(open + 1, close);
    else {
      try {
        string = JSON.parse(json.slice(open, close + 1)) as string;
      } catch {
        return undefined;
      }
    }
    structureFrom = close + 1;
    let next = close + 1;
    while (next < json.length && isJsonSpace(json.charCodeAt(next))) next++;
    open = json.indexOf('"', close + 1);
    const isKey = json.charCodeAt(next) === COLON;
    if (isKey) {
      let value = next + 1;
      while (value < json.length && isJsonSpace(json.charCodeAt(value))) value++;
      // A key with a string value is read once that value is: see below.
      if (json.charCodeAt(value) === QUOTE) key = string;
      else addBareKey(string);
      continue;
    }
    if (key !== undefined) {
      const name = key;
      key = undefined;
      if (!hasLetter.test(string)) {
        // A value without a word (`""`, `" "`, `"12"`) says nothing: its key
        // is read as a key without a string value (round 19: `{"Ignore":"",
        // "all":"",…}` scored 0). The value is left out.
        addBareKey(name);
        continue;
      }
      if (isOneWord(string) && !whiteSpace.test(name) && !looksLikeJsonDocument(string)) {
        // A one-word value (`"x"`, `"Alice"`): its key joins the keys
        // without a string value before it, and the value is read on a line
        // of its own after their line (round 20: `{"Ignore":"x","all":"y",
        // "previous":"z","instructions":"w"}` read as `x y z w`, the keys
        // left out as names).
        addBareKey(name);
        pendingValues.push(string);
        continue;
      }
      endBareKeys();
      // A name's words, as the model reads them (`ignore_previous_instructions`);
      // a key with white space in it as written.
      const words = whiteSpace.test(name) ? name : keyWords(name);
      if (words !== '') addLine(words);
    } else endBareKeys();
    // Its longest string (itself, unless it is a JSON document read as one).
    let count = 1;
    let longestFrom = 0;
    let longestTo = string.length;
    const nested =
      depth < MAX_NESTED_JSON && looksLikeJsonDocument(string)
        ? readStrings(string, 0, depth + 1)
        : undefined;
    if (nested) {
      if (nested.strings === 0) continue;
      ({ text: string, strings: count, longestStart: longestFrom, longestEnd: longestTo } = nested);
    }
    addLine(string, count, longestFrom, longestTo);
  }
  if (!onlyStructure(json, structureFrom, json.length)) return undefined;
  endBareKeys();
  return { text, strings, longestStart, longestEnd };
}

/**
 * The highest-scoring reading of a JSON text: its strings joined by line
 * breaks (a text split into several strings reads as the document it is,
 * and a list of short strings as the same strings written one a line),
 * and, when one string holds at least half of the characters of its
 * strings and is at most `maxAloneLength` long, that string on its own: the
 * document a tool returned, as it reads written plainly, not diluted by the
 * title, URL or type tag beside it (`{"content":[{"type":"text","text":
 * …}]}`). A longer one is read in the joined text in windows of its own
 * but at its ends, so it is not read twice: the work stays one reading of
 * the text and at most `maxAloneLength` characters more. Only that one
 * string: judging every string alone blocked lists of benign strings
 * (harmfulContent() on search results and product lists made of novel
 * paragraphs: 75 and 79 of 114, against 0 as plain text), each extra
 * reading being one more chance to trip. `undefined` when `json` is not
 * JSON ({@link jsonText}).
 */
export function bestJsonReading<SCORE extends { score: number }>(
  json: string,
  score: (text: string) => SCORE,
  maxAloneLength: number,
): SCORE | undefined {
  const read = jsonText(json);
  if (!read) return undefined;
  const { text, strings, longestStart, longestEnd } = read;
  const joined = score(text);
  const longest = longestEnd - longestStart;
  const characters = text.length - (strings - 1);
  if (strings < 2 || longest * 2 < characters || longest > maxAloneLength) return joined;
  const alone = score(text.slice(longestStart, longestEnd));
  return alone.score > joined.score ? alone : joined;
}
