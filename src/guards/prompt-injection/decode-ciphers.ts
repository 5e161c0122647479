/**
 * Readers of the classic text encodings that jailbreaks hide a request in
 * besides base64, hex, URL escapes and tag characters (Wei et al. 2023,
 * "Jailbroken: How Does LLM Safety Training Fail?"; Yuan et al. 2023,
 * "GPT-4 Is Too Smart To Be Safe: Stealthy Chat with LLMs via Cipher"):
 * base32, 8-bit binary, Morse code, Braille and the NATO spelling alphabet,
 * and pieces in a Caesar cipher or written backwards. Each finds its runs
 * or pieces in one pass over the text and decodes each once, so the work
 * is linear in the length of the text; `decodeSegments` keeps a result
 * only when it reads as text.
 */

/** Shortest run of each encoding that is decoded. */
const MIN_BASE32 = 16;
const MIN_BINARY_BYTES = 4;
const MIN_MORSE = 12;
const MIN_BRAILLE = 6;
const MIN_NATO_WORDS = 6;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const base32Value = new Int8Array(128).fill(-1);
for (const [value, char] of [...BASE32_ALPHABET].entries()) {
  base32Value[char.charCodeAt(0)] = value;
}

/**
 * Maximal runs of `text` whose UTF-16 units all satisfy `inClass`, at least
 * `minLength` long, as [start, end) pairs. Such a run covers every
 * `minLength`-th position, so only those are read until one is in the
 * class (as `decodeSegments` finds base64 runs): linear, and a few reads per
 * `minLength` characters of ordinary text.
 */
