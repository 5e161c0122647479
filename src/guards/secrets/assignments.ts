/** `key = value` assignments, reversed comparisons and XML settings whose key names a secret. */
import { anchoredMatcher, positionsOfUnit, stickyPattern } from '../shared/anchored-scan';
import { isPasswordPlaceholder, isPlaceholderValue } from './placeholder';

export const keywords =
  '(?:api[_.-]?key|apikey|api[_.-]?token|secret|token|passw(?:or)?d|pwd|pass|auth[_.-]?key|credential|access[_.-]?key|private[_.-]?key|client[_.-]?secret|signing[_.-]?key|encryption[_.-]?key|session[_.-]?key|webhook[_.-]?url|dsn|login)';
// An identifier containing a keyword, an assignment or comparison operator
// on the same line, then a quoted value (any characters but the quote) or a
// bare value (up to a blank or a quote; `bareValueEnd` says where in it the
// value ends). Whitespace alone separates only a quoted value. A quoted value
// still open after 200 characters matches cut there (`quotedValueState`
// says so; the finder reads it to its closing quote): before round 31 it did
// not match and `password = "<250 characters>"` reached the model whole. The
// cut's look-ahead also lets a value run into another quote (`"abcdef'`),
// and so does a value of fewer than four characters before one
// (`"ab'cdef…"`, round 33: no match, the password reached the model);
// `scanAssignments` reads those on to their own quote (`ownQuoteMatch`) or
// drops them. A triple quote (`"""…"""`, Python)
// and bash's `$'…'` open a quoted value too (round 32: neither matched).
// A bare value shorter than four characters matches only when a `\` right
// before its line break continues it (`password=ab\`, round 33).
export const assignment = new RegExp(
  `(?<![A-Za-z0-9])([A-Za-z0-9_.-]{0,40}${keywords}[A-Za-z0-9_.-]{0,30})["']?(?:[ \\t]{0,3}(?::::=|::=|:=|\\?=|=>|===|!==|==|!=|=|:)[ \\t]{0,3}(?:\\$?(["'\`])${quotedTail('\\2')}|([^\\s"'\`]{4,300}|[^\\s"'\`]{0,2}\\\\(?=\\r?\\n)))|[ \\t]{1,3}(["'\`])${quotedTail('\\5')})`,
  'gi',
);

/** After a quote (backreference `quote`): a triple quote's other two, the value (a group), its end. */
function quotedTail(quote: string): string {
  return `(?:${quote}${quote})?([^"'\`\\n]{4,200}|[^"'\`\\s]{0,3}(?=(?!${quote})["'\`]))(?:${quote}|(?=[^\\n]))`;
}

/**
 * `quotedTail` as `scanAssignments` reads it: a value whose first 200
 * characters hold no quote is cut there when the first quote after them is
 * its own (the finder reads it on); one that runs into a quote of another
 * kind is read on to its own quote or its line's end (`ownQuoteMatch`),
 * when it is no shorter than 200 or holds no white space; a value closed
 * by its own quote within 200 is read whole.
 */
function quotedTailAsScanned(quote: string): string {
  const free = `[^"'\`\\n]`;
  const otherQuote = `(?!${quote})["'\`]`;
  return `(?:${quote}${quote})?(${free}{200,}${otherQuote}(?:(?!${quote})[^\\n])*|[^"'\`\\s]{0,199}${otherQuote}(?:(?!${quote})\\S)*(?=${quote})|${free}{4,200}(?=${quote})|${free}{200}(?=${free})(?=${free}*(?:${quote}|\\n|$)))(?:${quote}|(?=[^"'\`]|$))`;
}

/**
 * What `scanAssignments` reads, as one pattern (for checks against a whole
 * text's `matchAll`). Too slow for the scan itself.
 */
export const assignmentAsScanned = new RegExp(
  assignment.source
    .replace(quotedTail('\\2'), quotedTailAsScanned('\\2'))
    .replace(quotedTail('\\5'), quotedTailAsScanned('\\5')),
  assignment.flags,
);
// The same, reversed: a quoted value compared with a keyword identifier.
// The value has no bound (round 32: one past 200 characters did not match
// and reached the model whole); it holds no quote, so each quote of a text
// starts at most one value, read to the next quote or line break.
export const reversedComparison = new RegExp(
  `(["'\`])([^"'\`\\n]{4,})\\1[ \\t]{0,3}(?:===|!==|==|!=)[ \\t]{0,3}[A-Za-z0-9_.]{0,40}${keywords}`,
  'gi',
);
/**
 * XML settings: `<add key="ClearTextPassword" value="…" />`. A value of
 * 200 characters or more is read on to its own quote (another kind of quote
 * is part of it), or to its line's end when it has none: round 32, such a
 * value did not match and reached the model whole. A shorter one ends at
 * either quote, as before. Each quote starts at most one value, which a
 * quote of its kind ends: linear.
 */
export const xmlSetting = new RegExp(
  `key=["']([A-Za-z0-9_.-]{0,40}${keywords}[A-Za-z0-9_.-]{0,30})["'][ \\t]{1,3}value=["'](${longValueAfter('value=')}|[^"'\\n]{4,200}(?=["']))(?:["']|(?=[\\r\\n]|$))`,
  'gi',
);

