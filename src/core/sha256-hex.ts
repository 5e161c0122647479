import { sha256 } from './sha256-sync';

/**
 * Texts up to this many characters are hashed in process: for them Web
 * Crypto's async round trip (a thread-pool job) costs more than the hashing.
 */
const SYNC_HASH_MAX_LENGTH = 4_096;

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** A lone surrogate (a high one not followed by a low one, or a low one not preceded by a high one). */
export const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` has no lone surrogate (`String.prototype.isWellFormed`, where the runtime has it). */
export function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(text) : !LONE_SURROGATE.test(text);
}

/**
 * The bytes hashed for a text with lone surrogates. UTF-8 has no form for
 * them (`TextEncoder` writes each as U+FFFD), so `"a\uD800"` and `"a\uFFFD"`
 * had one digest and shared a cached verdict. Such a text is hashed as a
 * 0xFF byte, which no UTF-8 text holds, then its JSON string (which writes
 * a lone surrogate as `\ud800`): apart from every well-formed text's digest,
 * and one per text.
 */
function illFormedBytes(text: string): Uint8Array<ArrayBuffer> {
  const json = new TextEncoder().encode(JSON.stringify(text));
  const bytes = new Uint8Array(json.length + 1);
  bytes[0] = 0xff;
  bytes.set(json, 1);
  return bytes;
}

/**
 * SHA-256 of `text` (UTF-8) as hex: the verdict cache's content hash,
 * collision-resistant because the client writes the text, and revealing
 * nothing of it to the store. Short texts are hashed in process, longer ones
 * through Web Crypto (Node 20+ and edge runtimes alike); same digest. A text
 * with a lone surrogate is hashed apart (see illFormedBytes).
 */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = bytesOf(text);
  if (text.length <= SYNC_HASH_MAX_LENGTH) return hex(sha256(bytes));
  return hex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes)));
}

/** `sha256Hex`, in process and synchronous whatever the length (a long tool name's digest). */
export function sha256HexSync(text: string): string {
  return hex(sha256(bytesOf(text)));
}

/** The bytes `sha256Hex` hashes for `text`. */
function bytesOf(text: string): Uint8Array<ArrayBuffer> {
  return isWellFormed(text) ? new TextEncoder().encode(text) : illFormedBytes(text);
}