export function classRuns(
  text: string,
  inClass: (unit: number) => boolean,
  minLength: number,
): number[] {
  const runs: number[] = [];
  const length = text.length;
  // The character before `index`, if any, is not in the class: no run crosses it.
  let index = 0;
  while (index + minLength <= length) {
    const probe = index + minLength - 1;
    if (!inClass(text.charCodeAt(probe))) {
      index = probe + 1;
      continue;
    }
    let start = probe;
    while (start > index && inClass(text.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < length && inClass(text.charCodeAt(end))) end++;
    if (end - start >= minLength) runs.push(start, end);
    index = end + 1;
  }
  return runs;
}

/**
 * A run of one encoding found in a text: where it is (`[start, end)`, so
 * that its written form can be left out of what the model reads) and what
 * it reads as.
 */
export interface EncodedRun<T> {
  start: number;
  end: number;
  value: T;
}

/**
 * The base32 runs of `text` (RFC 4648 alphabet, upper case; '=' padding
 * ends a run, so encoded pieces written one after another are each read;
 * the run's span takes in its padding). A run needs a digit as well as
 * letters: a long upper-case word is none.
 */
export function base32Runs(text: string): Array<EncodedRun<string>> {
  const runs = classRuns(text, unit => unit < 128 && base32Value[unit]! >= 0, MIN_BASE32);
  const found: Array<EncodedRun<string>> = [];
  for (let index = 0; index < runs.length; index += 2) {
    const start = runs[index]!;
    let end = runs[index + 1]!;
    const run = text.slice(start, end);
    if (!/[2-7]/.test(run)) continue;
    // The span takes in the padding (up to six '='): part of the written form.
    for (let pad = 0; pad < 6 && text.charCodeAt(end) === 61; pad++) end++;
    found.push({ start, end, value: run });
  }
  return found;
}

/** The bytes of a base32 run (trailing bits that make no whole byte are dropped). */
export function base32Bytes(run: string): Uint8Array {
  const bytes = new Uint8Array(Math.floor((run.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (let index = 0; index < run.length; index++) {
    buffer = ((buffer << 5) | base32Value[run.charCodeAt(index)]!) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

/** An ascii85 character: '!' to 'u' (a base-85 digit) or 'z' (four zero bytes). */
const isAscii85 = (unit: number) => (unit >= 33 && unit <= 117) || unit === 122;

/** Most bytes of one piece of an ascii85 run (the decoders read long runs piece by piece). */
const ASCII85_PIECE_BYTES = 3276;

/**
 * The ascii85 runs of `text` (Adobe's `<~ … ~>`, whose inside may hold
 * blanks and line breaks, and bare runs of at least `MIN_BASE32` ascii85
 * characters, as base32's), each as its bytes in pieces of at most
 * `ASCII85_PIECE_BYTES`. Decoding stops at the first group that is none (a
 * value past 2^32, a 'z' inside a group); a last group of 2–4 characters
 * gives 1–3 bytes. A delimited run's span takes in its delimiters.
 */
export function ascii85Runs(text: string): Array<EncodedRun<Uint8Array[]>> {
  const found: Array<EncodedRun<Uint8Array[]>> = [];
  // Delimited runs first; bare runs are looked for between them.
  const delimited: number[] = [];
  for (let open = text.indexOf('<~'); open >= 0; ) {
    const close = text.indexOf('~>', open + 2);
    if (close < 0) break;
    delimited.push(open, close + 2);
    found.push({ start: open, end: close + 2, value: ascii85Bytes(text, open + 2, close) });
    open = text.indexOf('<~', close + 2);
  }
  let from = 0;
  for (let index = 0; index <= delimited.length; index += 2) {
    const to = index < delimited.length ? delimited[index]! : text.length;
    const runs = classRuns(text.slice(from, to), isAscii85, MIN_BASE32);
    for (let at = 0; at < runs.length; at += 2) {
      const start = from + runs[at]!;
      const end = from + runs[at + 1]!;
      found.push({ start, end, value: ascii85Bytes(text, start, end) });
    }
    from = delimited[index + 1] ?? text.length;
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The bytes that `text[start, end)` spells in ascii85 (blanks skipped), in pieces. */
function ascii85Bytes(text: string, start: number, end: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  // A piece's buffer is no longer than the rest of the run can fill (at most
  // 4 bytes a character, a 'z'): a full-size buffer for each short run (a
  // word of punctuation and letters is one) made 3 KB of garbage per run, and
  // a 1 MB text of them cost 4.6x a 0.25 MB one (round 41).
  const sized = (from: number) =>
    new Uint8Array(Math.min(ASCII85_PIECE_BYTES, 4 * (end - from)) + 4);
  let bytes = sized(start);
  let count = 0;
  let group = 0;
  let digits = 0;
  let index = start;
  const flush = () => {
    pieces.push(bytes.subarray(0, count));
    count = 0;
  };
  for (; index < end; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 32 || unit === 10 || unit === 13 || unit === 9) continue;
    if (unit === 122) {
      if (digits !== 0) break;
      count += 4;
    } else if (unit >= 33 && unit <= 117) {
      group = group * 85 + (unit - 33);
      if (++digits < 5) continue;
      if (group > 0xffffffff) break;
      bytes[count++] = group >>> 24;
      bytes[count++] = (group >>> 16) & 0xff;
      bytes[count++] = (group >>> 8) & 0xff;
      bytes[count++] = group & 0xff;
      group = 0;
      digits = 0;
    } else break;
    if (count >= ASCII85_PIECE_BYTES) {
      flush();
      bytes = sized(index + 1);
    }
  }
  // A cut last group: padded with 'u' (84), it gives one byte fewer than its digits.
  if (index === end && digits >= 2) {
    for (let pad = digits; pad < 5; pad++) group = group * 85 + 84;
    if (group <= 0xffffffff) {
      for (let at = 0; at < digits - 1; at++) bytes[count++] = (group >>> (24 - 8 * at)) & 0xff;
    }
  }
  if (count > 0 || pieces.length === 0) flush();
  return pieces;
}

/** Runs of 8-bit binary groups ("01001000 01101001 …"), as the bytes they spell. */
export function binaryRuns(text: string): Array<EncodedRun<Uint8Array>> {
  const runs = classRuns(
    text,
    unit => unit === 48 || unit === 49 || unit === 32,
    MIN_BINARY_BYTES * 9 - 1,
  );
  const found: Array<EncodedRun<Uint8Array>> = [];
  for (let index = 0; index < runs.length; index += 2) {
    const groups = text.slice(runs[index]!, runs[index + 1]!).split(' ');
    const bytes: number[] = [];
    for (const group of groups) {
      if (group === '') continue;
      // A group that is no byte ends what is read (a cut last group is dropped).
      if (group.length !== 8) break;
      bytes.push(Number.parseInt(group, 2));
    }
    if (bytes.length >= MIN_BINARY_BYTES) {
      found.push({ start: runs[index]!, end: runs[index + 1]!, value: Uint8Array.from(bytes) });
    }
  }
  return found;
}

/** Morse code of each letter, digit and mark read (ITU). */
export const MORSE: Record<string, string> = {
  '.-': 'a',
  '-...': 'b',
  '-.-.': 'c',
  '-..': 'd',
  '.': 'e',
  '..-.': 'f',
  '--.': 'g',
  '....': 'h',
  '..': 'i',
  '.---': 'j',
  '-.-': 'k',
  '.-..': 'l',
  '--': 'm',
  '-.': 'n',
  '---': 'o',
  '.--.': 'p',
  '--.-': 'q',
  '.-.': 'r',
  '...': 's',
  '-': 't',
  '..-': 'u',
  '...-': 'v',
  '.--': 'w',
  '-..-': 'x',
  '-.--': 'y',
  '--..': 'z',
  '-----': '0',
  '.----': '1',
  '..---': '2',
  '...--': '3',
  '....-': '4',
  '.....': '5',
  '-....': '6',
  '--...': '7',
  '---..': '8',
  '----.': '9',
  '.-.-.-': '.',
  '--..--': ',',
  '..--..': '?',
  '.----.': "'",
  '-.-.--': '!',
  '-..-.': '/',
  '-.--.': '(',
  '-.--.-': ')',
  '---...': ':',
  '-.-.-.': ';',
  '-...-': '=',
  '.-.-.': '+',
  '-....-': '-',
  '.-..-.': '"',
  '.--.-.': '@',
};

/**
 * The Morse runs of `text` (dots and dashes, letters apart by a space,
 * words by '/' or more than one space), decoded; a run in which more than
 * a tenth of the codes are no Morse letter is dropped.
 */
export function morseRuns(text: string): Array<EncodedRun<string>> {
  const runs = classRuns(
    text,
    unit => unit === 46 || unit === 45 || unit === 47 || unit === 32,
    MIN_MORSE,
  );
  const found: Array<EncodedRun<string>> = [];
  for (let index = 0; index < runs.length; index += 2) {
    const run = text.slice(runs[index]!, runs[index + 1]!);
    if (!run.includes('.') || !run.includes('-') || !run.includes(' ')) continue;
    const words: string[] = [];
    let codes = 0;
    let unknown = 0;
    for (const word of run.split(/\s*\/\s*|\s{2,}/)) {
      let letters = '';
      for (const code of word.split(' ')) {
        if (code === '') continue;
        codes++;
        const letter = MORSE[code];
        if (letter === undefined) unknown++;
        else letters += letter;
      }
      if (letters !== '') words.push(letters);
    }
    if (codes > 0 && unknown * 10 <= codes) {
      found.push({ start: runs[index]!, end: runs[index + 1]!, value: words.join(' ') });
    }
  }
  return found;
}

/** Grade-1 English Braille: letters by dot pattern (bit k-1 = dot k), and the number sign. */
export const BRAILLE_LETTERS = new Map<number, string>();
for (const [letter, dots] of Object.entries({
  a: '1',
  b: '12',
  c: '14',
  d: '145',
  e: '15',
  f: '124',
  g: '1245',
  h: '125',
  i: '24',
  j: '245',
  k: '13',
  l: '123',
  m: '134',
  n: '1345',
  o: '135',
  p: '1234',
  q: '12345',
  r: '1235',
  s: '234',
  t: '2345',
  u: '136',
  v: '1236',
  w: '2456',
  x: '1346',
  y: '13456',
  z: '1356',
  ',': '2',
  ';': '23',
  ':': '25',
  '.': '256',
  '!': '235',
  '?': '236',
  "'": '3',
  '-': '36',
})) {
  let bits = 0;
  for (const dot of dots) bits |= 1 << (Number(dot) - 1);
  BRAILLE_LETTERS.set(bits, letter);
}
export const NUMBER_SIGN = 0b111100;
/** Character code of each cell's letter or mark (0: none, e.g. the capital sign). */
const BRAILLE_CODES = new Uint16Array(256);
for (const [bits, letter] of BRAILLE_LETTERS) BRAILLE_CODES[bits] = letter.charCodeAt(0);
/** After the number sign, the letters a to j are the digits 1 to 9 and 0. */
const DIGIT_OF = new Int8Array(128).fill(-1);
for (const [digit, letter] of [...'jabcdefghi'].entries()) DIGIT_OF[letter.charCodeAt(0)] = digit;

/** The Braille runs of `text` (U+2800–U+28FF, with spaces), read as grade-1 English. */
export function brailleRuns(text: string): Array<EncodedRun<string>> {
  if (!/[\u2800-\u28ff]/.test(text)) return [];
  const runs = classRuns(
    text,
    unit => (unit >= 0x2800 && unit <= 0x28ff) || unit === 32,
    MIN_BRAILLE,
  );
  const found: Array<EncodedRun<string>> = [];
  for (let index = 0; index < runs.length; index += 2) {
    // Character codes, made into a string in chunks (not one `+=` per cell).
    const codes: number[] = [];
    const parts: string[] = [];
    let cells = 0;
    let number = false;
    for (let at = runs[index]!; at < runs[index + 1]!; at++) {
      const unit = text.charCodeAt(at);
      const bits = unit - 0x2800;
      if (codes.length >= 4096) {
        parts.push(String.fromCharCode(...codes));
        codes.length = 0;
      }
      if (unit === 32 || bits === 0) {
        codes.push(32);
        number = false;
        continue;
      }
      cells++;
      if (bits === NUMBER_SIGN) {
        number = true;
        continue;
      }
      const letter = BRAILLE_CODES[bits]!;
      if (letter === 0) continue;
      const digit = number ? DIGIT_OF[letter]! : -1;
      codes.push(digit >= 0 ? 48 + digit : letter);
    }
    parts.push(String.fromCharCode(...codes));
    if (cells >= MIN_BRAILLE) {
      found.push({ start: runs[index]!, end: runs[index + 1]!, value: parts.join('').trim() });
    }
  }
  return found;
}

/** The letter of each NATO code word (both spellings where two are in use). */
export const NATO = new Map<string, string>();
for (const word of 'alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray x-ray yankee zulu'.split(
  ' ',
)) {
  NATO.set(word, word[0]!);
}

const codeWord = [...NATO.keys()].join('|');
const twoCodeWords = new RegExp(`\\b(?:${codeWord})[ \\t/]+(?:${codeWord})\\b`, 'i');

/**
 * The runs of NATO spelling-alphabet words in `text` ("Hotel India / Tango
 * …": a letter per word, '/' between words), spelt out; a run needs
 * `MIN_NATO_WORDS` code words in a row.
 */
export function natoRuns(text: string): Array<EncodedRun<string>> {
  const found: Array<EncodedRun<string>> = [];
  // Most texts hold no two code words in a row: one regex pass rules them out.
  if (!twoCodeWords.test(text)) return found;
  let letters = '';
  let words = 0;
  // Where the run's first code word starts and its last one ends.
  let start = 0;
  let end = 0;
  const flush = () => {
    if (words >= MIN_NATO_WORDS) found.push({ start, end, value: letters.trim() });
    letters = '';
    words = 0;
  };
  // Tokens: words (with an inner hyphen, for "X-ray") and slashes; anything
  // else between two tokens but blanks ends a run.
  const token = /[A-Za-z]+(?:-[A-Za-z]+)?|\//g;
  let last = 0;
  for (const match of text.matchAll(token)) {
    if (words > 0 && !/^[ \t]*$/.test(text.slice(last, match.index))) flush();
    last = match.index + match[0].length;
    if (match[0] === '/') {
      if (words > 0) letters += ' ';
      continue;
    }
    const letter = NATO.get(match[0].toLowerCase());
    if (letter === undefined) {
      flush();
      continue;
    }
    if (words === 0) start = match.index;
    end = last;
    letters += letter;
    words++;
  }
  flush();
  return found;
}

/**
 * Common English words of three letters or more: a piece of text in which
 * they appear only once shifted (a Caesar or ROT13 cipher) or spelt
 * backwards is read shifted back or reversed.
 */
const COMMON_WORDS =
  'the and for are but not you all any can had her was one our out day get has him his how man new now old see two way who did its let put say she too use why may own off end try ask big few set yes yet also that with have this will your from they know want been good much some time very when come here just like long make many more only over such take than them well were what tell give into about then each does find help work part made need same show last next both life most back look keep able down even must used word line call name there their would these other which could after first people because should every where while being those through before think right place thing small great still again below above never under might always around another without between something someone anything nothing everything answer number write create provide explain describe detailed information follow following instructions ignore previous system message please';

/** Shift classes: each listed word by the letters apart from its first one (a word and its shifts share one). */
const SHIFT_CLASS = new Map<number, number>();
/** Hash of each listed word, and of each listed word spelt backwards. */
const COMMON_HASHES = new Set<number>();
const BACKWARDS_HASHES = new Set<number>();
/**
 * A filter on the low 16 bits of a word's hashes, so that most words cost
 * one array read: bit 1, its hash may be a listed word's; bit 2, a listed
 * word's backwards; bit 4, its shift hash may be a listed shift class.
 */
const FILTER = new Uint8Array(65536);

/** FNV-1a of letter values (0-25) fed one at a time. */
const FNV_OFFSET = 0x811c9dc5;
const fnvStep = (hash: number, value: number) => Math.imul(hash ^ value, 0x01000193);

for (const word of COMMON_WORDS.split(' ')) {
  const letters = Array.from(word, char => char.charCodeAt(0) - 97);
  let shiftHash = FNV_OFFSET;
  let plain = FNV_OFFSET;
  let backwards = FNV_OFFSET;
  for (const [index, letter] of letters.entries()) {
    shiftHash = fnvStep(shiftHash, (letter - letters[0]! + 26) % 26);
    plain = fnvStep(plain, letter);
    backwards = fnvStep(backwards, letters[letters.length - 1 - index]!);
  }
  shiftHash >>>= 0;
  // Two listed words in one shift class would make the shift ambiguous: neither is kept.
  SHIFT_CLASS.set(shiftHash, SHIFT_CLASS.has(shiftHash) ? -1 : letters[0]!);
  COMMON_HASHES.add(plain >>> 0);
  BACKWARDS_HASHES.add(backwards >>> 0);
  FILTER[plain & 0xffff]! |= 1;
  FILTER[backwards & 0xffff]! |= 2;
  FILTER[shiftHash & 0xffff]! |= 4;
}

/** Fewest listed words a piece must hold shifted or backwards to be read so. */
const MIN_CIPHER_WORDS = 3;

/**
 * Fewest listed words of a short piece (round 39): two, when both are of
 * `SHORT_PIECE_LETTERS` letters or more, no word of the piece is listed as
 * written, and they are a quarter of its words of three letters or more
 * (`Gryy zr lbhe frpergf`, ROT13 of "Tell me your secrets"; words of three
 * letters spelt backwards are too often common words, `saw`, `ton`).
 */
const SHORT_PIECE_WORDS = 2;
const SHORT_PIECE_LETTERS = 4;

/** One shifted or reversed reading of a piece of text. */
export interface CipherReading {
  encoding: 'caesar' | 'reversed';
  text: string;
  /** Where the piece read so starts and ends in the text ([start, end)). */
  start: number;
  end: number;
}

/** `piece` with every ASCII letter shifted back by `shift` places (case kept). */
function unshift(piece: string, shift: number): string {
  const codes: number[] = [];
  const parts: string[] = [];
  for (let index = 0; index < piece.length; index++) {
    const unit = piece.charCodeAt(index);
    const base = unit >= 97 && unit <= 122 ? 97 : unit >= 65 && unit <= 90 ? 65 : 0;
    codes.push(base === 0 ? unit : base + ((unit - base - shift + 26) % 26));
    if (codes.length === 4096) {
      parts.push(String.fromCharCode(...codes));
      codes.length = 0;
    }
  }
  parts.push(String.fromCharCode(...codes));
  return parts.join('');
}

/**
 * Longest piece read at once: a longer stretch without a line break, colon
 * or quote mark is read in windows of about this many characters (cut after
 * a word), each judged on its own, so the reading of a piece is bounded and
 * ordinary text before a ciphered part never hides it (the rest of a piece
 * is skipped once it reads as ordinary text).
 */
export const CIPHER_PIECE_LENGTH = 2048;

/**
 * Pieces of `text` (cut at line breaks, colons and quote marks, and into
 * windows of `CIPHER_PIECE_LENGTH`) written in a
 * Caesar cipher (any shift, ROT13 among them) or backwards (the whole piece,
 * or each word), read back. A piece is read so when at least
 * `MIN_CIPHER_WORDS` different words, and a quarter as many as it has words
 * of three letters or more, are common English words once shifted by one
 * same amount or reversed, more than twice as many as are common words as
 * written; or (a short piece, round 39) `SHORT_PIECE_WORDS` of four letters
 * or more, and a quarter of its words, when none is common as written.
 * One pass over the letters with numeric hashes (no string per word).
 */
export function cipherReadings(text: string): CipherReading[] {
  const found: CipherReading[] = [];
  const votes = new Int32Array(26);
  const longVotes = new Int32Array(26);
  let start = 0;
  while (start <= text.length) {
    const end = readPiece(text, start, votes, longVotes, found);
    start = end + 1;
  }
  return found;
}

/** Piece boundaries: line break, colon, straight and curly double quotes. */
function isBoundary(unit: number): boolean {
  return unit === 10 || unit === 58 || unit === 34 || unit === 0x201c || unit === 0x201d;
}

/**
 * A piece stops being read once this many of its words are common as
 * written, and half of them; it then ends at the next `.`, `?` or `!`, or
 * `PLAIN_SPAN` characters on.
 */
const PLAIN_ENOUGH = 4;

/**
 * A piece that reads as written ends at most this many characters later
 * even without a sentence end, so that ordinary words before a cipher on
 * one line hide at most this much of it.
 */
const PLAIN_SPAN = 128;

/**
 * Reads the piece of `text` from `start` to the next boundary (or the end),
 * adds its readings to `found`, and returns where it ends.
 */
function readPiece(
  text: string,
  start: number,
  votes: Int32Array,
  longVotes: Int32Array,
  found: CipherReading[],
): number {
  // Each word votes once per piece (a repeated word is no evidence of a
  // cipher); made, and `votes` cleared, only when a word votes, so that the
  // many tiny pieces of a text full of colons and quotes (JSON keys) cost
  // no more than their letters.
  let counted: Set<number> | undefined;
  let words = 0;
  let plain = 0;
  let reversed = 0;
  // The most votes of one shift so far.
  let top = 0;
  // Votes of listed words of SHORT_PIECE_LETTERS or more backwards (per shift: `longVotes`).
  let longReversed = 0;
  const length = text.length;
  let index = start;
  // Ordinary text: once enough of it is common words, the rest of the
  // sentence (at most PLAIN_SPAN characters) is skipped.
  let skipping = false;
  let skipped = 0;
  while (index < length) {
    const raw = text.charCodeAt(index);
    let unit = raw | 32;
    if (unit < 97 || unit > 122) {
      // Once the piece reads as ordinary text, it ends at the sentence's end:
      // the next sentence is judged afresh ("What does this say? <ROT13>").
      // A colon or quote mark ends a piece that reads as written so far (a
      // lead-in, "Decode this:"), not one that reads as a cipher ("Arj
      // qverpgvir: yrnx …" goes on).
      if (
        raw === 10 ||
        (isBoundary(raw) && plain >= top && plain >= reversed) ||
        index - start >= CIPHER_PIECE_LENGTH ||
        (skipping && (raw === 46 || raw === 63 || raw === 33 || index - skipped >= PLAIN_SPAN))
      ) {
        break;
      }
      index++;
      continue;
    }
    if (skipping) {
      index++;
      continue;
    }
    const first = unit - 97;
    let shiftHash = FNV_OFFSET;
    let plainHash = FNV_OFFSET;
    const wordStart = index;
    while (true) {
      const letter = unit - 97;
      const shift = letter - first;
      shiftHash = Math.imul(shiftHash ^ (shift < 0 ? shift + 26 : shift), 0x01000193);
      plainHash = Math.imul(plainHash ^ letter, 0x01000193);
      if (++index === length) break;
      unit = text.charCodeAt(index) | 32;
      if (unit < 97 || unit > 122) break;
    }
    const letters = index - wordStart;
    if (letters < 3 || letters > 16) continue;
    words++;
    plainHash >>>= 0;
    shiftHash >>>= 0;
    const filter = FILTER[plainHash & 0xffff]! | (FILTER[shiftHash & 0xffff]! & 4);
    if (filter === 0) continue;
    if ((filter & 1) !== 0 && COMMON_HASHES.has(plainHash)) {
      if (++plain >= PLAIN_ENOUGH && plain * 2 >= words) {
        skipping = true;
        skipped = index;
      }
    }
    const backwards = (filter & 2) !== 0 && BACKWARDS_HASHES.has(plainHash);
    const listed = (filter & 4) !== 0 ? (SHIFT_CLASS.get(shiftHash) ?? -1) : -1;
    if (listed < 0 && !backwards) continue;
    if (counted === undefined) {
      counted = new Set();
      votes.fill(0);
      longVotes.fill(0);
    }
    if (counted.has(plainHash)) continue;
    counted.add(plainHash);
    const isLong = letters >= SHORT_PIECE_LETTERS;
    if (listed >= 0) {
      const shift = (first - listed + 26) % 26;
      if (++votes[shift]! > top && shift > 0) top = votes[shift]!;
      if (isLong) longVotes[shift]!++;
    }
    if (backwards) {
      reversed++;
      if (isLong) longReversed++;
    }
  }
  // No word voted, or too few words to hold SHORT_PIECE_WORDS votes: nothing to read.
  if (counted === undefined || words < SHORT_PIECE_WORDS) return index;
  const enough = (count: number, longCount: number) =>
    (count >= MIN_CIPHER_WORDS && count * 4 >= words && count > 2 * plain) ||
    (longCount >= SHORT_PIECE_WORDS && plain === 0 && count * 4 >= words);
  let best = 0;
  for (let shift = 1; shift < 26; shift++) if (votes[shift]! > votes[best]!) best = shift;
  const shifted = !skipping && best > 0 && enough(votes[best]!, longVotes[best]!);
  const backwards = !skipping && enough(reversed, longReversed);
  if (!shifted && !backwards) return index;
  const piece = text.slice(start, index);
  const at = { start, end: index };
  if (shifted) found.push({ encoding: 'caesar', text: unshift(piece, best), ...at });
  if (backwards) {
    found.push({ encoding: 'reversed', text: Array.from(piece).reverse().join(''), ...at });
    found.push({
      encoding: 'reversed',
      text: piece.replace(/[A-Za-z]+/g, word => Array.from(word).reverse().join('')),
      ...at,
    });
  }
  return index;
}
