/**
 * Obfuscations an attacker applies to slip an instruction past a detector,
 * used to measure how much recall each one costs (scripts/train/report.ts and
 * the detector's tests).
 */

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
