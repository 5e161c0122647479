/**
 * Built-in deny rules over tool argument values. Each returns the id and a
 * short description of the first rule a string breaks. All patterns use
 * bounded or unambiguous repetition, so each check is linear in the value.
 */

import { PieceJoiner } from '../shared/piece-joiner';

/** A rule pack: `sql` (destructive statements), `shell` (destructive commands), `path` (traversal, roots). */
export type ToolArgumentRulePack = 'sql' | 'shell' | 'path';

/** A broken rule: its id (`sql.drop`) and what matched. */
export interface RuleViolation {
  rule: string;
  detail: string;
}

/**
 * SQL with its comments blanked, in text order (so `-- /*` on one line cannot
 * hide the next line). Each character is visited a bounded number of times:
 * the next `/*` and `--` are searched for once per step and the search
 * restarts only past them; an unterminated `/*` stops the search for more
 * block comments and is kept as text (a database would reject it, and
 * blanking it would hide what follows). MySQL `/*!...*\/` executable comments
 * keep their content, which MySQL runs.
 */
function stripSqlComments(sql: string): string {
  const pieces = new PieceJoiner();
  let cursor = 0;
  let nextBlock = sql.indexOf('/*');
  let nextLine = sql.indexOf('--');
  while (nextBlock !== -1 || nextLine !== -1) {
    if (nextBlock !== -1 && nextBlock < cursor) nextBlock = sql.indexOf('/*', cursor);
    if (nextLine !== -1 && nextLine < cursor) nextLine = sql.indexOf('--', cursor);
    const isBlock = nextBlock !== -1 && (nextLine === -1 || nextBlock < nextLine);
    const start = isBlock ? nextBlock : nextLine;
    if (start === -1) break;
    if (isBlock) {
      const close = sql.indexOf('*/', start + 2);
      if (close === -1) {
        nextBlock = -1;
        continue;
      }
      pieces.push(sql.slice(cursor, start));
      pieces.push(' ');
      if (sql.charCodeAt(start + 2) === 0x21 /* ! */) {
        pieces.push(sql.slice(start + 3, close));
        pieces.push(' ');
      }
      cursor = close + 2;
    } else {
      const newline = sql.indexOf('\n', start + 2);
      pieces.push(sql.slice(cursor, start));
      pieces.push(' ');
      cursor = newline === -1 ? sql.length : newline;
    }
  }
  pieces.push(sql.slice(cursor));
  return pieces.join();
}

const sqlDrop =
  /\bdrop\s+(table|database|schema|view|index|user|role|function|procedure|trigger)\b/i;
const sqlTruncate = /\btruncate\s+(?:table\s+)?[\w."`[\]]+/i;
const sqlAlterDrop = /\balter\s+table\s+\S+\s+drop\b/i;
// At a statement's start (sticky, set to it); none reads past its `;`.
const statementDelete = /\s*delete\s+from\b/iy;
const statementUpdate = /\s*update\s+[^\s;]+\s+set\b/iy;
const sqlWhere = /\bwhere\b/i;
const sqlTrivialWhere = /\bwhere\s+(?:1\s*=\s*1|true|'1'\s*=\s*'1'|1)\s*$/i;

/** Destructive SQL: DROP, TRUNCATE, ALTER ... DROP, DELETE or UPDATE without a real WHERE. */
export function sqlViolation(value: string): RuleViolation | undefined {
  const sql = stripSqlComments(value);
  const drop = sqlDrop.exec(sql);
  if (drop) return { rule: 'sql.drop', detail: `DROP ${drop[1]!.toUpperCase()}` };
  if (sqlTruncate.test(sql)) return { rule: 'sql.truncate', detail: 'TRUNCATE' };
  if (sqlAlterDrop.test(sql)) return { rule: 'sql.alter-drop', detail: 'ALTER TABLE ... DROP' };
  // Statement by statement, read in place: no array of statements nor a
  // copy of each (1 MB of short statements made an array past V8's
  // large-object size, fresh pages on every growth, and 3 MB of copies).
  for (let from = 0; from <= sql.length; ) {
    const semicolon = sql.indexOf(';', from);
    const end = semicolon === -1 ? sql.length : semicolon;
    statementDelete.lastIndex = from;
    statementUpdate.lastIndex = from;
    const kind = statementDelete.test(sql)
      ? 'delete'
      : statementUpdate.test(sql)
        ? 'update'
        : undefined;
    if (kind) {
      const statement = sql.slice(from, end);
      if (!sqlWhere.test(statement) || sqlTrivialWhere.test(statement.trim())) {
        return {
          rule: `sql.${kind}-without-where`,
          detail: `${kind.toUpperCase()} without a WHERE clause`,
        };
      }
    }
    from = end + 1;
  }
  return undefined;
}

const isSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);
// Characters that end a command: the rest of the line is another command.
const isCommandEnd = (code: number) =>
  code === 0x3b /* ; */ || code === 0x26 /* & */ || code === 0x7c /* | */ || code === 0x0a;
