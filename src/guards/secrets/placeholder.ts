/**
 * Recognises example and placeholder values (`xxxxxxxx`, `AKIA...EXAMPLE`,
 * `abcd1234abcd1234`, `<YOUR_TOKEN>`) so that documentation, templates and
 * test fixtures do not read as leaked credentials. Applied to the random
 * part of a token (after a provider prefix such as `ghp_`), never to the
 * prefix itself.
 */

const placeholderWord =
  /example|sample|dummy|placeholder|redacted|changeme|change_me|your[_-]?(?:api|secret|token|key|pass)|insert[_-]|replace[_-]?me|randomstring|random_string|fake|notreal|not_real/i;

/** Runs of one masking character: `xxxxx`, `XXXXX`, `*****`, `#####`, `.....`. */
const maskRun = /x{5}|X{5}|\*{4}|#{4}|\.{4}|•{3}|_{6}|-{6}|~{6}/;

/** Eight ascending characters in a row (`abcdefgh`, `12345678`): typed, not generated. */
function hasAscendingRun(value: string, length = 8): boolean {
  let run = 1;
  for (let index = 1; index < value.length; index++) {
    const previous = value.charCodeAt(index - 1);
    const current = value.charCodeAt(index);
    const alphanumeric =
      (current >= 48 && current <= 57) ||
      (current >= 65 && current <= 90) ||
      (current >= 97 && current <= 122);
    run = alphanumeric && current === previous + 1 ? run + 1 : 1;
    if (run >= length) return true;
  }
  return false;
}

/**
 * True when `value` repeats a block of at most a quarter of its length
 * (`abcd1234abcd1234…`, `AAAAAAAA`, `1234-1234-1234`), possibly with a
 * truncated last block.
 */
function isPeriodic(value: string): boolean {
  const maxPeriod = Math.floor(value.length / 2);
  for (let period = 1; period <= Math.min(maxPeriod, 16); period++) {
    let periodic = true;
    for (let index = period; index < value.length; index++) {
      if (value.charCodeAt(index) !== value.charCodeAt(index - period)) {
        periodic = false;
        break;
      }
    }
    if (periodic) return true;
  }
  return false;
}

const seen = new Uint32Array(4); // 128 bits

/** The number of distinct characters (code points) in `value`. */
function distinctCharacters(value: string): number {
  seen.fill(0);
  let distinct = 0;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 128) return new Set(value).size;
    const bit = 1 << (code & 31);
    if ((seen[code >>> 5]! & bit) === 0) {
      seen[code >>> 5]! |= bit;
      distinct++;
    }
  }
  return distinct;
}

/**
 * True when `value` looks like an example or placeholder rather than a
 * generated credential:
 *
 * - it names itself one (`EXAMPLE`, `sample`, `dummy`, `placeholder`,
 *   `your_api_key`, `changeme`, `redacted`, `RANDOMSTRING`, `fake`),
 * - it holds a run of masking characters (`xxxxx`, `XXXXX`, `****`, `####`),
 * - it holds eight ascending characters (`abcdefgh`, `12345678`),
 * - it repeats a short block (`abcd1234abcd1234`, `aaaaaaaa`),
 * - it uses few distinct characters for its length (fewer than 5, or fewer
 *   than a quarter of its length, at most 10, once it is 16 characters or
 *   longer): random tokens of that length over 16+ symbols essentially never do.
 */
export function isPlaceholderValue(value: string): boolean {
  if (value.length === 0) return true;
  if (placeholderWord.test(value)) return true;
  if (maskRun.test(value)) return true;
  if (hasAscendingRun(value)) return true;
  if (value.length >= 8 && isPeriodic(value)) return true;
  const distinct = distinctCharacters(value);
  if (value.length >= 8 && distinct < 5) return true;
  if (value.length >= 16 && distinct < Math.min(value.length / 4, 10)) return true;
  return false;
}
