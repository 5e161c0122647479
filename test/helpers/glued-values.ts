import { seededRandom } from '../../bench/fixtures';
import { hostileGenerators } from '../hostile-generators';

/**
 * Texts for redaction idempotency (redacting a redacted text changes
 * nothing): slices of the hostile generators at every phase, and values
 * glued to punctuation, placeholders, words and each other, where a finder
 * could read its own placeholder or the characters next to it as a value.
 * Seeded: every run judges the same texts.
 */

/** Values `pii()` finds by default, written as people and logs write them. */
export const piiValues: readonly string[] = [
  'jane@example.com',
  'j.doe+tag@mail.co.uk',
  'a@b.io',
  '+1 415 555 0132',
  '(415) 555-0132',
  '415-555-0132',
  '+44 20 7946 0958',
  '020 7946 0958',
  '+4915112345678',
  '4111 1111 1111 1111',
  '4111111111111111',
  '5500-0000-0000-0004',
  '378282246310005',
  'GB82WEST12345698765432',
  'DE89 3704 0044 0532 0130 00',
  '192.168.1.10',
  '10.0.0.1',
  '2001:db8::1',
  'fe80::1%eth0',
  '00:1A:2B:3C:4D:5E',
  '0011.2233.44ab',
  '536-22-1234',
  '912-70-1234',
  'AB123456C',
  '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
  '0x52908400098527886E0F7030069857D2E4169EE7',
];

/** Credentials `secrets()` finds, with and without their key or scheme. */
export const secretValues: readonly string[] = [
  'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
  'AKIAZ7VRSQ5TJN2XMY3K',
  'xoxb-123456789012-1234567890123-q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N',
  'postgres://admin:hunter2pass@db.example.com:5432/app',
  'https://user:s3cr3tpass@example.com/x',
  '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw5',
  'Bearer q8Zr4Lm2Xw9Tb6Yp1Kd7',
  'password=Tr0ub4dor&3xyz',
  'API_KEY="q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N"',
  'sk-proj-q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2RzT4bU9wX1y',
];

/** The placeholders the two guardrails write by default. */
export const defaultPlaceholders: readonly string[] = [
  '[EMAIL_ADDRESS]',
  '[PHONE_NUMBER]',
  '[CREDIT_CARD]',
  '[IBAN_CODE]',
  '[IP_ADDRESS]',
  '[MAC_ADDRESS]',
  '[US_SSN]',
  '[US_ITIN]',
  '[UK_NINO]',
  '[CRYPTO]',
  '[URL]',
  '[GENERIC_SECRET]',
  '[GITHUB_TOKEN]',
  '[AWS_ACCESS_KEY_ID]',
  '[HIGH_ENTROPY_STRING]',
];

const glue: readonly string[] = [
  '',
  '',
  '',
  ' ',
  ':',
  ':-',
  '-',
  '.',
  ',',
  ';',
  '(',
  ')',
  '[',
  ']',
  '<',
  '>',
  '/',
  '@',
  '=',
  '"',
  "'",
  '_',
  '+',
  '#',
  '%',
  '\n',
  '|',
  '*',
  '://',
  ' x',
  '.-',
];

const words: readonly string[] = [
  'Contact',
  'Phone',
  'tel',
  'call me on',
  'mail',
  'IP',
  'x',
  'a1',
  '0',
  '1',
  '12',
  '555',
  '2001',
  'ab',
  'token',
  'password',
  'api_key',
  'Bearer',
  'user',
  'example.com',
  'https://',
];

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)]!;
}

/** `count` texts of 2 to 7 glued tokens (values, placeholders, words) with punctuation or nothing between. */
export function gluedTexts(
  seed: number,
  count: number,
  values: readonly string[] = [...piiValues, ...secretValues],
): string[] {
  const next = seededRandom(seed);
  const texts: string[] = [];
  for (let index = 0; index < count; index++) {
    const tokens = 2 + Math.floor(next() * 6);
    let text = next() < 0.3 ? pick(next, glue) : '';
    for (let token = 0; token < tokens; token++) {
      const kind = next();
      text += pick(next, kind < 0.5 ? values : kind < 0.75 ? defaultPlaceholders : words);
      text += pick(next, glue);
    }
    texts.push(text);
  }
  return texts;
}

/** `count` slices of the hostile generators, at random sizes (40 to 300) and phases. */
export function hostileSlices(seed: number, count: number): string[] {
  const next = seededRandom(seed);
  const texts: string[] = [];
  for (let index = 0; index < count; index++) {
    const generator = hostileGenerators[index % hostileGenerators.length]!;
    const size = 40 + Math.floor(next() * 260);
    const phase = Math.floor(next() * 40);
    texts.push(generator.make(size + phase).slice(phase));
  }
  return texts;
}

/** Hand-made texts where a value touches what its placeholder would touch. */
export const handMadeTexts: readonly string[] = [
  'Contact:-jane@example.com',
  'jane@example.com.jane@example.com',
  'mail:jane@example.com:+1 415 555 0132',
  '4111 1111 1111 1111-4111 1111 1111 1111',
  '192.168.1.10.10.0.0.1',
  'fe80::1:2001:db8::1',
  '[EMAIL_ADDRESS]@example.com',
  'x@[EMAIL_ADDRESS].com',
  'tel:[PHONE_NUMBER] 415 555 0132',
  'https://user:s3cr3tpass@[EMAIL_ADDRESS]',
];
