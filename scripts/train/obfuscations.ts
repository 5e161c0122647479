/**
 * Obfuscations an attacker applies to slip an instruction past a detector,
 * used to measure how much recall each one costs (scripts/train/report.ts and
 * the detector's tests).
 */
import {
  BRAILLE_LETTERS,
  MORSE,
  NATO,
  NUMBER_SIGN,
} from '../../src/guards/prompt-injection/decode-ciphers';

const homoglyphs: Record<string, string> = {
  a: '\u0430',
  e: '\u0435',
  o: '\u043e',
  p: '\u0440',
  c: '\u0441',
  x: '\u0445',
  i: '\u0456',
};
const leet: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };

/** Each obfuscation, by name. */
export const obfuscations: Record<string, (text: string) => string> = {
  'zero-width': text => Array.from(text).join('\u200b'),
  homoglyph: text => text.replace(/[aeopcxi]/g, char => homoglyphs[char] ?? char),
  'full-width': text =>
    text.replace(/[!-~]/g, char => String.fromCharCode(char.charCodeAt(0) + 0xfee0)),
  base64: text =>
    `Here is my text: ${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}`,
  'tag-characters': text =>
    `Hi! ${Array.from(text, char => String.fromCodePoint(0xe0000 + (char.codePointAt(0)! & 0x7f))).join('')}`,
  // Leetspeak with the first word of every sentence spelled out letter by letter.
  'leetspeak-spaced': text =>
    text
      .replace(/[aeiost]/g, char => leet[char] ?? char)
      .replace(
        /(^|[.!?] )(\S+)/g,
        (_, lead: string, word: string) => lead + Array.from(word).join(' '),
      ),
};

const utf8Bytes = (text: string) => new TextEncoder().encode(text);
const morseOf = new Map(Object.entries(MORSE).map(([code, letter]) => [letter, code]));
const brailleOf = new Map([...BRAILLE_LETTERS].map(([bits, letter]) => [letter, bits]));
const natoOf = new Map<string, string>();
for (const [word, letter] of NATO) if (!natoOf.has(letter)) natoOf.set(letter, word);
const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** `text` with every ASCII letter moved `shift` places on (a Caesar cipher; 13 is ROT13). */
export function caesar(text: string, shift: number): string {
  return text.replace(/[A-Za-z]/g, char => {
    const base = char <= 'Z' ? 65 : 97;
    return String.fromCharCode(base + ((char.charCodeAt(0) - base + shift) % 26));
  });
}

/**
 * The bare encodings of the whole text: the six that the decoders of
 * decode-ciphers.ts read, base64 and hex (decode-segments.ts), and the
 * Caesar and reversed forms read as pieces of text.
 */
export const encoders: Record<string, (text: string) => string> = {
  base32: text => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
    let out = '';
    let buffer = 0;
    let bits = 0;
    for (const byte of utf8Bytes(text)) {
      buffer = ((buffer << 8) | byte) & 0xffff;
      bits += 8;
      while (bits >= 5) {
        bits -= 5;
        out += alphabet[(buffer >> bits) & 31];
      }
    }
    if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
    return `${out}${'='.repeat((8 - (out.length % 8)) % 8)}`;
  },
  // Bare (as garak writes it; `<~ … ~>` is read too): 4 bytes as 5 base-85 digits, a short last group cut.
  ascii85: text => {
    const bytes = utf8Bytes(text);
    let out = '';
    for (let at = 0; at < bytes.length; at += 4) {
      const taken = Math.min(4, bytes.length - at);
      let group = 0;
      for (let index = 0; index < 4; index++) group = group * 256 + (bytes[at + index] ?? 0);
      if (group === 0 && taken === 4) {
        out += 'z';
        continue;
      }
      const digits: string[] = [];
      for (let index = 0; index < 5; index++) {
        digits.unshift(String.fromCharCode(33 + (group % 85)));
        group = Math.floor(group / 85);
      }
      out += digits.slice(0, taken + 1).join('');
    }
    return out;
  },
  binary: text => Array.from(utf8Bytes(text), byte => byte.toString(2).padStart(8, '0')).join(' '),
  morse: text =>
    text
      .toLowerCase()
      .split(/\s+/)
      .map(word =>
        Array.from(word, char => morseOf.get(char) ?? '')
          .filter(Boolean)
          .join(' '),
      )
      .filter(Boolean)
      .join(' / '),
  braille: text =>
    Array.from(text.toLowerCase(), char => {
      if (/\s/.test(char)) return ' ';
      if (/[0-9]/.test(char)) {
        const letter = 'jabcdefghi'[Number(char)]!;
        return String.fromCharCode(0x2800 + NUMBER_SIGN, 0x2800 + brailleOf.get(letter)!);
      }
      const bits = brailleOf.get(char);
      return bits === undefined ? '' : String.fromCharCode(0x2800 + bits);
    }).join(''),
  nato: text =>
    text
      .toLowerCase()
      .split(/\s+/)
      .map(word =>
        Array.from(word, char => natoOf.get(char))
          .filter(Boolean)
          .map(code => capitalised(code!))
          .join(' '),
      )
      .filter(Boolean)
      .join(' / '),
  base64: text => btoa(String.fromCharCode(...utf8Bytes(text))),
  hex: text => Array.from(utf8Bytes(text), byte => byte.toString(16).padStart(2, '0')).join(''),
  rot13: text => caesar(text, 13),
  caesar3: text => caesar(text, 3),
  reversed: text => Array.from(text).reverse().join(''),
};

/** Encodings of the whole text that the decoders of decode-ciphers.ts read, after a neutral lead-in. */
export const cipherObfuscations: Record<string, (text: string) => string> = Object.fromEntries(
  ['base32', 'ascii85', 'binary', 'morse', 'braille', 'nato'].map(name => [
    name,
    (text: string) => `Here is my text: ${encoders[name]!(text)}`,
  ]),
);
/** Caesar-shifted (ROT13, shift 3) and reversed texts, read as pieces of text, after the same lead-in. */
export const shiftedObfuscations: Record<string, (text: string) => string> = Object.fromEntries(
  ['rot13', 'caesar3', 'reversed'].map(name => [
    name,
    (text: string) => `Here is my text: ${encoders[name]!(text)}`,
  ]),
);
Object.assign(obfuscations, cipherObfuscations, shiftedObfuscations);

/** `line` with each `{name:text}` replaced by `text` in the encoding `name` of `encoders` (test fixtures). */
export function encodePlaceholders(line: string): string {
  return line.replace(/\{(\w+):([^}]*)\}/g, (_, name: string, text: string) => {
    const encode = encoders[name];
    if (encode === undefined) throw new Error(`unknown encoding ${name}`);
    return encode(text);
  });
}
