/**
 * Check-digit algorithms the detectors use to tell real identifiers from
 * look-alikes. Pure functions over ASCII strings; no `node:` built-ins, so
 * they run on edge runtimes.
 */

import { sha256 } from '../../core/sha256-sync';

/** True when a string of decimal digits passes the Luhn (mod 10) check. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return false;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** True when an IBAN (upper case, no spaces) passes the ISO 7064 mod-97 check. */
export function mod97Valid(iban: string): boolean {
  // The first four characters move to the end; a letter counts as two digits (A = 10 … Z = 35).
  const length = iban.length;
  let remainder = 0;
  for (let step = 0; step < length; step++) {
    const code = iban.charCodeAt((step + 4) % length);
    remainder =
      code >= 65 && code <= 90
        ? (remainder * 100 + (code - 55)) % 97
        : (remainder * 10 + (code - 48)) % 97;
  }
  return remainder === 1;
}

/** SHA-256 of a byte array, synchronous (in the core: the core shows long tool names by a digest). */
export { sha256 };

const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Decodes base58 (Bitcoin alphabet); undefined on a character outside it. */
export function base58Decode(text: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (const char of text) {
    let carry = base58Alphabet.indexOf(char);
    if (carry < 0) return undefined;
    for (let index = 0; index < bytes.length; index++) {
      carry += bytes[index]! * 58;
      bytes[index] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
}

/** True when `text` is base58check: the last 4 bytes are the double SHA-256 of the rest. */
export function base58CheckValid(text: string): boolean {
  const decoded = base58Decode(text);
  if (!decoded || decoded.length < 5) return false;
  const payload = decoded.subarray(0, decoded.length - 4);
  const checksum = sha256(sha256(payload));
  for (let index = 0; index < 4; index++) {
    if (checksum[index] !== decoded[decoded.length - 4 + index]) return false;
  }
  return true;
}

const bech32Charset = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const bech32Generator = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

/** True when `text` is a valid bech32 or bech32m string (BIP-173 / BIP-350), any case. */
export function bech32Valid(text: string): boolean {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return false;
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (separator < 1 || separator + 7 > lower.length || lower.length > 90) return false;
  const prefix = lower.slice(0, separator);
  const values: number[] = [];
  for (const char of prefix) values.push(char.charCodeAt(0) >> 5);
  values.push(0);
  for (const char of prefix) values.push(char.charCodeAt(0) & 31);
  for (const char of lower.slice(separator + 1)) {
    const value = bech32Charset.indexOf(char);
    if (value < 0) return false;
    values.push(value);
  }
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let bit = 0; bit < 5; bit++) {
      if ((top >>> bit) & 1) checksum ^= bech32Generator[bit]!;
    }
  }
  return checksum === 1 || checksum === 0x2bc830a3;
}

/** Shannon entropy of a string in bits per character. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const ascii = asciiEntropy(text);
  if (ascii !== undefined) return ascii;
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const probability = count / text.length;
    entropy -= probability * Math.log2(probability);
  }
  return entropy;
}

const asciiCounts = new Int32Array(128);
const asciiOrder = new Uint8Array(128);

/**
 * `shannonEntropy` for ASCII text without a Map, summing in the same order
 * (characters by first appearance) so the result is bit-for-bit the same.
 */
function asciiEntropy(text: string): number | undefined {
  let distinct = 0;
  let ascii = true;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 128) {
      ascii = false;
      break;
    }
    if (asciiCounts[code]! === 0) asciiOrder[distinct++] = code;
    asciiCounts[code]!++;
  }
  let entropy = 0;
  for (let index = 0; index < distinct; index++) {
    const code = asciiOrder[index]!;
    const probability = asciiCounts[code]! / text.length;
    entropy -= probability * Math.log2(probability);
    asciiCounts[code] = 0;
  }
  if (!ascii) {
    asciiCounts.fill(0);
    return undefined;
  }
  return entropy;
}