const isWordCode = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f;

const rmTargets = new Set([
  '/',
  '/*',
  '*',
  ...['~', '$HOME', '.'].flatMap(base => [base, `${base}/`, `${base}*`, `${base}/*`]),
]);
const recursiveFlag = /^-(?:[a-zA-Z]*[rR]|-recursive$)/;

/**
 * The first `rm` that is recursive (`-r`, `-R`, `-rf`, `--recursive`) and
 * names `/`, `~`, `$HOME`, `.` or `*` (optionally with `/` and `*`). A
 * hand-written scan rather than a regex over repeated flags: each `rm`
 * reads its own words up to the end of its command, and the next search
 * starts after them, so every character is read a bounded number of times.
 */
function recursiveRm(value: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = value.indexOf('rm', from);
    if (at === -1) return undefined;
    from = at + 2;
    if ((at > 0 && isWordCode(value.charCodeAt(at - 1))) || !isSpace(value.charCodeAt(at + 2))) {
      continue;
    }
    const flags: string[] = [];
    let target: string | undefined;
    let index = at + 2;
    while (index < value.length) {
      const code = value.charCodeAt(index);
      if (isCommandEnd(code)) break;
      if (isSpace(code)) {
        index++;
        continue;
      }
      const wordStart = index;
      while (index < value.length) {
        const inner = value.charCodeAt(index);
        if (isSpace(inner) || isCommandEnd(inner)) break;
        index++;
      }
      const word = value.slice(wordStart, index);
      if (word.startsWith('-')) {
        if (flags.length < 16) flags.push(word.slice(0, 32));
      } else if (target === undefined && rmTargets.has(word)) target = word;
    }
    from = Math.max(from, index);
    if (target !== undefined && flags.some(flag => recursiveFlag.test(flag))) {
      return `rm ${flags.join(' ')} ${target}`;
    }
  }
}

/**
 * True when a match of `scan`'s `first` group (`curl`, `dd `) is followed
 * within `maxGap` characters, with no command end (`end` group) between, by
 * a match of its last alternative that `isFollowUp` accepts. One pass of one
 * regex plus an anchored (sticky) match at each candidate, so the cost is
 * linear however many `curl` or `|` the value holds (a bounded repetition
 * such as `[^|]{0,500}` would re-read up to 500 characters per `curl`).
 */
function followedOnSameCommand(
  value: string,
  findFirst: RegExp,
  scan: RegExp,
  isFollowUp: (match: RegExpExecArray) => boolean,
  maxGap: number,
): boolean {
  // Only `findFirst` runs while no download is pending, so a text of a
  // million newlines or pipes is one regex pass, not a million matches.
  let lastStart = -1;
  let position = 0;
  for (;;) {
    const pattern = lastStart === -1 ? findFirst : scan;
    pattern.lastIndex = position;
    const match = pattern.exec(value);
    if (match === null) return false;
    position = match.index + match[0].length;
    if (pattern === findFirst || match.groups?.first !== undefined) {
      lastStart = position;
    } else if (match.groups?.end !== undefined) {
      lastStart = -1;
    } else if (match.index - lastStart <= maxGap && isFollowUp(match)) {
      return true;
    }
    // Past the gap nothing can follow this download any more.
    if (lastStart !== -1 && position - lastStart > maxGap) lastStart = -1;
  }
}

