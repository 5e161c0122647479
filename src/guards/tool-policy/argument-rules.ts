/**
 * Built-in deny rules over tool argument values. Each returns the id and a
 * short description of the first rule a string breaks. All patterns use
 * bounded or unambiguous repetition, so each check is linear in the value.
 */

/** A rule pack: `sql` (destructive statements), `shell` (destructive commands), `path` (traversal, roots). */
export type ToolArgumentRulePack = 'sql' | 'shell' | 'path';

/** A broken rule: its id (`sql.drop`) and what matched. */
export interface RuleViolation {
  rule: string;
  detail: string;
}

function stripSqlComments(sql: string): string {
  return sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
}

const sqlDrop =
  /\bdrop\s+(table|database|schema|view|index|user|role|function|procedure|trigger)\b/i;
const sqlTruncate = /\btruncate\s+(?:table\s+)?[\w."`[\]]+/i;
const sqlAlterDrop = /\balter\s+table\s+\S+\s+drop\b/i;
const sqlDeleteFrom = /^\s*delete\s+from\b/i;
const sqlUpdateSet = /^\s*update\s+\S+\s+set\b/i;
const sqlWhere = /\bwhere\b/i;
const sqlTrivialWhere = /\bwhere\s+(?:1\s*=\s*1|true|'1'\s*=\s*'1'|1)\s*$/i;

/** Destructive SQL: DROP, TRUNCATE, ALTER ... DROP, DELETE or UPDATE without a real WHERE. */
export function sqlViolation(value: string): RuleViolation | undefined {
  const sql = stripSqlComments(value);
  const drop = sqlDrop.exec(sql);
  if (drop) return { rule: 'sql.drop', detail: `DROP ${drop[1]!.toUpperCase()}` };
  if (sqlTruncate.test(sql)) return { rule: 'sql.truncate', detail: 'TRUNCATE' };
  if (sqlAlterDrop.test(sql)) return { rule: 'sql.alter-drop', detail: 'ALTER TABLE ... DROP' };
  for (const statement of sql.split(';')) {
    const kind = sqlDeleteFrom.test(statement)
      ? 'delete'
      : sqlUpdateSet.test(statement)
        ? 'update'
        : undefined;
    if (!kind) continue;
    if (!sqlWhere.test(statement) || sqlTrivialWhere.test(statement.trim())) {
      return {
        rule: `sql.${kind}-without-where`,
        detail: `${kind.toUpperCase()} without a WHERE clause`,
      };
    }
  }
  return undefined;
}

const rmCommand =
  /\brm\s+((?:-{1,2}[\w-]+\s+)+)(\/\*?|~\/?\*?|\$HOME\/?\*?|\*|\.\/?\*?)(?=$|[\s;&|])/;
const pipeToShell =
  /\b(?:curl|wget|fetch)\b[^|;&\n]{0,500}\|\s*(?:sudo\s+)?(?:(?:ba|z|k|da)?sh|python[23]?|perl|ruby|node)\b/;
const forkBomb = /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/;
const diskWipe =
  /\bmkfs(?:\.\w+)?\s|\bdd\s[^;|&\n]{0,200}\bof=\/dev\/(?:sd|nvme|hd|disk|xvd)|>\s*\/dev\/sd[a-z]/;
const chmodRoot = /\bchmod\s+(?:-R\s+)?(?:777|a\+rwx)\s+\/(?=$|\s)/;

/** Destructive shell: recursive rm of /, ~ or *, curl | sh, fork bombs, disk wipes, chmod 777 /. */
export function shellViolation(value: string): RuleViolation | undefined {
  const rm = rmCommand.exec(value);
  if (rm && /(?:^|\s)-(?:[a-zA-Z]*[rR]|-recursive\b)/.test(` ${rm[1]}`)) {
    return { rule: 'shell.rm-recursive', detail: `rm ${rm[1]!.trim()} ${rm[2]}` };
  }
  if (pipeToShell.test(value)) {
    return { rule: 'shell.pipe-to-shell', detail: 'download piped into an interpreter' };
  }
  if (forkBomb.test(value)) return { rule: 'shell.fork-bomb', detail: 'fork bomb' };
  if (diskWipe.test(value)) return { rule: 'shell.disk-wipe', detail: 'writes a disk device' };
  if (chmodRoot.test(value)) return { rule: 'shell.chmod-root', detail: 'chmod 777 /' };
  return undefined;
}

const singlePath = /^\S{1,4096}$/;
const traversal = /(?:^|[\\/]|%2f|%5c)(?:\.|%2e){2}(?:[\\/]|%2f|%5c|$)/i;
const absolutePath = /^(?:\/|~\/|[a-zA-Z]:[\\/])/;

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
 * Path values (one token without spaces): `..` traversal, and when `roots`
 * are given, absolute paths outside every root.
 */
export function pathViolation(value: string, roots: readonly string[]): RuleViolation | undefined {
  if (!singlePath.test(value)) return undefined;
  if (traversal.test(value)) return { rule: 'path.traversal', detail: `"${value}" climbs with ..` };
  if (roots.length > 0 && absolutePath.test(value)) {
    const path = normalizePath(value);
    const inside = roots.some(root => {
      const base = normalizePath(root).replace(/\/$/, '');
      return path === base || path.startsWith(`${base}/`);
    });
    if (!inside) {
      return { rule: 'path.outside-root', detail: `"${value}" is outside ${roots.join(', ')}` };
    }
  }
  return undefined;
}