/**
 * A quoted value of 200 characters or more, opened by a quote (`"` or `'`)
 * right after `opener`: its first 200 characters hold no quote, the rest
 * runs to its own quote, a line break or the end of the text.
 */
function longValueAfter(opener: string): string {
  return `[^"'\\n]{200}(?:(?<=${opener}"[^"'\\n]{200})[^"\\r\\n]*|(?<=${opener}'[^"'\\n]{200})[^'\\r\\n]*)`;
}

/**
 * Keys that name something (an id, a file, a type) or a setting of one
 * (its algorithm, scheme, expiration, the variable it is read from) rather
 * than hold a secret: the key's last word, after the secret word. The
 * setting words are those config files write after a secret's name
 * (`password_hash_algorithm`, `PASSWORD_HASHERS`, Postgres'
 * `password_encryption`, `token_signing_alg`, `password_scheme`,
 * `token_expiration`, `secret_rotation`, `api_key_env`, `vault_token_backend`);
 * round 47 (hN): `password_hash_algorithm: argon2id` was reported. A plural
 * glued to a word before it (`imagePullSecrets`, `keyVaultToStoreSecrets`,
 * `max_tokens` aside) names what it holds; a plural that is the key, or its
 * last part after `_ . -` (`passwords`, `api_keys`), holds them: round 47
 * (hN), its value is judged (`{"passwords": "…"}` was missed), as one word
 * with a digit or symbol before its end (`pluralKeyValue`).
 */
const namingKey =
  /(?:^|[_.-]|[a-z])(?:id|ids|name|names|type|url|uri|path|file|dir|ref|field|header|prefix|length|len|count|format|mode|policy|label|hint|regex|pattern|endpoint|host|version|store|manager|provider|ttl|expiry|expires|timeout|enabled|required|min|max|algorithms?|algo|alg|hashing|hashers?|encryption|ciphers?|scheme|methods?|strategy|expiration|lifetime|rotation|env|backend|encoding|charset)$|[a-z](?:secrets|tokens|credentials|passwords|keys)$|public|^pub[_.-]/i;
/**
 * A key whose last word is `hash` or `digest` holds a hash of the secret
 * (`password_digest: $2a$12$…`, Authelia's `password: $argon2id$…`): hashes
 * can be cracked offline, so such a value is judged. Only the name of an
 * algorithm there (`password_hash: argon2id`) is a setting's value, no secret.
 */
const pluralKey = /(?:^|[_.-])(?:secrets|tokens|credentials|passwords|keys)$/i;
/**
 * A plural key's value is a secret's shape only as one word holding a digit
 * or symbol before its end: under `"credentials"` a corpus wrote a sentence,
 * under `persist-credentials` prose wrote `false.`.
 */
const pluralKeyValue = /^\S*[^A-Za-z\s]\S+$/;
const hashKey = /(?:^|[_.-]|[a-z])(?:hash|digest)$/i;
const algorithmName =
  /^(?:argon2(?:id|i|d)?|bcrypt|[sy]?crypt|yescrypt|pbkdf2(?:[_-]?(?:hmac[_-]?)?sha[_-]?(?:1|256|512))?|(?:hmac[_-]?)?sha[_-]?(?:1|224|256|384|512)(?:[_-]?crypt)?|sha3[_-]?(?:224|256|384|512)|md5(?:[_-]?crypt)?|ssha(?:256|384|512)?|scram[_-]sha[_-](?:1|256)|blake2[bs]?|[hrep]s(?:256|384|512)|aes[_-]?(?:128|192|256)(?:[_-]?(?:gcm|cbc|ctr))?)$/i;
/** Keys whose value is a password: passwords are often words, so only placeholders are excluded. */
const passwordKey = /passw(?:or)?d|pwd|passphrase/i;

const wholeSecretKey =
  /passw(?:or)?d|pwd|passphrase|secret|token|credential|(?:api|auth|access|private|signing|encryption|session)[_.-]?key/i;
/**
 * Whether `key` says its value is one secret as a whole (a password,
 * passphrase, secret, token, credential or key, not a name of one: `password_hint`,
 * `token_url`): when a guardrail before `secrets` redacted part of such a
 * value, the parts left are parts of that secret (`"password": "Xq9
 * [EMAIL_ADDRESS]"` kept `Xq9`; round 18).
 */
export function namesWholeSecret(key: string): boolean {
  return wholeSecretKey.test(key) && !namingKey.test(key);
}

