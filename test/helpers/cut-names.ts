import { createHash } from 'node:crypto';

/** The first 12 hex digits of the SHA-256 of `name` (UTF-8): what records show after a cut name. */
export function nameDigest(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 12);
}

/**
 * `name` (a tool name or serverId over 64 characters) as records cut it:
 * its first `head` characters (64; 63 before half of a surrogate pair),
 * `…#` and its digest.
 */
export function cutName(name: string, head = 64): string {
  return `${name.slice(0, head)}…#${nameDigest(name)}`;
}
