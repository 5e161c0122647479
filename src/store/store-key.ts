import { isWellFormed, LONE_SURROGATE } from '../core/sha256-hex';
import { sha256Hex } from '../guards/shared/hash-key';

/** Longest key a store keeps as it is; a longer one is kept under a digest. */
export const MAX_STORE_KEY_CHARS = 256;
/** How much of a long key its stored name keeps, for whoever reads the store. */
const KEPT_CHARS = 200;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * The name a store keeps `key` under: the key itself up to
 * `MAX_STORE_KEY_CHARS`, else its start, `#sha256:` and the SHA-256 of the
 * whole key. Keys carry ids the client may choose (a session id from the
 * request body, a user id): a 1 MB id made a 1 MB key in Redis for a day (a
 * token budget's window), and in a `memoryStore` one key over `maxBytes`
 * evicted every counter (a reset of every rate limit). A digest name is
 * longer than `MAX_STORE_KEY_CHARS`, so no key kept as it is can be one.
 *
 * A key with a lone surrogate (an id cut inside a surrogate pair, or written
 * so by the client) always gets a digest name, whatever its length: Redis
 * clients send keys as UTF-8, which writes a lone surrogate as U+FFFD, so
 * `"id\uD800"` and `"id\uFFFD"` were one key (one budget, one session:
 * a client could share or exhaust another's state). Its digest is of the key
 * apart from every well-formed text (see `sha256Hex`), its start is written
 * with U+FFFD and padded with `.` to `KEPT_CHARS`, so the name is well-formed
 * and longer than `MAX_STORE_KEY_CHARS`. Names of well-formed keys do not
 * change.
 */
export function storeKeyOf(key: string): string | Promise<string> {
  const wellFormed = isWellFormed(key);
  if (wellFormed && key.length <= MAX_STORE_KEY_CHARS) return key;
  return sha256Hex(key).then(digest => {
    if (wellFormed) return `${key.slice(0, KEPT_CHARS)}#sha256:${digest}`;
    const start = key.slice(0, KEPT_CHARS).replace(LONE_SURROGATES, '\uFFFD');
    return `${start.padEnd(KEPT_CHARS, '.')}#sha256:${digest}`;
  });
}

/**
 * `storeKey` with every `{` written `{}(` and every `}` written `{})`, so that
 * Redis Cluster hashes the whole key: it hashes only what is between a key's
 * first `{` and the next `}` (a hash tag), unless that is empty. Keys carry
 * ids the client chooses (a session id, a user id): `{x}` in one put every
 * key of that client, or keys of others who wrote the same tag, in one slot
 * the client chose (one master for all of them: a hot spot, and a way to
 * fill one master). Written so, the first `{` of a key is followed by `}`:
 * no hash tag. Keys without a brace (every usual one) are unchanged; the
 * writing is one-to-one (`{` only ever starts a `{}(` or `{})`), so two keys
 * never share a name. A hash tag in the store's own `prefix` still applies.
 */
export function withoutHashTag(storeKey: string): string {
  if (storeKey.indexOf('{') === -1 && storeKey.indexOf('}') === -1) return storeKey;
  return storeKey.replace(/[{}]/g, brace => (brace === '{' ? '{}(' : '{})'));
}