// A template word (`your`, `my`, `insert`, `replace`) starts a placeholder only when
// letters, `_` and `-` follow (`your_api_key`, `my-password`): followed by anything
// (`.*`), `password=MyDogRex2024!` was taken for a template and passed. And they
// must name what goes there (key, password, token, name...): any letters after it
// made `password=MyDogRexIsCute` a template.
export const placeholderValue =
  /^(?:x+|\*+|\.+|-+|_+|#+|0+|true|false|null|nil|none|undefined|yes|no|on|off|required|optional|string|text|value|changeme|change_?me|password|secret|token|redacted|hidden|example|sample|test|dummy|placeholder|your|my|(?:your|my|insert[_-]|replace)[_-]?(?=[a-z_-]*(?:key|api|pass|pwd|secret|token|cred|auth|login|user|account|client|access|phrase|value|here|name))[a-z_-]*|replace[_-]?me|todo|tbd|<[^>]*>|\$\{.*\}?|\$\(.*\)|\{\{.*\}\}|\{[A-Za-z_][\w.]*\}?|%[A-Za-z_]\w*%|%\(.*\)s?|%s|\$[A-Za-z_][A-Za-z0-9_]*|process\.env\..*|os\.environ.*|env\(.*|getenv.*|[A-Za-z_][\w.]*\(.*|ENC\[.*|!vault)$/i;

/** What a candidate value is: a secret, a placeholder (counted, never reported), or something else. */
export type ValueVerdict = 'secret' | 'placeholder' | 'other';

/** Judges the value of a secret-named key (`key` empty when unknown). */
export function judgeSecretValue(
  value: string,
  key: string,
  reportPlaceholders: boolean,
): ValueVerdict {
  if (namingKey.test(key)) return 'other';
  if (hashKey.test(key) && algorithmName.test(value)) return 'other';
  if (pluralKey.test(key) && !pluralKeyValue.test(value)) return 'other';
  if (placeholderValue.test(value)) return 'placeholder';
  if (!reportPlaceholders) {
    const placeholder = passwordKey.test(key) ? isPasswordPlaceholder : isPlaceholderValue;
    if (placeholder(value)) return 'placeholder';
  }
  return looksLikeSecretValue(value, key) ? 'secret' : 'other';
}

enum Bracket {
  Round = 1,
  Square = 2,
  Curly = 4,
}

/**
 * `judgeSecretValue` answering a call with the same value, key and
 * `reportPlaceholders` as the one before from that call's verdict (the
 * judgement is a function of the three). For one scan: a value read on
 * inside the value before it (`password=password=…`: every key's value is
 * the same 300 characters) was judged again at every key, a third of that
 * text's CPU time (round 39). Holds only the last value.
 */
export function lastVerdictJudge(): typeof judgeSecretValue {
  let lastValue: string | undefined;
  let lastKey = '';
  let lastReport = false;
  let lastVerdict: ValueVerdict = 'other';
  return (value, key, reportPlaceholders) => {
    if (value === lastValue && key === lastKey && reportPlaceholders === lastReport)
      return lastVerdict;
    lastVerdict = judgeSecretValue(value, key, reportPlaceholders);
    lastValue = value;
    lastKey = key;
    lastReport = reportPlaceholders;
    return lastVerdict;
  };
}

/** A bracket's kind, negative for a closing one; 0 for any other character. */
function bracketOf(code: number): number {
  if (code === 40) return Bracket.Round;
  if (code === 41) return -Bracket.Round;
  if (code === 91) return Bracket.Square;
  if (code === 93) return -Bracket.Square;
  if (code === 123) return Bracket.Curly;
  if (code === 125) return -Bracket.Curly;
  return 0;
}

/** How far back on its line a key's enclosing bracket is looked for. */
const bracketLookBehind = 256;

/** The brackets opened before `keyStart` on its line (within `bracketLookBehind`) and not closed there. */
function openBracketsBefore(source: string, keyStart: number): number {
  let open = 0;
  const closed = [0, 0, 0, 0, 0];
  for (let index = keyStart - 1; index >= 0 && keyStart - index <= bracketLookBehind; index--) {
    const code = source.charCodeAt(index);
    if (code === 10 || code === 13) break;
    const bracket = bracketOf(code);
    if (bracket < 0) closed[-bracket]!++;
    else if (bracket === 0) continue;
    else if (closed[bracket]! > 0) closed[bracket]!--;
    else open |= bracket;
  }
  return open;
}

const isBlankOrEnd = (code: number) =>
  Number.isNaN(code) || code === 32 || code === 9 || code === 10 || code === 13;

/**
 * A key and its `=` or `:` (a setting's name: letters, `_ . -`, digits only
 * at its end), starting right after a separator. Random characters hold a
 * digit before a letter: `;Zr4Lm2…Xq==` is the rest of a value, not a key.
 */
const nextKey = /[A-Za-z_][A-Za-z_.-]{0,39}\d{0,3}[ \t]*[=:]/y;

/**
 * Whether the separator at `index` (`;`, `,`, `&`, `#`) ends a value that
 * runs to `end` at most: it is the value's last character, or a key and its
 * `=`/`:` follow it (`;Database=x`, `,user: bob`, `&page=2`). Glued to
 * anything else it is part of the value (`Tr0ub;4dor&3x`): ending there left
 * the rest of the secret visible.
 */
function endsBeforeNextKey(source: string, index: number, end: number): boolean {
  if (index + 1 >= end) return true;
  nextKey.lastIndex = index + 1;
  return nextKey.test(source) && nextKey.lastIndex <= end;
}

/**
 * Where an unquoted value that starts at `start` really ends, within the
 * `end` the pattern gave it (the next blank or quote). `;` ends it (it
 * separates settings: `Password=…;Database=x`, cookies, shell commands); `,`
 * before white space or the end of the text (`user=bob, password=…, ip=…`)
 * or before the next key (`password=a1b2c3,ip=1`, `{password: …,user: …}`);
 * `)`, `]` and `}` when they close a bracket opened before the key on its
 * line (`f(password=…)`, `[token=…]`); a bracket opened inside the value closes inside it
 * (`[A]Tr0ub4dor&3x`, `hunter2[GENERIC_SECRET]`). In a URL query (the key
 * right after `?` or `&`) `&` and `#` end it. Each such separator ends it
 * only at the value's end or before the next key (`endsBeforeNextKey`), a
 * closing bracket only when no letter or digit follows it:
 * `password=Tr0ub;4dor&3x`, `f(password=abc,defgh1234)` and
 * `(password=Tr0ub)4dor` are one value each. Everything else is the value:
 * .env and INI values, YAML plain scalars and command-line flags hold `,`,
 * `)`, `]` and `}` (`password=[A]Tr0ub4dor&3x`, `token=abc,def…`).
 */
export function bareValueEnd(source: string, keyStart: number, start: number, end: number): number {
  const enclosing = openBracketsBefore(source, keyStart);
  const before = source.charCodeAt(keyStart - 1);
  const inQuery = before === 63 || before === 38;
  const depth = [0, 0, 0, 0, 0];
  let nested = 0;
  for (let index = start; index < end; index++) {
    const code = source.charCodeAt(index);
    if (inQuery && (code === 38 || code === 35)) {
      if (endsBeforeNextKey(source, index, end)) return index;
      continue;
    }
    // `;` separates settings (connection strings, cookies, shell commands, INI comments).
    if (code === 59) {
      if (endsBeforeNextKey(source, index, end)) return index;
      continue;
    }
    if (code === 44) {
      if (isBlankOrEnd(source.charCodeAt(index + 1))) return index;
      // In a bracket before the key or in a list without blanks (`k=v,k2=v2`,
      // log lines): before the next key.
      if (nested === 0 && endsBeforeNextKey(source, index, end)) return index;
      continue;
    }
    const bracket = bracketOf(code);
    if (bracket > 0) {
      depth[bracket]!++;
      nested++;
    } else if (bracket === 0) continue;
    else if (depth[-bracket]! > 0) {
      depth[-bracket]!--;
      nested--;
    } else if ((enclosing & -bracket) !== 0 && !isAlphanumericCode(source.charCodeAt(index + 1)))
      return index;
  }
  return end;
}

/** A bare value continued on the next lines (`continuedValue`): where it ends, and its text joined. */
export interface ContinuedValue {
  end: number;
  value: string;
}

/**
 * A bare value (`[start, end)`) that ends with `\\` right before its line
 * break, continued on the next line as Java `.properties` (and shell) read
 * it: the next line's leading blanks dropped, its text to the line's end
 * (trailing blanks dropped) joined on, again while a line ends with `\\`;
 * an empty line ends it. Undefined when the value is not continued. Before
 * round 33 the value ended at its `\\` and its continuation lines were
 * released raw. Reads each continuation line once.
 */
export function continuedValue(
  source: string,
  start: number,
  end: number,
): ContinuedValue | undefined {
  if (source.charCodeAt(end - 1) !== 92) return undefined;
  let value = source.slice(start, end - 1);
  let at = end;
  let last = end;
  for (;;) {
    if (source.charCodeAt(at) === 13) at++;
    if (source.charCodeAt(at) !== 10) break;
    at++;
    while (isBlankCode(source.charCodeAt(at))) at++;
    let lineEnd = source.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = source.length;
    let contentEnd = lineEnd;
    while (contentEnd > at && isBlankOrReturn(source.charCodeAt(contentEnd - 1))) contentEnd--;
    if (contentEnd === at) break;
    last = contentEnd;
    if (source.charCodeAt(contentEnd - 1) !== 92) {
      value += source.slice(at, contentEnd);
      break;
    }
    value += source.slice(at, contentEnd - 1);
    at = contentEnd;
  }
  return last > end ? { end: last, value } : undefined;
}

/**
 * Whether `key`, starting at `keyStart`, is a Java `.properties` key whose
 * value is a password: the first thing on its line (blanks before it
 * aside), dotted (`db.password`, `spring.datasource.password`), its last
 * part naming a password (`ssl.key-store-password`; not
 * `password.reset.message`, a message's key, nor `db.password_hint`).
 * Such a line's value runs to its end: `.properties` keeps blanks inside a
 * value, so `db.password = correct horse battery staple` is one
 * passphrase (round 34: read to its first blank, `horse battery staple`
 * reached the model).
 */
export function isPropertiesPasswordKey(source: string, keyStart: number, key: string): boolean {
  const dot = key.lastIndexOf('.');
  if (dot <= 0) return false;
  const last = key.slice(dot + 1);
  if (!passwordKey.test(last) || namingKey.test(last)) return false;
  for (let at = keyStart - 1; at >= 0; at--) {
    const code = source.charCodeAt(at);
    if (code === 10) return true;
    if (!isBlankOrReturn(code)) return false;
  }
  return true;
}

/**
 * The end of a `.properties` password's value (`isPropertiesPasswordKey`)
 * whose bare value starts at `start`: its line's end, trailing blanks left
 * out. A value continued with `\\` ends there too (`continuedValue` reads on).
 */
export function propertiesValueEnd(source: string, start: number): number {
  let end = source.indexOf('\n', start);
  if (end < 0) end = source.length;
  while (end > start && isBlankOrReturn(source.charCodeAt(end - 1))) end--;
  return end;
}

function isBlankOrReturn(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/**
 * A redaction's own placeholder (`[GENERIC_SECRET]`; a bare value stops at
 * its `]`): redacting it again changed released text that window mode
 * re-reads as context, which then judged the rest without it.
 */
export function isRedactionPlaceholder(value: string): boolean {
  return /^\[[A-Z][A-Z0-9_]*\]?$/.test(value);
}

/** A member access, an e-mail address, a host name, a path or a file name: what a reference to a secret looks like. */
function hasNameShape(value: string): boolean {
  return (
    /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(value) || // member access
    (/@/.test(value) && /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/.test(value)) || // an e-mail
    /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}(?::\d{1,5})?$/i.test(value) || // a host name
    /^[./~]/.test(value) || // a path
    /\.(?:json|ya?ml|pem|txt|key|env|cfg|conf|ini|crt)$/i.test(value) // a file name
  );
}

/**
 * Whether a value with a name's shape (`hasNameShape`) has a part (between
 * `.`, `@`, `/`, `\\`, `~` and `:`) that looks like a secret, not a name: a
 * part holding a symbol other than `_` and `-`; under a password key,
 * letters and digits together (`hunter2.com`, `P@ssw0rd.io`,
 * `Tr0ub4dor3x.key`, `Dr.WhoFan_1963`); under other keys, letters and digits
 * alternating three times or more (`Xq9Lm2Zr8Wq4Tb@x.io`), which names
 * rarely do (`oauth2Token`, `k8s`, `id_ed25519`, `AWS_S3_KEY`). Before round
 * 16 the shape alone excused such values and they reached the model. One
 * pass over the value.
 */
function hasSecretLookingPart(value: string, passwordValue: boolean, url = false): boolean {
  let letters = false;
  let digits = false;
  let alternations = 0;
  let previous = 0; // 1 after a letter, 2 after a digit, 0 at a part's start
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const kind = code >= 48 && code <= 57 ? 2 : isAsciiLetterCode(code) ? 1 : 0;
    if (kind === 0) {
      if (code === 95 || code === 45) continue; // `_` and `-` join words of one part
      if (!isNamePartSeparator(code) && !(url && isUrlQuerySeparator(code))) return true;
      letters = false;
      digits = false;
      alternations = 0;
      previous = 0;
      continue;
    }
    if (kind === 1) letters = true;
    else digits = true;
    if (previous !== 0 && previous !== kind) alternations++;
    previous = kind;
    if (passwordValue ? letters && digits : alternations >= 3) return true;
  }
  return false;
}

function isAsciiLetterCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/** `?` `&` `=` `#` `%` `+`: what separates the parts of a URL's query and fragment. */
function isUrlQuerySeparator(code: number): boolean {
  return code === 63 || code === 38 || code === 61 || code === 35 || code === 37 || code === 43;
}

/** `.` `@` `/` `\\` `~` `:`: what separates the parts of a member access, address, host or path. */
function isNamePartSeparator(code: number): boolean {
  return code === 46 || code === 64 || code === 47 || code === 92 || code === 126 || code === 58;
}

/**
 * A URL (`https://`, `//`) to a host name or `localhost`, with no user
 * information and no part of its path, query or fragment that looks like a
 * secret (`hasSecretLookingPart` as under keys other than passwords: paths
 * hold ids such as `db2`, `v1`). Round 17: any value starting so was
 * excused, `password=https://Tr0ub4dor3x` too.
 */
function isPlainUrl(value: string): boolean {
  const scheme = /^(?:https?:)?\/\//.exec(value);
  if (!scheme) return false;
  const rest = value.slice(scheme[0].length);
  const hostEnd = rest.search(/[/?#]/);
  const host = hostEnd < 0 ? rest : rest.slice(0, hostEnd);
  if (!/^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)+|localhost)(?::\d{1,5})?$/i.test(host)) return false;
  return hostEnd < 0 || !hasSecretLookingPart(rest.slice(hostEnd), false, true);
}

