/** Long random-looking tokens with no known format, minus the common random non-secrets. */
import { printableRuns } from '../shared/anchored-scan';
import { shannonEntropy } from '../shared/checksums';
import { isAlphanumericCode, type ValueVerdict } from './assignments';
import { isPlaceholderValue } from './placeholder';
import { knownPrefix } from './provider-rules';

// Runs of token characters; `=` only as base64 padding at the end.
export const entropyCandidate =
  /(?<![A-Za-z0-9+/_=.~-])[A-Za-z0-9+/_-]{20,512}={0,2}(?![A-Za-z0-9+/_=~-])/g;
const uuidLike = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Values that are random by design but not credentials: hashes, signatures, CSRF tokens, nonces. */
const notCredentialContext =
  /(?:sha(?:1|256|384|512)-|integrity|base64,|checksum|hash|digest|signature|csrf|xsrf|authenticity_token|nonce|etag|fingerprint|commit|public[_-]?(?:key|token)|publicKey|publicToken)["' \t]{0,3}(?:[:=]|value=)?["' \t]{0,3}$|ENC\[[A-Z0-9_]{1,20},[^\]]{0,400}$/i;
/**
 * Round 46: the key type before an SSH public key's blob (`ssh-ed25519 AAAA…`,
 * an `authorized_keys` or `known_hosts` line) and a `go.sum` hash
 * (`module v1.2.3 h1:…=`): public and a checksum, not credentials (a blind
 * fixture's false positives).
 */
const sshPublicKeyBefore =
  /(?:^|[\s"',=])(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) $/;
const goSumBefore = /\sv\d[\w.+-]{0,40}(?:\/go\.mod)? h1:$/;
/** A line of base64 as in PEM / PGP / MIME armour (64 or 76 wide). */
const armourLine = /^[A-Za-z0-9+/=]{40,80}$/;

/**
 * True when the token is a full line of a multi-line base64 block
 * (certificates, public keys, PGP blocks): the neighbouring line is one too.
 * Private keys are found by their BEGIN line instead.
 */
export function isArmourLine(source: string, start: number, end: number): boolean {
  // The token must be the whole line but for blanks around it. Read only the
  // blanks next to it: slicing the line (or searching for its newlines) per
  // token is quadratic when one long line holds thousands of tokens.
  let lineStart = start;
  while (lineStart > 0 && source.charCodeAt(lineStart - 1) !== 0x0a) {
    if (!isBlank(source.charCodeAt(lineStart - 1))) return false;
    lineStart--;
  }
  let lineEnd = end;
  while (lineEnd < source.length && source.charCodeAt(lineEnd) !== 0x0a) {
    if (!isBlank(source.charCodeAt(lineEnd))) return false;
    lineEnd++;
  }
  if (!armourLine.test(source.slice(start, end))) return false;
  // Each line is read here only by the one token that fills the line below or above it.
  const previousStart = source.lastIndexOf('\n', lineStart - 2) + 1;
  const previous = lineStart > 0 ? source.slice(previousStart, lineStart - 1).trim() : '';
  let nextEnd = source.indexOf('\n', lineEnd + 1);
  if (nextEnd < 0) nextEnd = source.length;
  const next = lineEnd < source.length ? source.slice(lineEnd + 1, nextEnd).trim() : '';
  return (
    armourLine.test(previous) ||
    armourLine.test(next) ||
    /^-----BEGIN /.test(previous) ||
    /^-----END /.test(next)
  );
}

/** What `String.prototype.trim` removes, for one UTF-16 unit. */
function isBlank(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    (code > 0x7f && /\s/.test(String.fromCharCode(code)))
  );
}

/**
 * True when a token is random enough to be a credential and not one of the
 * common random-looking non-secrets: hex digests (git SHAs, checksums),
 * UUIDs, lockfile integrity hashes, base64 payloads (images, data, armoured
 * blocks), signatures and CSRF tokens, placeholders, and tokens with a known
 * provider prefix (those are judged by their provider rule).
 */
export function judgeEntropyToken(
  token: string,
  before: string,
  threshold: number,
  minLength: number,
  reportPlaceholders: boolean,
): ValueVerdict {
  if (token.length < minLength || token.length > 200) return 'other'; // longer: a data payload
  if (/^[0-9a-fA-F]+$/.test(token)) return 'other'; // hex: SHAs, digests, ids
  if (uuidLike.test(token)) return 'other';
  if (knownPrefix.test(token)) return 'other';
  if (notCredentialContext.test(before)) return 'other';
  if (token.startsWith('AAAA') && sshPublicKeyBefore.test(before)) return 'other';
  if (before.endsWith(' h1:') && goSumBefore.test(before)) return 'other';
  if (/data:[\w/+.-]+;base64,[A-Za-z0-9+/=]*$/.test(before)) return 'other';
  const hasLower = /[a-z]/.test(token);
  const hasUpper = /[A-Z]/.test(token);
  const hasDigit = /\d/.test(token);
  if (!(hasLower && hasUpper && hasDigit)) return 'other';
  if (/^[A-Za-z]+(?:[-_/][A-Za-z]+)+$/.test(token)) return 'other'; // words-joined-by-dashes
  if (/^[A-Za-z][a-z]+(?:[A-Z][a-z0-9]+){2,}$/.test(token)) return 'other'; // camelCaseIdentifier
  if (!reportPlaceholders && isPlaceholderValue(token)) return 'placeholder';
  return shannonEntropy(token) >= threshold ? 'secret' : 'other';
}

/** Characters of an entropy candidate's run: [A-Za-z0-9+/_-]. */
function isTokenCode(code: number): boolean {
  return isAlphanumericCode(code) || code === 43 || code === 47 || code === 95 || code === 45;
}

/**
 * The matches of `entropyCandidate`, found without a regex: maximal runs of
 * 20 to 512 token characters not preceded by `=`, `.` or `~`, plus up to two
 * `=` of padding, not followed by a token character, `=` or `~` (a longer
 * run, or more padding, matches nowhere). Token characters are printable
 * ASCII, so such a run lies in a printable run of 20 or more (`runs`, from
 * `printableRuns` with a `minLength` of at most 20; computed when not
 * given): only those are read.
 */
export function scanEntropyCandidates(
  source: string,
  onMatch: (start: number, end: number) => void,
  runs: Int32Array = printableRuns(source, 20),
): void {
  const length = source.length;
  for (let run = 0; run < runs.length; run += 2) {
    const runEnd = runs[run + 1]!;
    if (runEnd - runs[run]! < 20) continue;
    let at = runs[run]!;
    while (at < runEnd) {
      if (!isTokenCode(source.charCodeAt(at))) {
        at++;
        continue;
      }
      // A maximal run of token characters: the one before `at` is none (or the printable run starts here).
      const start = at;
      let end = at + 1;
      while (end < runEnd && isTokenCode(source.charCodeAt(end))) end++;
      at = end + 1;
      const runLength = end - start;
      if (runLength < 20 || runLength > 512) continue;
      const before = start > 0 ? source.charCodeAt(start - 1) : -1;
      if (before === 61 || before === 46 || before === 126) continue; // = . ~
      let padded = end;
      while (padded < length && source.charCodeAt(padded) === 61) padded++;
      if (padded - end > 2) continue;
      const after = padded < length ? source.charCodeAt(padded) : -1;
      if (after >= 0 && (isTokenCode(after) || after === 126)) continue;
      onMatch(start, padded);
    }
  }
}
