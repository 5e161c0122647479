/**
 * Kubernetes `Secret` manifests: every value under `data:` (base64) and
 * `stringData:` (plain) is a secret whatever its key is called
 * (`ca.pem`, `.dockercfg`, `extra`). Read only when the text declares a
 * Secret: `kind: Secret` in YAML (quoted or not, with a comment after it,
 * as an item of a list: `- kind: Secret`) or `"kind": "Secret"` in JSON
 * (`kubectl get secret -o json`, a tool's result). Then every `data:` block
 * and every `"data": {…}` object of the text is read, one pass over each.
 */
import { blockScalarLines, indentOf } from './yaml-block-scalar';

/**
 * `kind: Secret` after a line's blanks and an optional list item's `-`:
 * the value, quoted or not, then the line's end or a comment. Tried only
 * where `kind:` occurs, with bounded quantifiers.
 */
const yamlSecretKind = /kind:[ \t]{0,20}(["']?)[Ss]ecret\1[ \t]{0,20}(?:#|\r?\n|\r?$)/y;
/** `kind: Secret` as a member of a flow mapping (`- {kind: Secret, data: {…}}`), ended by `,` or `}`. */
const yamlFlowSecretKind = /kind:[ \t]{0,20}(["']?)[Ss]ecret\1[ \t]{0,20}[,}]/y;
/** What may stand before `kind:` on its line: blanks and a list item's `-`. */
const yamlKindIndent = /^[ \t]*(?:-[ \t]+)?$/;
/** `"kind": "Secret"` at a `"kind"`: the JSON form. */
const jsonSecretKind = /"kind"[ \t\r\n]{0,20}:[ \t\r\n]{0,20}"[Ss]ecret"/y;

/** True when the text declares a Secret, in YAML or JSON. */
function declaresSecret(source: string): boolean {
  return firstSecretKindLine(source) >= 0;
}

/**
 * Where the text first declares a Secret: the start of the first
 * `kind: Secret` line, or of the first `"kind": "Secret"`; -1 if it does not.
 */
export function firstSecretKindLine(source: string): number {
  const yaml = firstYamlSecretKind(source);
  const json = firstJsonSecretKind(source);
  return yaml < 0 ? json : json < 0 ? yaml : Math.min(yaml, json);
}

function firstYamlSecretKind(source: string): number {
  for (let at = source.indexOf('kind:'); at >= 0; at = source.indexOf('kind:', at + 5)) {
    // The line's start is looked for within 41 characters: a search to the
    // text's start for each `kind:` made one long line of them quadratic.
    let lineStart = at;
    while (lineStart > 0 && at - lineStart <= 40 && source.charCodeAt(lineStart - 1) !== 10) {
      lineStart--;
    }
    // A flow mapping's member (`{kind: Secret,`, `, kind: Secret}`; round 18).
    let before = at;
    while (
      before > 0 &&
      (source.charCodeAt(before - 1) === 32 || source.charCodeAt(before - 1) === 9)
    )
      before--;
    const flowMember = source[before - 1] === '{' || source[before - 1] === ',';
    if (flowMember) {
      yamlFlowSecretKind.lastIndex = at;
      if (yamlFlowSecretKind.test(source)) return at - lineStart > 40 ? before - 1 : lineStart;
    }
    if (at - lineStart > 40 || !yamlKindIndent.test(source.slice(lineStart, at))) continue;
    yamlSecretKind.lastIndex = at;
    if (yamlSecretKind.test(source)) return lineStart;
  }
  return -1;
}

function firstJsonSecretKind(source: string): number {
  for (let at = source.indexOf('"kind"'); at >= 0; at = source.indexOf('"kind"', at + 6)) {
    jsonSecretKind.lastIndex = at;
    if (jsonSecretKind.test(source)) return at;
  }
  return -1;
}

// `data:` / `stringData:` on a line of its own (a list item's `- ` counts
// as indentation: its entries are deeper), maybe with a comment.
const dataBlock = /^([ \t]*(?:-[ \t]+)?)(data|stringData):[ \t]*(?:#.*)?$/gm;
const entry = /^([ \t]+)(["']?)([A-Za-z0-9_.-]{1,253})\2:[ \t]*(.*)$/;
const blockScalar = /^[>|][+-]?$/;
// Ten base64 characters or more (seven bytes), as gitleaks requires: `YmFyCg==` ("bar") is a sample.
const base64Value = /^[A-Za-z0-9+/_-]{10,}={0,3}$/;

/**
 * Where a YAML comment starts in a value (a `#` after a blank, past a
 * quoted value's closing quote), or -1.
 */
function commentStart(value: string): number {
  let from = 0;
  const quote = value[0];
  if (quote === '"' || quote === "'") {
    const close = value.indexOf(quote, 1);
    if (close < 0) return -1;
    from = close + 1;
  }
  const comment = /[ \t]#/.exec(value.slice(from));
  return comment === null ? -1 : from + comment.index;
}

/**
 * Calls `onValue(start, end, key)` for every value of a `data:` or
 * `stringData:` block of a text that declares `kind: Secret`. A block scalar
 * (`key: >` then indented lines) is reported from its first to its last
 * line. Linear: each line is read once, by the block it belongs to.
 */
export function scanKubernetesSecrets(
  source: string,
  onValue: (start: number, end: number, key: string) => void,
): void {
  // `kind` first: its `k` is rarer than the `a` a search for `ata` stops at.
  if (!source.includes('ata') || !declaresSecret(source)) return;
  scanJsonDataObjects(source, onValue);
  if (!source.includes('ata:')) return;
  scanYamlFlowDataObjects(source, onValue);
  dataBlock.lastIndex = 0;
  for (let block = dataBlock.exec(source); block; block = dataBlock.exec(source)) {
    const baseIndent = block[1]!.length;
    const plain = block[2] === 'stringData';
    let lineStart = source.indexOf('\n', block.index + block[0].length) + 1;
    while (lineStart > 0 && lineStart < source.length) {
      let lineEnd = source.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = source.length;
      const line = source.slice(lineStart, lineEnd).replace(/\r$/, '');
      const indent = indentOf(line);
      if (indent === line.length || line[indent] === '#') {
        lineStart = lineEnd + 1; // blank or comment line
        continue;
      }
      if (indent <= baseIndent) break; // the block is over
      const match = entry.exec(line);
      if (!match) break;
      const keyIndent = match[1]!.length;
      let value = match[4]!.trim();
      let valueStart =
        lineStart +
        line.length -
        match[4]!.length +
        (match[4]!.length - match[4]!.trimStart().length);
      // A comment after the value (` # prod`) is YAML's, not the value's:
      // with it the value was no base64 and passed (round 17).
      const comment = commentStart(value);
      if (comment >= 0) value = value.slice(0, comment).trimEnd();
      let valueEnd = valueStart + value.length;
      let next = lineEnd + 1;
      if (blockScalar.test(value)) {
        // The value is the following lines indented deeper than the key.
        const lines = blockScalarLines(source, next, keyIndent);
        valueStart = lines.start;
        valueEnd = lines.end;
        next = lines.next;
        if (valueStart < 0) {
          lineStart = next;
          continue;
        }
        value = source.slice(valueStart, valueEnd).replace(/\s+/g, '');
      } else if (/^(["']).*\1$/.test(value)) {
        value = value.slice(1, -1);
        valueStart++;
        valueEnd--;
      }
      if (plain ? value.length >= 6 : base64Value.test(value)) {
        onValue(valueStart, valueEnd, match[3]!);
      }
      lineStart = next;
    }
    // Resume after the block (at the line that ended it): a `data:` nested
    // inside it is not read again, so each line is read once (a staircase of
    // ever deeper `data:` lines stays linear).
    if (lineStart <= 0 || lineStart >= source.length) return;
    dataBlock.lastIndex = Math.max(dataBlock.lastIndex, lineStart);
  }
}

/** `"data": {` or `"stringData": {` (a JSON Secret's values). */
const jsonDataObject = /"(data|stringData)"[ \t\r\n]{0,20}:[ \t\r\n]{0,20}\{/g;
/** One `"key": "value"` member of such an object, then `,` or `}`. */
const jsonMember =
  /[ \t\r\n]{0,40}"([^"\\\n]{1,253})"[ \t\r\n]{0,20}:[ \t\r\n]{0,20}"((?:[^"\\\n]|\\.){0,16384})"[ \t\r\n]{0,40}([,}])/y;

/** A member's key and the quote its string value opens with (`jsonMember` up to its value). */
const jsonMemberHead = /[ \t\r\n]{0,40}"([^"\\\n]{1,253})"[ \t\r\n]{0,20}:[ \t\r\n]{0,20}"/y;
/** The blanks and the `,` or `}` after a member. */
const jsonMemberTail = /[ \t\r\n]{0,40}([,}])/y;

/**
 * For a member at `at` whose string value is longer than `jsonMember`
 * reads (16,384 characters): `onValue` of the whole value, and where the
 * object goes on after it (past its `,`); -1 when there is no such
 * member or the object ends after it. Linear: one pass over the value.
 */
function longStringMemberEnd(
  source: string,
  at: number,
  onValue: (start: number, end: number, key: string) => void,
): number {
  jsonMemberHead.lastIndex = at;
  const head = jsonMemberHead.exec(source);
  if (!head) return -1;
  const start = jsonMemberHead.lastIndex;
  let end = start;
  while (end < source.length) {
    const code = source.charCodeAt(end);
    if (code === 34 || code === 10) break;
    end += code === 92 ? 2 : 1;
  }
  if (end - start <= 16_384 || source.charCodeAt(end) !== 34) return -1;
  onValue(start, end, head[1]!);
  jsonMemberTail.lastIndex = end + 1;
  const tail = jsonMemberTail.exec(source);
  if (!tail) return -1;
  return tail[1] === '}' ? -1 : jsonMemberTail.lastIndex;
}

/**
 * Calls `onValue` for every string value of each `"data": {…}` /
 * `"stringData": {…}` object of the text (a Secret's, as JSON). The object
 * is read member by member up to its `}` or to the first member that is not
 * a string pair; the search goes on after what was read, so each character
 * is read at most twice.
 */
function scanJsonDataObjects(
  source: string,
  onValue: (start: number, end: number, key: string) => void,
): void {
  if (!source.includes('ata"')) return;
  jsonDataObject.lastIndex = 0;
  for (let block = jsonDataObject.exec(source); block; block = jsonDataObject.exec(source)) {
    const plain = block[1] === 'stringData';
    let at = jsonDataObject.lastIndex;
    for (;;) {
      jsonMember.lastIndex = at;
      const member = jsonMember.exec(source);
      if (!member) {
        // A value past the member's bound is reported whole (round 30: not at all), and the object read on.
        const longEnd = longStringMemberEnd(source, at, onValue);
        if (longEnd < 0) break;
        at = longEnd;
        continue;
      }
      const raw = member[2]!;
      const valueStart = member.index + member[0].lastIndexOf(`"${raw}"`) + 1;
      // JSON may write base64's `/` as `\/`.
      const value = raw.replace(/\\\//g, '/');
      if (plain ? value.length >= 6 : base64Value.test(value)) {
        onValue(valueStart, valueStart + raw.length, member[1]!);
      }
      at = jsonMember.lastIndex;
      if (member[3] === '}') break;
    }
    jsonDataObject.lastIndex = Math.max(jsonDataObject.lastIndex, at);
  }
}

/** `data: {` or `stringData: {` in YAML (a flow mapping: `data: {db: cGFz…}`), not `metadata: {`. */
const yamlFlowDataObject = /(?<![A-Za-z0-9_"'-])(data|stringData)[ \t]{0,20}:[ \t]{0,20}\{/g;
/**
 * One `key: value` member of such a mapping, then `,` or `}`: the key bare
 * or quoted, the value double-quoted, single-quoted or plain (no blank,
 * `,`, bracket or brace in it), of any length. Round 32: read up to 16,384
 * characters, a longer value (`data: {tls.key: <20 KB of base64>}`) was no
 * member and reached the model whole. Still linear: a value stops at the
 * first character it cannot hold (its quote, a line break, a blank, `,`),
 * and a member is tried once, where the one before it ended.
 */
const yamlFlowMember =
  /[ \t\r\n]{0,40}(["']?)([A-Za-z0-9_.-]{1,253})\1[ \t\r\n]{0,20}:[ \t\r\n]{0,20}(?:"([^"\\\n]*)"|'([^'\n]*)'|([^\s,{}[\]"'#][^\s,{}[\]]*))[ \t\r\n]{0,40}([,}])/y;

/**
 * Calls `onValue` for every value of each YAML flow mapping under `data:`
 * or `stringData:` (round 18: `data: {db: cGFzc3dvcmQ=}` reached the model,
 * the block reader reading only a `data:` line of its own). Read member by
 * member up to `}` or the first member it cannot read; the search goes on
 * after what was read, so each character is read at most twice.
 */
function scanYamlFlowDataObjects(
  source: string,
  onValue: (start: number, end: number, key: string) => void,
): void {
  if (!source.includes('{')) return;
  yamlFlowDataObject.lastIndex = 0;
  for (
    let block = yamlFlowDataObject.exec(source);
    block;
    block = yamlFlowDataObject.exec(source)
  ) {
    const plain = block[1] === 'stringData';
    let at = yamlFlowDataObject.lastIndex;
    for (;;) {
      yamlFlowMember.lastIndex = at;
      const member = yamlFlowMember.exec(source);
      if (!member) break;
      const value = member[3] ?? member[4] ?? member[5]!;
      const quoted = member[5] === undefined;
      const valueEnd = member.index + member[0].lastIndexOf(member[6]!);
      // The value ends before the blanks and quote ahead of the `,` or `}`.
      let end = valueEnd;
      while (end > 0 && /[ \t\r\n]/.test(source[end - 1]!)) end--;
      if (quoted) end--;
      const start = end - value.length;
      if (plain ? value.length >= 6 : base64Value.test(value)) onValue(start, end, member[2]!);
      at = yamlFlowMember.lastIndex;
      if (member[6] === '}') break;
    }
    yamlFlowDataObject.lastIndex = Math.max(yamlFlowDataObject.lastIndex, at);
  }
}