const download = /\b(?:curl|wget|fetch)\b/g;
const pipeScan = /(?<first>\b(?:curl|wget|fetch)\b)|(?<end>[;&\n])|\|/g;
const interpreterAfterPipe = /\s*(?:sudo\s+)?(?:(?:ba|z|k|da)?sh|python[23]?|perl|ruby|node)\b/y;
const ddCommand = /\bdd\s/g;
const ddScan = /(?<first>\bdd\s)|(?<end>[;|&\n])|\bof=\/dev\/(?:sd|nvme|hd|disk|xvd)/g;
const forkBomb = /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/;
const diskWrite = /\bmkfs(?:\.\w+)?\s|>\s*\/dev\/sd[a-z]/;
const chmodRoot = /\bchmod\s+(?:-R\s+)?(?:777|a\+rwx)\s+\/(?=$|\s)/;

/** Destructive shell: recursive rm of /, ~ or *, curl | sh, fork bombs, disk wipes, chmod 777 /. */
export function shellViolation(value: string): RuleViolation | undefined {
  const rm = recursiveRm(value);
  if (rm !== undefined) return { rule: 'shell.rm-recursive', detail: rm };
  const pipesToShell = followedOnSameCommand(
    value,
    download,
    pipeScan,
    pipe => {
      interpreterAfterPipe.lastIndex = pipe.index + 1;
      return interpreterAfterPipe.test(value);
    },
    500,
  );
  if (pipesToShell) {
    return { rule: 'shell.pipe-to-shell', detail: 'download piped into an interpreter' };
  }
  if (forkBomb.test(value)) return { rule: 'shell.fork-bomb', detail: 'fork bomb' };
  if (diskWrite.test(value) || followedOnSameCommand(value, ddCommand, ddScan, () => true, 200)) {
    return { rule: 'shell.disk-wipe', detail: 'writes a disk device' };
  }
  if (chmodRoot.test(value)) return { rule: 'shell.chmod-root', detail: 'chmod 777 /' };
  return undefined;
}

// Any length: a cap here would let a long enough traversal pass unchecked.
const singlePath = /^\S+$/;
const traversal = /(?:^|[\\/]|%2f|%5c)(?:\.|%2e){2}(?:[\\/]|%2f|%5c|$)/i;
// POSIX, home, drive letter, or UNC (`\\server\share`).
const absolutePath = /^(?:\/|~\/|[a-zA-Z]:[\\/]|\\\\)/;
const lineBreak = /[\r\n]/;

/** Resolves `.` and `..` segments of an absolute path, with forward slashes. */
function normalizePath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const drive = /^[a-zA-Z]:/.test(path) ? '' : '/';
  return drive + segments.join('/');
}

/**
 * Path values (one token without spaces, or an absolute path on one line,
 * spaces and all: `/home/alice/My Documents`): `..` traversal, and when
 * `roots` are given, absolute paths outside every root.
 */
export function pathViolation(value: string, roots: readonly string[]): RuleViolation | undefined {
  // A space does not make an absolute path prose: `/etc/cron.d/evil job` is a file.
  const absolute = absolutePath.test(value) && !lineBreak.test(value);
  if (!absolute && !singlePath.test(value)) return undefined;
  // Details never quote the value: a path can itself be sensitive (a home
  // directory, a token in a file name), and records travel to logs and clients.
  if (traversal.test(value)) return { rule: 'path.traversal', detail: 'climbs out with ..' };
  if (roots.length > 0 && absolutePath.test(value)) {
    const path = normalizePath(value);
    const inside = roots.some(root => {
      const base = normalizePath(root).replace(/\/$/, '');
      return path === base || path.startsWith(`${base}/`);
    });
    if (!inside) {
      return { rule: 'path.outside-root', detail: `outside the roots ${roots.join(', ')}` };
    }
  }
  return undefined;
}
