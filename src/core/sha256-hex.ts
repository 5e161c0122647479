/**
 * SHA-256 of `text` as hex, through Web Crypto (Node 20+ and edge runtimes
 * alike): the verdict cache's content hash, collision-resistant because the
 * client writes the text, and revealing nothing of it to the store.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