/**
 * Under a password key, words joined by dots (`letmein.now`,
 * `correct.horse.battery`) are the password unless they read as a
 * reference in code: a part naming a secret (`config.password`,
 * `env.DB_PASS`), a part written as an identifier (`_`, a capital:
 * `self.dbPass`, `settings.SECRET`), or a first part that is an object
 * code reads settings from (`self`, `this`, `env`, `process`, `config`,
 * `request`, …). Round 18: the member-access shape excused them all.
 */
function isDottedWordsPassword(value: string): boolean {
  if (!/^[a-z]+(?:\.[a-z]+)+$/.test(value)) return false;
  const parts = value.split('.');
  if (codeRoots.has(parts[0]!)) return false;
  return !parts.some(part => secretWord.test(part));
}
const secretWord = /pass|pwd|pw$|secret|token|key|cred|auth|login/;
const codeRoots = new Set(
  (
    'self this cls super env environ process os sys config conf cfg settings options opts args argv ' +
    'params props state ctx context req request res response form input data values vars app user ' +
    'account vault secrets credentials creds window document module exports import db database ' +
    'model obj object item record row payload body'
  ).split(' '),
);

function looksLikeSecretValue(value: string, key: string): boolean {
  if (/^\s|\s$/.test(value)) return false; // secrets do not start or end with spaces
  if (isRedactionPlaceholder(value)) return false;
  if (/^<[^>]*>$|^\{[\w.\s]*\}?$/.test(value)) return false; // <template>, {variable}
  if (/^[A-Za-z_][\w.-]*[:=]$/.test(value)) return false; // the next key of a config file
  if (
    hasNameShape(value) &&
    !hasSecretLookingPart(value, passwordKey.test(key)) &&
    !(passwordKey.test(key) && isDottedWordsPassword(value))
  )
    return false;
  // A CONSTANT_NAME reference or a plain URL, unless a part looks like a
  // secret (round 17: `password=TR0UB4DOR_3X`, `password=https://Tr0ub4dor3x`
  // were excused for the shape alone).
  if (
    /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) &&
    !hasSecretLookingPart(value, passwordKey.test(key))
  )
    return false;
  if (isPlainUrl(value)) return false;
  if (/^\d{1,7}$/.test(value)) return false; // small numbers (ports, counts)
  if (/^[a-z]+(?:[-_ ][a-z]+)*$/.test(value) && value.length < 20) return false; // plain words
  if (passwordKey.test(key)) return value.length >= 6;
  if (/^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*(?:[-_.]?\d+(?:\.\d+)*)?$/.test(value)) return false; // CamelCase name, maybe versioned
  if (/^\d{1,7}$/.test(value)) return false; // small numbers (ports, counts)
  return value.length >= 6;
}

function isIdentifierCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}

export function isAlphanumericCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

function isBlankCode(code: number): boolean {
  return code === 32 || code === 9;
}

function isQuoteCode(code: number): boolean {
  return code === 34 || code === 39 || code === 96;
}

/** The most characters of a quoted value the `assignment` pattern reads. */
export const quotedValueReach = 200;

/**
 * Whether an `assignment` match's quoted value is closed by its quote, cut
 * at `quotedValueReach` with more of it after, or ended by something else
 * (another quote, a line break, the text's end: no match before round 31);
 * undefined for a bare value.
 */
export function quotedValueState(match: RegExpExecArray): 'closed' | 'cut' | 'open' | undefined {
  const quote = match[2] ?? match[5];
  const value = match[3] ?? match[6];
  if (quote === undefined || value === undefined) return undefined;
  if (value.length > 0 && match[0].endsWith(quote)) return 'closed';
  return value.length === quotedValueReach ? 'cut' : 'open';
}

/** What `scanAssignments`' `onMatch` returns for a value that ended before its match did. */
export interface AssignmentValueEnd {
  valueEnd: number;
}

/**
 * For an `assignment` match whose quoted value runs into a quote of another
 * kind (`password = "…'…"`): the match read on to the value's own quote, or
 * to its line's end when it has none; undefined for any other match (then
 * the value ended at its own quote, or was cut at 200 with its own quote,
 * a line break or the text's end first, as before). A value whose first
 * 200 characters hold no quote is read on in either case: round 31 redacted
 * it only up to the other quote, and the rest reached the model. A shorter
 * one only when its own quote closes it on its line and it holds no white
 * space (`"Tr0ub'4dor&3x"`, a password, not `"don't know"`): such a value
 * did not match. Reads from the value's start to its end once.
 */
function ownQuoteMatch(source: string, match: RegExpExecArray): RegExpExecArray | undefined {
  const group = match[2] !== undefined ? 3 : 6;
  const quote = match[group - 1];
  const value = match[group];
  if (quote === undefined || value === undefined) return undefined;
  // An empty value (another quote right after the opening one) is never closed.
  if (value.length > 0 && match[0].endsWith(quote)) return undefined;
  const start = match.index + match[0].length - value.length;
  let other = start + value.length;
  while (other < source.length) {
    const code = source.charCodeAt(other);
    if (code === 10 || isQuoteCode(code)) break;
    other++;
  }
  const own = quote.charCodeAt(0);
  if (other >= source.length || !isQuoteCode(source.charCodeAt(other))) return undefined;
  if (source.charCodeAt(other) === own) return undefined;
  let end = other + 1;
  while (end < source.length && source.charCodeAt(end) !== own && source.charCodeAt(end) !== 10)
    end++;
  const closed = source.charCodeAt(end) === own;
  if (other - start < quotedValueReach && (!closed || /\s/.test(source.slice(start, end)))) {
    return undefined;
  }
  const read = [...match] as unknown as RegExpExecArray;
  read.index = match.index;
  read.input = source;
  read[group] = source.slice(start, end);
  read[0] = source.slice(match.index, closed ? end + 1 : end);
  return read;
}

function isValueEnd(result: unknown): result is AssignmentValueEnd {
  return typeof result === 'object' && result !== null && 'valueEnd' in result;
}

