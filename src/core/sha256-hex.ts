import { sha256 } from '../guards/shared/checksums';

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

/**
 * SHA-256 of `text` (UTF-8) as hex: the verdict cache's content hash,
 * collision-resistant because the client writes the text, and revealing
 * nothing of it to the store. Short texts are hashed in process, longer ones
 * through Web Crypto (Node 20+ and edge runtimes alike); same digest.
 */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  if (text.length <= SYNC_HASH_MAX_LENGTH) return hex(sha256(bytes));
  return hex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes)));
}
