/**
 * SHA-256 of `text` as hex, through Web Crypto (Node 20+ and edge runtimes
 * alike), so cache keys are short and reveal nothing of the judged content.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