const stickyAssignment = stickyPattern(assignment);
const stickyReversedComparison = stickyPattern(reversedComparison);
const stickyXmlSetting = stickyPattern(xmlSetting);
export const keywordPattern = new RegExp(keywords, 'i');
/** Bit `n` for the `n`th letter of the alphabet, either case; 0 for other characters. */
const letterBits = Array.from({ length: 128 }, (_, code) =>
  (code | 32) >= 97 && (code | 32) <= 122 ? 1 << ((code | 32) - 97) : 0,
);
/**
 * Each keyword's letters (without its optional parts) as a set of
 * `letterBits`, with supersets of another left out: a key holds a keyword
 * only if its letters include one of these sets. An alternative of
 * `keywords` that is not plain letters after taking out `[_.-]?` and
 * `(?:…)?` gives 0, which every key passes.
 */
const keywordLetterSets = (() => {
  const sets = keywords
    .slice(3, -1)
    .replaceAll('[_.-]?', '')
    .replace(/\(\?:[a-z]+\)\?/g, '')
    .split('|')
    .map(word =>
      /^[a-z]+$/.test(word)
        ? [...word].reduce((set, char) => set | letterBits[char.charCodeAt(0)]!, 0)
        : 0,
    );
  return [...new Set(sets)].filter(
    set => !sets.some(other => other !== set && (other & set) === other),
  );
})();
/** Whether letters `present` (a set of `letterBits`) include every letter of some keyword. */
function mayHoldKeyword(present: number): boolean {
  for (const set of keywordLetterSets) if ((present & set) === set) return true;
  return false;
}
// An assignment's key is at most 40 + 14 (the longest keyword) + 30 characters.
const longestAssignmentKey = 84;

/**
 * The matches of `assignment` (as `matchAll` yields them). Every match has a
 * key ([A-Za-z0-9_.-], containing a keyword) that ends just before an
 * optional quote, up to three blanks and an operator (which holds `:` or
 * `=`) or a quote; so the pattern is only tried at the starts of keys that
 * end within five characters before a `:`, `=` or quote and hold a keyword.
 *
 * When `onMatch` returns false (its value is not reported whole), the scan
 * goes on from the start of that value rather than after it: `token: "abc api_key =
 * "…"` opens a quoted value that runs to the next quote, the one of the
 * assignment inside it, which `matchAll` never reads; an unquoted value
 * runs over `[password=…` (it stops at blanks, not at `[` or `=`), read on
 * inside once: a bare value inside it is not read on again. Still linear:
 * keys are tried in increasing order, each at most twice.
 */
export function scanAssignments(
  source: string,
  /**
   * Returns false when the match's value is not reported whole, or
   * `{ valueEnd }` when its value ended before the match's end (the scan
   * reads on from there: `{password: x,token: y}`).
   */
  onMatch: (match: RegExpExecArray) => unknown,
  colons: Int32Array = positionsOfUnit(source, ':'),
  equals: Int32Array = positionsOfUnit(source, '='),
): void {
  const matcher = anchoredMatcher(stickyAssignment, source);
  let covered = 0; // key ends up to here are done
  let bareReopenedUntil = 0; // the end of the last bare value read on inside
  let readOnUntil = 0; // the end of the last value `ownQuoteMatch` read on
  forEachOperatorOrQuote(source, colons, equals, position => {
    // A key is read from a quote only when a blank comes before it (the
    // key, then one to three blanks and a quoted value): a key right before
    // a quote (`"password": …`, `key'=…`) is followed within five
    // characters by the `:` or `=` of its operator, which reads it (every
    // operator holds one), so a key ending where no `:`, `=` or
    // blank-and-quote follows is no match's and is not read. Most quotes of
    // prose are apostrophes inside words (`don't`): 7,700 quotes on the
    // dev sets' first MB, where reading the key before each cost as much as
    // the `indexOf` that found it. Keys are still read in text order. (The
    // quotes after anything but a blank are not visited at all.)
    // Each character read once (round 38): whether the one before `end` is a key's is carried on.
    const from = Math.max(covered + 1, position - 5, 1);
    let afterKeyCode = isIdentifierCode(source.charCodeAt(from - 1));
    for (let end = from; end <= position; end++) {
      const keyCodeAtEnd = isIdentifierCode(source.charCodeAt(end));
      const keyEnds = afterKeyCode && !keyCodeAtEnd;
      afterKeyCode = keyCodeAtEnd;
      if (!keyEnds) continue;
      let first = end - 1;
      // The key's letters, so that the keyword pattern is tried (on a copy
      // of the key) only on keys that have every letter of some keyword:
      // 8,249 keys on the dev sets' first MB, 35 with a keyword.
      let letters = letterBits[source.charCodeAt(first)]!;
      while (
        first > 0 &&
        end - first < longestAssignmentKey &&
        isIdentifierCode(source.charCodeAt(first - 1))
      )
        letters |= letterBits[source.charCodeAt(--first)]!;
      if (
        end - first < 3 ||
        !mayHoldKeyword(letters) ||
        !keywordPattern.test(source.slice(first, end))
      )
        continue;
      for (let start = Math.max(first, matcher.next); start <= end - 3; start++) {
        if (start > 0 && isAlphanumericCode(source.charCodeAt(start - 1))) continue;
        if (start < matcher.next || start < readOnUntil) continue;
        let match = matcher.at(start);
        const readOn = match ? ownQuoteMatch(source, match) : undefined;
        if (readOn) match = readOn;
        else if (match && quotedValueState(match) === 'open') {
          matcher.reopenFrom(start + 1);
          match = null;
        }
        const result = match ? onMatch(match) : undefined;
        // Keys inside a value read on are its, as after any match.
        if (readOn) readOnUntil = readOn.index + readOn[0].length;
        if (isValueEnd(result)) {
          matcher.reopenFrom(result.valueEnd);
          readOnUntil = Math.min(readOnUntil, result.valueEnd);
        }
        if (match && result === false) {
          const quoted = match[3] ?? match[6];
          const value = quoted ?? match[4];
          if (value === undefined) continue;
          const valueStart = match.index + match[0].lastIndexOf(value);
          // A bare value inside a bare value that was read on does not read
          // on again: `password=password=…` would match every key again over
          // the same up-to-300 characters (1 MB of it: 65 ms -> 1 s).
          if (quoted === undefined && valueStart < bareReopenedUntil) continue;
          if (quoted === undefined) bareReopenedUntil = valueStart + value.length;
          matcher.reopenFrom(valueStart);
          readOnUntil = Math.min(readOnUntil, valueStart);
        }
      }
    }
    covered = Math.max(covered, position);
  });
}

