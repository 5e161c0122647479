import { anchoredMatcher, stickyPattern } from '../../shared/anchored-scan';
import { positionsOf } from './digit-runs';
import type { EntityFinder, Finder } from './finder';

const macColon =
  /(?<![\w:.-])[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}\1[0-9A-Fa-f]{2}(?![\w:-])/g;
const macDot = /(?<![\w.:-])[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}(?![\w-]|\.\w)/g;

const stickyMacColon = stickyPattern(macColon);
const stickyMacDot = stickyPattern(macDot);

function isHexCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** `count` hex digits on each side of `at`. */
function hexAround(text: string, at: number, count: number): boolean {
  for (let step = 1; step <= count; step++) {
    if (!isHexCode(text.charCodeAt(at - step)) || !isHexCode(text.charCodeAt(at + step)))
      return false;
  }
  return true;
}

/**
 * The matches of `macColon` and `macDot` (as `matchAll` yields them), tried
 * only where the first separator sits: two characters after the start for
 * `aa:bb:…` / `aa-bb-…`, four for `aabb.ccdd.eeff`.
 */
function macMatches(text: string, pattern: RegExp): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  const dotted = pattern === macDot;
  const matcher = anchoredMatcher(dotted ? stickyMacDot : stickyMacColon, text);
  const separators = dotted ? (['.'] as const) : ([':', '-'] as const);
  const offset = dotted ? 4 : 2;
  const positions: number[] = [];
  // The next separator sits 3 (or 5) characters further, hex digits around this one.
  const tryAt = (at: number) => {
    if (
      at >= offset &&
      text.charCodeAt(at + offset + 1) === text.charCodeAt(at) &&
      hexAround(text, at, offset)
    ) {
      positions.push(at - offset);
    }
  };
  for (const separator of separators) {
    if (separator === '-') {
      for (let at = text.indexOf('-'); at >= 0; at = text.indexOf('-', at + 1)) tryAt(at);
    } else {
      // The dots and colons the IP finder walked too (see `positionsOf`).
      for (const at of positionsOf(text, separator)) tryAt(at);
    }
  }
  if (separators.length > 1) positions.sort((first, second) => first - second);
  for (const start of positions) {
    const match = matcher.at(start);
    if (match) matches.push(match);
  }
  return matches;
}

const findMacs: Finder = (text, add) => {
  for (const pattern of [macColon, macDot]) {
    for (const match of macMatches(text, pattern)) {
      const hex = match[0].replace(/[^0-9A-Fa-f]/g, '').toLowerCase();
      if (hex === '000000000000' || hex === 'ffffffffffff') continue;
      // Cisco dotted form: require a hex letter or a digit mix that is not a version number.
      if (pattern === macDot && /^\d+$/.test(hex)) continue;
      add(match.index, match.index + match[0].length);
    }
  }
};

export const macFinder: EntityFinder = { find: findMacs, maxLength: 17, priority: 8 };