/**
 * Calls `visit` with each `:` and `=` of `source` and each quote (`"`, `'`,
 * `` ` ``) right after a blank, in text order: the characters a key of
 * `scanAssignments` can end before (see there). One `indexOf` stream per
 * character, merged here rather than by `forEachOccurrence`: a quote after
 * anything but a blank (most are apostrophes inside words) is passed over
 * in this loop, not in a call of `visit` that returns at once (round 35).
 */
function forEachOperatorOrQuote(
  source: string,
  colons: Int32Array,
  equalSigns: Int32Array,
  visit: (position: number) => void,
): void {
  const none = source.length;
  const next = (char: string, from: number) => {
    const at = source.indexOf(char, from);
    return at < 0 ? none : at;
  };
  // The `:` and `=` from the positions the other scans of the text walk too (round 36).
  let colonIndex = 0;
  let equalsIndex = 0;
  let colon = colons.length > 0 ? colons[0]! : none;
  let equals = equalSigns.length > 0 ? equalSigns[0]! : none;
  let double = next('"', 0);
  let single = next("'", 0);
  let back = next('`', 0);
  for (;;) {
    const position = Math.min(colon, equals, double, single, back);
    if (position >= none) return;
    const code = source.charCodeAt(position);
    if (code === 58) colon = ++colonIndex < colons.length ? colons[colonIndex]! : none;
    else if (code === 61) {
      equals = ++equalsIndex < equalSigns.length ? equalSigns[equalsIndex]! : none;
    } else {
      if (code === 34) double = next('"', position + 1);
      else if (code === 39) single = next("'", position + 1);
      else back = next('`', position + 1);
      if (!isBlankCode(source.charCodeAt(position - 1))) continue;
    }
    visit(position);
  }
}

/**
 * The matches of `reversedComparison`: a quoted value, up to three blanks
 * and `==`/`!=`/`===`/`!==`. The closing quote sits within five characters
 * before an `=`, and the opening quote is the previous quote character (the
 * value holds none).
 */
export function scanReversedComparisons(
  source: string,
  onMatch: (match: RegExpExecArray) => void,
  equals: Int32Array = positionsOfUnit(source, '='),
): void {
  const matcher = anchoredMatcher(stickyReversedComparison, source);
  let covered = -1; // closing quotes up to here are done
  for (let index = 0; index < equals.length; index++) {
    const position = equals[index]!;
    for (let close = Math.max(covered + 1, position - 5, 1); close < position; close++) {
      const quote = source.charCodeAt(close);
      if (!isQuoteCode(quote)) continue;
      // To the previous quote or line break: each closing quote is read back
      // from once, and the values read back over hold no quote, so none
      // overlaps another.
      let open = close - 1;
      while (open >= 0) {
        const code = source.charCodeAt(open);
        if (isQuoteCode(code) || code === 10) break;
        open--;
      }
      if (open < 0 || source.charCodeAt(open) !== quote || close - open - 1 < 4) continue;
      if (open < matcher.next) continue;
      const match = matcher.at(open);
      if (match) onMatch(match);
    }
    covered = Math.max(covered, position - 1);
  }
}

/** The matches of `xmlSetting`, which start with `key=` (any case). */
export function scanXmlSettings(
  source: string,
  onMatch: (match: RegExpExecArray) => void,
  equals: Int32Array = positionsOfUnit(source, '='),
): void {
  const matcher = anchoredMatcher(stickyXmlSetting, source);
  for (let index = 0; index < equals.length; index++) {
    const start = equals[index]! - 3;
    if (
      start < matcher.next ||
      (source.charCodeAt(start) | 0x20) !== 107 ||
      (source.charCodeAt(start + 1) | 0x20) !== 101 ||
      (source.charCodeAt(start + 2) | 0x20) !== 121
    )
      continue;
    const match = matcher.at(start);
    if (match) onMatch(match);
  }
}
