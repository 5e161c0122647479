/**
 * The provider rules of `findSecrets`: one entry per token format, with its
 * documented structure (prefix, length, alphabet, decodable parts) and the
 * literal it is anchored on. Adding a provider is one entry in
 * `providerRules` (and its prefix in `knownPrefix` when the entropy detector
 * must leave its tokens to the rule).
 */
import { judgeSecretValue } from './assignments';
import { isPlaceholderValue } from './placeholder';

export interface Rule {
  type: string;
  pattern: RegExp;
  /** Capture group holding the secret; the whole match when absent. */
  group?: number;
  /**
   * Characters after the provider prefix that must not be a placeholder
   * (`ghp_xxxx…`); the prefix length. Absent: the whole value is judged.
   */
  prefix?: number;
  /** Structural check beyond the pattern (a decodable JWT header, …). */
  validate?: (value: string) => boolean;
  /** Skip the placeholder check (PEM bodies are judged by `validate`). */
  keepPlaceholders?: boolean;
  /**
   * For a rule whose value's last part has an upper bound and no boundary
   * after it (`{8,4000}`): more of that part (sticky). A match it matches
   * right after was cut at the bound, and the value runs on over what it
   * matches: a longer token is redacted whole, never its first 4,000
   * characters with the rest released (round 30).
   */
  more?: RegExp;
  /**
   * For a rule of one exact length that reads a longer token to its end
   * (round 33): the exact form (sticky). A reading of strings joined
   * (`split-array-strings.ts`) ends a token at a string's end where the
   * exact form ends: what follows in the next string is another value.
   */
  exact?: RegExp;
  /**
   * The pattern the readings of pieces joined across blanks (`split-prefix.ts`)
   * use, when not `pattern`: AWS's id of exactly 20 (round 43: its read-on past
   * 20 is for one token; pieces joined longer than an id are no key).
   */
  joined?: RegExp;
  /** Where a match can start, relative to a literal every match contains (see `anchor`). */
  anchor: Anchor;
}

/**
 * Every match of a rule contains one of `literals`, starting `min`..`max`
 * characters after the match start; `start` (when given) is a cheap test a
 * start must pass before the pattern is tried there. The pattern is only
 * tried at the starts these allow, which keeps the scan at one pass over a
 * few rare characters instead of one regex pass per rule.
 */
export interface Anchor {
  literals: readonly string[];
  min: number;
  max: number;
  start?: (text: string, start: number) => boolean;
  /** A cheap test of a literal's occurrence (at its start) before it counts as a hit. */
  hit?: (text: string, at: number) => boolean;
  /**
   * Where the literals can be part of a match (see `near`): in, or at
   * most `before` characters before the start of, a run of `run` or more
   * printable ASCII characters without blanks (`printableRuns`), or with
   * `value`, of the characters of a keyed value (`[A-Za-z0-9_=:-]`).
   * Absent: anywhere in the text.
   */
  near?: { run: number; before: number; value: boolean };
  /**
   * Literals every match contains, when the scan looks for rarer ones
   * (`curl` for the flag `-u`): what a filter that skips text without any
   * (`secretsMayMatch`) looks for. Absent: `literals`.
   */
  contains?: readonly string[];
}

function anchor(
  literals: readonly string[],
  min = 0,
  max = min,
  start?: (text: string, start: number) => boolean,
  hit?: (text: string, at: number) => boolean,
): Anchor {
  // Every anchor has every key (one shape): the scan reads them on hot paths.
  return { literals, min, max, start, hit, near: undefined, contains: undefined };
}

/**
 * `anchored` for a rule whose matches' literals lie in, or at most `before`
 * characters before, a run of at least `run` printable ASCII characters
 * without blanks: a token of 20 or more such characters (`before` 0: the
 * whole match is one, `run` its shortest length), or the value of a key
 * (`before`: the most characters from the literal to the value's start;
 * `value`: the value is made of `[A-Za-z0-9_=:-]`, and so is the run).
 * Real text has few such runs, so the literals are looked for near them
 * only (on 1 MB of real text, 10% of it instead of all of it).
 */
function near(anchored: Anchor, run: number, before = 0, value = false): Anchor {
  return { ...anchored, near: { run, before, value } };
}

const startsWithDigit = (text: string, start: number) => {
  const code = text.charCodeAt(start);
  return code >= 48 && code <= 57;
};
const startsWithMNO = (text: string, start: number) => {
  const code = text.charCodeAt(start);
  return code >= 77 && code <= 79; // M, N, O
};
/**
 * Every code `\s` matches, and more (any beyond ASCII): before a flag
 * (`curl … -u`, `sshpass -p`, `mysql … -p`), a test that lets through every
 * hit a match can have.
 */
const isBlankCode = (code: number) => code === 32 || (code >= 9 && code <= 13) || code >= 128;
const startsWithLowerCase = (text: string, start: number) => {
  const code = text.charCodeAt(start);
  return code >= 97 && code <= 122;
};

/** `source` with each lower-case letter matching either case (`pass` -> `[pP][aA][sS][sS]`). */
const anyCase = (source: string) =>
  source.replace(/[a-z]/g, letter => `[${letter}${letter.toUpperCase()}]`);
const b = '(?<![A-Za-z0-9_-])';
const e = '(?![A-Za-z0-9_-])';
/** A token's character: what `e` says must not follow a token. */
const tokenChar = '[A-Za-z0-9_-]';

/**
 * A token's last part: `min` to `max` of `part`, then the token's end; or,
 * past `max`, its first `max` characters with more of the token after them
 * (`follow`: `part` or a token character). A token longer than its bound
 * matches cut there and the rule's `more` (`readOn(part)`) reads it to its
 * end: before round 32, `e` failed on it and the whole key reached the
 * model (`sk-proj-` and 201 characters). The cut form is tried first, so a
 * part past its bound is never cut at an inner character `part` has and
 * `e` does not (`=`, `.`).
 */
function upTo(part: string, min: number, max: number, follow = `${part}|${tokenChar}`): string {
  return `(?:${part}{${max}}(?=${follow})|${part}{${min},${max}}${e})`;
}

/**
 * A format of one exact shape (`exact`, `length` characters: Anthropic's 93
 * and `AA`), or past it: its first `length` characters with more of the
 * token after them, read to its end by `readOn(tokenChar)`. Round 33: a
 * longer token failed `e` and reached the model whole.
 */
function pastExactLength(exact: string, length: number): string {
  return `(?:${exact}${e}|${tokenChar}{${length}}(?=${tokenChar}))`;
}

/** `Rule.exact` of a rule whose exact form is `source`. */
const exactForm = (source: string) => new RegExp(source, 'y');

/** `more` of a rule whose last part is `part` (see `upTo`): the rest of the token. */
const readOn = (part: string) => new RegExp(`(?:${part}|${tokenChar})+`, 'y');

const rule = (
  type: string,
  source: string,
  options: Omit<Rule, 'type' | 'pattern'> & { flags?: string },
): Rule => ({ type, pattern: new RegExp(source, `g${options.flags ?? ''}`), ...options });

/** Decodes one base64url segment to text, or undefined. */
function decodeBase64Url(segment: string): string | undefined {
  try {
    const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    return atob(padded);
  } catch {
    return undefined;
  }
}

/** A JWT's dot with one to three blanks before or after it (`eyJ… . eyJ…`). */
const jwtBlankDot = '(?:[ \\t]{1,3}\\.[ \\t]{0,3}|\\.[ \\t]{1,3})';

// Texts repeat a handful of JWT headers: remember the verdict for each.
const jwtHeaderVerdicts = new Map<string, boolean>();

/** A JWT's first segment must decode to a JSON object (its header), as RFC 7519 requires. */
function jwtHeaderIsJson(token: string): boolean {
  const segment = token.slice(0, token.indexOf('.')).trimEnd();
  const known = jwtHeaderVerdicts.get(segment);
  if (known !== undefined) return known;
  const verdict = decodedHeaderIsJson(decodeBase64Url(segment));
  if (jwtHeaderVerdicts.size >= 256) jwtHeaderVerdicts.clear();
  jwtHeaderVerdicts.set(segment, verdict);
  return verdict;
}

function decodedHeaderIsJson(header: string | undefined): boolean {
  if (header === undefined) return false;
  try {
    const parsed: unknown = JSON.parse(header);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** A base64url-encoded JSON object after a fixed prefix (Sentry org tokens, 1Password service accounts). */
function base64JsonAfter(prefixLength: number) {
  return (value: string) => {
    const decoded = decodeBase64Url(value.slice(prefixLength, prefixLength + 64));
    return decoded !== undefined && /^\{"[A-Za-z_]+":/.test(decoded);
  };
}

// A PEM private key: the BEGIN line, then header lines (`Proc-Type:`), blank
// lines and base64 lines, up to the END line. Line breaks may be real or
// JSON-escaped (`\n`). Body lines are matched one by one with bounded
// quantifiers, so a key without its END line (cut off, or still streaming)
// is matched up to the end of the text: in window mode it is held from its
// BEGIN line until it ends.
const pemBreak = '(?:\\\\r)?\\\\n|\\s';
const pemLine = '(?:[A-Za-z-]{1,30}: [^\\n\\\\]{0,200}|[A-Za-z0-9+/=]{1,200})';
const pemPrivateKey = `-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:${pemBreak}){0,4}(?:${pemLine}(?:(?:${pemBreak}){1,4}|$)){0,400}(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----)?`;

/** One body line of a PEM block and the breaks after it, as `pemPrivateKey` reads one. */
const pemBodyLine = new RegExp(`${pemLine}(?:(?:${pemBreak}){1,4}|$)`, 'y');
/** The breaks after a base64 line of more than 200 characters. */
const pemBreaks = new RegExp(`(?:${pemBreak}){1,4}`, 'y');
const pemEndLine = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;

function isBase64Code(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47 ||
    code === 61
  );
}

/**
 * The end of the PEM block `pemPrivateKey` matched up to `matchEnd`
 * without its END line: the pattern reads at most 400 lines of at most 200
 * characters, and a key past either bound (a 16,384-bit key, a body pasted
 * as one line) was redacted up to the bound and its rest released (round
 * 30). Read on line by line as the pattern does, with neither bound: a
 * base64 line of any length, any number of them, then the END line if it
 * is there. A line of more than 200 characters is the key's whatever
 * follows it (a body pasted as one line, closed by a quote). `matchEnd`
 * itself when there is nothing more. Linear: each line is read once, by
 * one sticky match or one pass over its run.
 */
export function pemBlockEnd(source: string, matchEnd: number): number {
  let end = matchEnd;
  for (;;) {
    let run = end;
    while (run < source.length && isBase64Code(source.charCodeAt(run))) run++;
    if (run - end > 200) {
      // Key material whatever follows it (a one-line body ends at its JSON string's quote).
      end = run;
      pemBreaks.lastIndex = run;
      if (!pemBreaks.test(source)) break;
      end = pemBreaks.lastIndex;
      continue;
    }
    pemBodyLine.lastIndex = end;
    if (!pemBodyLine.test(source) || pemBodyLine.lastIndex === end) break;
    end = pemBodyLine.lastIndex;
  }
  pemEndLine.lastIndex = end;
  return pemEndLine.test(source) ? pemEndLine.lastIndex : end;
}

/** A PEM match holds key material (a base64 line of 20+ characters that is not a placeholder) or runs to the end of the text. */
export function pemHasKeyMaterial(value: string, matchEnd: number, textLength: number): boolean {
  if (matchEnd === textLength && !/-----END/.test(value)) return true; // still open: hold it
  if (!/[A-Za-z0-9+/=]{20}/.test(value)) return false; // no base64 line at all (a bare BEGIN line)
  const body = value.replace(/-----(?:BEGIN|END)[^-]{0,60}-----/g, '');
  const lines = body.match(/[A-Za-z0-9+/=]{20,}/g) ?? [];
  return lines.some(line => !isPlaceholderValue(line));
}

/**
 * Known provider formats, with their documented structure (prefix, length,
 * alphabet, decodable parts). Placeholders after the prefix are rejected.
 */
/** XML element names that hold a secret (`<password>…</password>`), as written in config files. */
const xmlSecretElements = [
  'password',
  'Password',
  'PASSWORD',
  'passwd',
  'secret',
  'Secret',
  'SECRET',
  'token',
  'Token',
  'TOKEN',
  'apiKey',
  'ApiKey',
  'api_key',
  'API_KEY',
  'apiToken',
  'ApiToken',
  'clientSecret',
  'ClientSecret',
  'client_secret',
  'accessKey',
  'AccessKey',
  'secretKey',
  'SecretKey',
  'privateKey',
  'PrivateKey',
  'ClearTextPassword',
];

/** The first letters of `xmlSecretElements`. */
const xmlSecretInitials = new Set(xmlSecretElements.map(name => name[0]!));

/**
 * A URL's password (group 1): `min` to 128 characters before `@` and a
 * host; past 128, its first 128 when the `@` and host follow in its run,
 * read on by `urlPasswordRest` (round 32: a longer password did not match).
 * The match ends with the password.
 */
const urlPassword = (min: number) =>
  `([^\\s@/"']{${min},128}(?=@[^\\s/"'])|[^\\s@/"']{128}(?=[^\\s@/"']+@[^\\s/"']))`;
const urlPasswordRest = /[^\s@/"']+/y;

/** The rest of a command-line value cut at its bound: to the next blank or quote. */
const flagValueRest = /[^\s"']+/y;

const prefixedRules: Rule[] = [
  // Anthropic keys: `sk-ant-api03-` / `sk-ant-admin01-`, 93 characters, then
  // `AA`; a longer one is read to its end (`pastExactLength`).
  rule(
    'ANTHROPIC_API_KEY',
    `${b}sk-ant-(?:api|sid)\\d{2}-${pastExactLength('[A-Za-z0-9_-]{93}AA', 95)}`,
    {
      prefix: 13,
      more: readOn(tokenChar),
      exact: exactForm('sk-ant-(?:api|sid)\\d{2}-[A-Za-z0-9_-]{93}AA'),
      anchor: near(anchor(['sk-ant-api', 'sk-ant-sid']), 20),
    },
  ),
  rule(
    'ANTHROPIC_ADMIN_KEY',
    `${b}sk-ant-admin\\d{2}-${pastExactLength('[A-Za-z0-9_-]{93}AA', 95)}`,
    {
      prefix: 15,
      more: readOn(tokenChar),
      exact: exactForm('sk-ant-admin\\d{2}-[A-Za-z0-9_-]{93}AA'),
      anchor: near(anchor(['sk-ant-admin']), 20),
    },
  ),
  // Past 200 characters before `T3BlbkFJ` the key is cut there (when the
  // marker follows in its run) and read on by `more`, as one past 200 after it.
  rule(
    'OPENAI_API_KEY',
    `${b}sk-(?:proj-|svcacct-|admin-|None-)?(?:[A-Za-z0-9_-]{20,200}T3BlbkFJ${upTo(tokenChar, 20, 200)}|[A-Za-z0-9_-]{200}(?=[A-Za-z0-9_-]+T3BlbkFJ))`,
    { prefix: 3, more: readOn(tokenChar), anchor: near(anchor(['sk-']), 20) },
  ),
  rule('OPENAI_API_KEY', `${b}sk-(?:proj-|svcacct-|admin-)${upTo(tokenChar, 20, 200)}`, {
    prefix: 8,
    more: readOn(tokenChar),
    anchor: near(anchor(['sk-']), 20),
  }),
  rule('OPENAI_API_KEY', `${b}sk-[A-Za-z0-9]{48}${e}`, {
    prefix: 3,
    anchor: near(anchor(['sk-']), 20),
  }),
  // One exact length (20): an id a token character follows (`AKIA…end`, two
  // ids written together) is cut there and read to the token's end (round 43),
  // when its 16 hold a digit: capitals run together (`TODAYINASIAASACKOFRICEFELLOVER`,
  // a gitleaks negative) are words. No range (`{0,15}`): a glued id is read by shape.
  rule(
    'AWS_ACCESS_KEY_ID',
    `${b}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])(?:(?![A-Z]{16})[A-Z0-9]{16}(?=${tokenChar})|[A-Z0-9]{16}${e})`,
    {
      prefix: 4,
      more: readOn('[A-Z0-9]'),
      exact: exactForm('(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}'),
      joined: new RegExp(`${b}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}${e}`, 'g'),
      anchor: near(anchor(['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T']), 20),
    },
  ),
  rule(
    'AWS_SECRET_ACCESS_KEY',
    `(?:aws|AWS)[\\w.-]{0,20}(?:secret|SECRET|Secret|access_key|ACCESS_KEY)[\\w.-]{0,20}["']?\\s{0,3}[:=]{1,2}>?\\s{0,3}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`,
    { group: 1, anchor: near(anchor(['aws', 'AWS']), 40, 64) },
  ),
  rule('AWS_BEDROCK_API_KEY', `${b}ABSK[A-Za-z0-9+/=]{100,400}`, {
    prefix: 4,
    more: /[A-Za-z0-9+/=]+/y,
    anchor: near(anchor(['ABSK']), 20),
  }),
  rule(
    'AWS_BEDROCK_API_KEY',
    `${b}bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=_-]{20,2000}`,
    {
      prefix: 16,
      more: /[A-Za-z0-9+/=_-]+/y,
      anchor: near(anchor(['bedrock-api-key-']), 20),
    },
  ),
  rule('GITHUB_TOKEN', `${b}gh[pousr]_${upTo('[A-Za-z0-9]', 36, 36)}`, {
    prefix: 4,
    more: readOn('[A-Za-z0-9]'),
    exact: exactForm('gh[pousr]_[A-Za-z0-9]{36}'),
    anchor: near(anchor(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']), 20),
  }),
  // 30 random characters and a 6-character checksum: a token cut short of
  // its checksum (30 to 35) is all of its secret (round 30: not reported).
  rule('GITHUB_TOKEN', `${b}gh[pousr]_[A-Za-z0-9]{30,35}${e}`, {
    prefix: 4,
    anchor: near(anchor(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']), 20),
  }),
  rule('GITHUB_TOKEN', `${b}github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}${e}`, {
    prefix: 11,
    anchor: near(anchor(['github_pat_']), 20),
  }),
  // GitLab: the documented lengths of each token kind; routable tokens carry `.` and a 9-character suffix.
  // Past 300 characters before the `.`, cut there and read on to the suffix.
  rule(
    'GITLAB_TOKEN',
    `${b}(?:glpat|glrt)-(?:[A-Za-z0-9_-]{27,300}\\.[0-9a-z]{9}${e}|[A-Za-z0-9_-]{300}(?=[A-Za-z0-9_-]+\\.[0-9a-z]{9}${e}))`,
    {
      prefix: 6,
      more: /[A-Za-z0-9_-]+\.[0-9a-z]{9}/y,
      anchor: near(anchor(['glpat-', 'glrt-']), 20),
    },
  ),
  rule('GITLAB_TOKEN', `${b}(?:gldt|glrt|glcbt|glffct|glft|glsoat)-[A-Za-z0-9_-]{20}${e}`, {
    prefix: 6,
    anchor: near(anchor(['gldt-', 'glrt-', 'glcbt-', 'glffct-', 'glft-', 'glsoat-']), 20),
  }),
  // A legacy personal access token past its 20 characters: read to its end.
  rule('GITLAB_TOKEN', `${b}glpat-${upTo('[A-Za-z0-9_-]', 20, 20)}`, {
    prefix: 6,
    more: readOn('[A-Za-z0-9_-]'),
    exact: exactForm('glpat-[A-Za-z0-9_-]{20}'),
    anchor: near(anchor(['glpat-']), 20),
  }),
  rule('GITLAB_TOKEN', `${b}glsoat-[A-Za-z0-9_-]{50}${e}`, {
    prefix: 7,
    anchor: near(anchor(['glsoat-']), 20),
  }),
  rule('GITLAB_TOKEN', `${b}glptt-[A-Za-z0-9_-]{40}${e}`, {
    prefix: 6,
    anchor: near(anchor(['glptt-']), 20),
  }),
  rule('GITLAB_TOKEN', `${b}glimt-[A-Za-z0-9_-]{25}${e}`, {
    prefix: 6,
    anchor: near(anchor(['glimt-']), 20),
  }),
  rule('GITLAB_TOKEN', `${b}glagent-${upTo(tokenChar, 50, 1024)}`, {
    prefix: 8,
    more: readOn(tokenChar),
    anchor: near(anchor(['glagent-']), 20),
  }),
  rule('GITLAB_TOKEN', `${b}gloas-[A-Za-z0-9_-]{64}${e}`, {
    prefix: 6,
    anchor: near(anchor(['gloas-']), 20),
  }),
  rule('GITLAB_TOKEN', `${b}GR1348941[A-Za-z0-9_-]{20}(?:[A-Za-z0-9_-]{30})?${e}`, {
    prefix: 9,
    anchor: near(anchor(['GR1348941']), 20),
  }),
  rule('GITLAB_TOKEN', `_gitlab_session=([0-9a-z]{32})${e}`, {
    group: 1,
    anchor: near(anchor(['_gitlab_session=']), 20),
  }),
  rule('SLACK_TOKEN', `${b}xox[bpaesr]-\\d{8,14}-\\d{8,14}(?:-\\d{8,14})?-[A-Za-z0-9]{20,40}${e}`, {
    prefix: 5,
    anchor: near(anchor(['xox']), 20),
  }),
  rule('SLACK_TOKEN', `${b}xox[abposre]-${upTo('[A-Za-z0-9-]', 20, 250)}`, {
    prefix: 5,
    more: readOn('[A-Za-z0-9-]'),
    anchor: near(anchor(['xox']), 20),
  }),
  rule('SLACK_TOKEN', `${b}xoxe(?:\\.xox[bp])?-\\d-${upTo('[A-Z0-9]', 146, 200)}`, {
    prefix: 5,
    more: readOn('[A-Z0-9]'),
    anchor: near(anchor(['xoxe']), 20),
  }),
  rule('SLACK_TOKEN', `${b}xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]{20,80}`, {
    prefix: 5,
    more: readOn('[a-z0-9]'),
    anchor: near(anchor(['xapp-']), 20),
  }),
  rule(
    'SLACK_WEBHOOK',
    'https?://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,120}',
    { more: /[A-Za-z0-9+/_-]+/y, anchor: near(anchor(['://hooks.slack.com/'], 4, 5), 20) },
  ),
  // Stripe: up to 255 characters in all (its documented limit; `rk_live_51…` keys are 107 today).
  rule('STRIPE_KEY', `${b}(?:sk|rk)_(?:live|test|prod)_${upTo('[A-Za-z0-9]', 10, 247)}`, {
    prefix: 8,
    more: readOn('[A-Za-z0-9]'),
    anchor: anchor(['_live_', '_test_', '_prod_'], 2, 2),
  }),
  rule('GOOGLE_API_KEY', `${b}AIza${upTo('[0-9A-Za-z_-]', 35, 35)}`, {
    prefix: 4,
    more: readOn('[0-9A-Za-z_-]'),
    exact: exactForm('AIza[0-9A-Za-z_-]{35}'),
    anchor: near(anchor(['AIza']), 20),
  }),
  rule('GCP_SERVICE_ACCOUNT', '"type"\\s{0,3}:\\s{0,3}"service_account"', {
    anchor: near(anchor(['"type"']), 17, 13),
  }),
  // Past 34, read on up to its last character that is not a dot (a sentence's full stop).
  rule(
    'AZURE_AD_CLIENT_SECRET',
    `${b}[a-zA-Z0-9_~.]{3}\\dQ~${upTo('[a-zA-Z0-9_~.-]', 31, 34, '\\.{0,20}[a-zA-Z0-9_~-]')}`,
    {
      more: /[a-zA-Z0-9_~.-]*[a-zA-Z0-9_~-]/y,
      anchor: near(anchor(['Q~'], 4, 4), 20),
    },
  ),
  rule('AZURE_STORAGE_KEY', 'AccountKey=([A-Za-z0-9+/]{86}==)', {
    group: 1,
    anchor: near(anchor(['AccountKey=']), 20),
  }),
  rule('TWILIO_API_KEY', `${b}SK[0-9a-fA-F]{32}${e}`, {
    prefix: 2,
    anchor: near(anchor(['SK']), 20),
  }),
  // Twilio account SID: `AC` and 32 lower-case hex digits (the account's user name for its API).
  rule('TWILIO_ACCOUNT_SID', `${b}AC[0-9a-f]{32}${e}`, {
    prefix: 2,
    anchor: near(anchor(['AC']), 20),
  }),
  // Mailgun's private API key: `key-` and 32 hex digits.
  rule('MAILGUN_API_KEY', `${b}key-[0-9a-f]{32}${e}`, {
    prefix: 4,
    anchor: near(anchor(['key-']), 20),
  }),
  // Databricks personal access token: `dapi`, 32 hex digits, an optional `-<n>` suffix.
  rule('DATABRICKS_TOKEN', `${b}dapi[0-9a-f]{32}(?:-${upTo('\\d', 1, 3)}|${e})`, {
    prefix: 4,
    more: readOn('\\d'),
    anchor: near(anchor(['dapi']), 20),
  }),
  // Its first part past 24 characters: cut there when a second part follows, read on by `more`.
  rule(
    'SENDGRID_API_KEY',
    `${b}SG\\.(?:[A-Za-z0-9_-]{20,24}\\.${upTo(tokenChar, 39, 50)}|[A-Za-z0-9_-]{24}(?=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{39}))`,
    {
      prefix: 3,
      more: /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]{39,})?/y,
      anchor: near(anchor(['SG.']), 20),
    },
  ),
  rule('NPM_TOKEN', `${b}npm_${upTo('[A-Za-z0-9]', 36, 36)}`, {
    prefix: 4,
    more: readOn('[A-Za-z0-9]'),
    exact: exactForm('npm_[A-Za-z0-9]{36}'),
    anchor: near(anchor(['npm_']), 20),
  }),
  rule(
    'NPM_TOKEN',
    `//[^\\s/]{0,200}/:_authToken=\\s{0,2}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})${e}`,
    {
      group: 1,
      anchor: near(
        anchor(['/:_authToken='], 2, 202, (text, start) => text.startsWith('//', start)),
        36,
        15,
        true,
      ),
    },
  ),
  rule('PYPI_TOKEN', `${b}pypi-AgE[A-Za-z0-9_-]{70,1000}`, {
    prefix: 5,
    more: /[A-Za-z0-9_-]+/y,
    anchor: near(anchor(['pypi-AgE']), 20),
  }),
  rule('PYPI_TOKEN', `${b}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}`, {
    prefix: 20,
    more: /[A-Za-z0-9_-]+/y,
    anchor: near(anchor(['pypi-AgEIcHlwaS5vcmc']), 20),
  }),
  rule('HUGGINGFACE_TOKEN', `${b}(?:hf_|api_org_)${upTo('[A-Za-z]', 34, 34)}`, {
    prefix: 3,
    more: readOn('[A-Za-z]'),
    exact: exactForm('(?:hf_|api_org_)[A-Za-z]{34}'),
    anchor: near(anchor(['hf_', 'api_org_']), 20),
  }),
  // Blanks around a dot (`eyJ… . eyJ… . sig`, round 18: header and payload
  // passed) join the parts too: one to three before or after it. The
  // payload starts with `eyJ` whatever the blanks; a signature after blanks
  // needs 16 characters (HS256's has 43), so a sentence after a token's
  // ` . ` is not taken for one.
  rule(
    'JWT',
    `${b}eyJ[A-Za-z0-9_-]{10,}(?:\\.|${jwtBlankDot})eyJ[A-Za-z0-9_-]{10,8000}(?:${jwtBlankDot}[A-Za-z0-9_-]{16,1000}|\\.[A-Za-z0-9_-]{0,1000})?`,
    {
      validate: jwtHeaderIsJson,
      anchor: near(anchor(['eyJ']), 20),
      // A payload or signature past its bound: the rest of the token, its dots too.
      more: /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*/y,
    },
  ),
  rule('PRIVATE_KEY', pemPrivateKey, { keepPlaceholders: true, anchor: anchor(['-----BEGIN']) }),
  rule(
    'DATABASE_URL_PASSWORD',
    `\\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|jdbc:[a-z]{2,12}|clickhouse|cockroachdb|ftp|sftp|smtp)://[^\\s:/@"']{0,64}:${urlPassword(1)}`,
    { group: 1, more: urlPasswordRest, anchor: anchor(['://'], 3, 17, startsWithLowerCase) },
  ),
  rule(
    'DISCORD_TOKEN',
    `${b}[MNO][A-Za-z0-9_-]{23,25}\\.[A-Za-z0-9_-]{6}\\.${upTo(tokenChar, 27, 38)}`,
    {
      more: readOn(tokenChar),
      anchor: near(
        anchor(['.'], 24, 26, startsWithMNO, (text, at) => text.charCodeAt(at + 7) === 46),
        20,
      ),
    },
  ),
  rule('TELEGRAM_BOT_TOKEN', `${b}\\d{8,10}:AA[A-Za-z0-9_-]{33}${e}`, {
    anchor: near(anchor([':AA'], 8, 10, startsWithDigit), 20),
  }),
  rule('SHOPIFY_TOKEN', `${b}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${e}`, {
    prefix: 6,
    anchor: near(anchor(['shpat_', 'shpca_', 'shppa_', 'shpss_']), 20),
  }),
  rule('SQUARE_TOKEN', `${b}(?:EAAA|sq0atp-|sq0csp-)${upTo(tokenChar, 22, 60)}`, {
    prefix: 4,
    more: readOn(tokenChar),
    anchor: near(anchor(['EAAA', 'sq0atp-', 'sq0csp-']), 20),
  }),
  rule('MAILCHIMP_API_KEY', `${b}[0-9a-f]{32}-us\\d{1,2}${e}`, {
    anchor: near(anchor(['-us'], 32, 32), 20),
  }),
  rule('DIGITALOCEAN_TOKEN', `${b}do[opr]_v1_[a-f0-9]{64}${e}`, {
    prefix: 7,
    anchor: near(anchor(['doo_v1_', 'dop_v1_', 'dor_v1_']), 20),
  }),
  rule('AGE_SECRET_KEY', `${b}AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}${e}`, {
    prefix: 16,
    anchor: near(anchor(['AGE-SECRET-KEY-1']), 20),
  }),
  // 1Password account secret key (A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX) and service-account token.
  rule(
    'ONEPASSWORD_SECRET',
    `${b}A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${e}`,
    { prefix: 3, anchor: near(anchor(['A3-']), 20) },
  ),
  rule('ONEPASSWORD_SECRET', `${b}ops_eyJ[A-Za-z0-9+/=_-]{250,}`, {
    prefix: 4,
    validate: base64JsonAfter(4),
    anchor: near(anchor(['ops_eyJ']), 20),
  }),
  rule('ADOBE_CLIENT_SECRET', `${b}p8e-[A-Za-z0-9-]{32}${e}`, {
    prefix: 4,
    anchor: near(anchor(['p8e-']), 20),
  }),
  rule('ALIBABA_ACCESS_KEY_ID', `${b}LTAI[A-Za-z0-9]{20}${e}`, {
    prefix: 4,
    anchor: near(anchor(['LTAI']), 20),
  }),
  rule('HASHICORP_TF_TOKEN', `${b}[A-Za-z0-9]{14}\\.atlasv1\\.${upTo('[A-Za-z0-9_=-]', 60, 70)}`, {
    more: readOn('[A-Za-z0-9_=-]'),
    anchor: near(anchor(['.atlasv1.'], 14, 14), 20),
  }),
  rule('VAULT_TOKEN', `${b}hv[sbr]\\.${upTo(tokenChar, 90, 300)}`, {
    prefix: 4,
    more: readOn(tokenChar),
    anchor: near(anchor(['hvs.', 'hvb.', 'hvr.']), 20),
  }),
  rule('FACEBOOK_ACCESS_TOKEN', `${b}EAA${upTo('[A-Za-z0-9]', 100, 400)}`, {
    prefix: 3,
    more: readOn('[A-Za-z0-9]'),
    anchor: near(anchor(['EAA']), 20),
  }),
  rule('FACEBOOK_ACCESS_TOKEN', `${b}\\d{15,16}(?:\\||%7C)[A-Za-z0-9_-]{27}${e}`, {
    // `|` is common (tables, shell pipes): only one right after a digit can be
    // this token's, so the literals are a digit and `|` (found at each `|`
    // with a digit before it, without a hit per table border), starting one
    // character earlier than `|` would; `%7C` too must follow a digit.
    anchor: near(
      anchor(
        ['0|', '1|', '2|', '3|', '4|', '5|', '6|', '7|', '8|', '9|', '%7C'],
        14,
        16,
        startsWithDigit,
        (text, at) => {
          if (text.charCodeAt(at) !== 37) return true; // `d|`: the digit is part of the literal
          const before = text.charCodeAt(at - 1);
          return before >= 48 && before <= 57;
        },
      ),
      20,
    ),
  }),
  rule('FLYIO_TOKEN', `${b}FlyV1 fm[12][ar]?_[A-Za-z0-9+/=_-]{100,2000}`, {
    prefix: 11,
    more: /[A-Za-z0-9+/=_-]+/y,
    anchor: near(anchor(['FlyV1 fm']), 100, 6),
  }),
  rule('FLYIO_TOKEN', `${b}fo1_[A-Za-z0-9_-]{43}${e}`, {
    prefix: 4,
    anchor: near(anchor(['fo1_']), 20),
  }),
  rule('INTRA42_CLIENT_SECRET', `${b}s-s4t2(?:ud|af)-[a-f0-9]{64}${e}`, {
    prefix: 10,
    anchor: near(anchor(['s-s4t2']), 20),
  }),
  rule('MAPBOX_TOKEN', `${b}[ps]k\\.[A-Za-z0-9]{60}\\.[A-Za-z0-9]{22}${e}`, {
    prefix: 3,
    anchor: near(anchor(['pk.', 'sk.']), 20),
  }),
  rule('SENTRY_TOKEN', `${b}sntrys_eyJ[A-Za-z0-9+/=_-]{60,400}`, {
    prefix: 7,
    more: /[A-Za-z0-9+/=_-]+/y,
    validate: base64JsonAfter(7),
    anchor: near(anchor(['sntrys_eyJ']), 20),
  }),
  rule('SENTRY_TOKEN', `${b}sntryu_[a-f0-9]{64}${e}`, {
    prefix: 7,
    anchor: near(anchor(['sntryu_']), 20),
  }),
  rule('SOURCEGRAPH_TOKEN', `${b}sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}${e}`, {
    prefix: 4,
    anchor: near(anchor(['sgp_']), 20),
  }),
  rule('DYNATRACE_TOKEN', `${b}dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}${e}`, {
    prefix: 7,
    anchor: near(anchor(['dt0c01.']), 20),
  }),
  // A first part past 40 (cut there when a second part follows) or a second past 86: read on.
  rule(
    'YANDEX_TOKEN',
    `${b}t1\\.(?:[A-Za-z0-9_-]{2,40}={0,2}\\.[A-Za-z0-9_-]{86}={0,2}|[A-Za-z0-9_-]{40}(?=[A-Za-z0-9_-]+={0,2}\\.[A-Za-z0-9_-]{86}))`,
    {
      prefix: 3,
      more: /[A-Za-z0-9_=-]+(?:\.[A-Za-z0-9_-]{86,}={0,2})?/y,
      anchor: near(anchor(['t1.']), 20),
    },
  ),
  rule('EASYPOST_TOKEN', `${b}EZ[AT]K[A-Za-z0-9]{54}${e}`, {
    prefix: 4,
    anchor: near(anchor(['EZAK', 'EZTK']), 20),
  }),
  rule('ARTIFACTORY_TOKEN', `${b}AKCp[A-Za-z0-9]{69}${e}`, {
    prefix: 4,
    anchor: near(anchor(['AKCp']), 20),
  }),
  rule('ARTIFACTORY_TOKEN', `${b}cmVmd[A-Za-z0-9]{59}${e}`, {
    prefix: 5,
    anchor: near(anchor(['cmVmd']), 20),
  }),
  rule('INFRACOST_TOKEN', `${b}ico-[A-Za-z0-9]{32}${e}`, {
    prefix: 4,
    anchor: near(anchor(['ico-']), 20),
  }),
  // Sidekiq Pro/Enterprise gem credentials: `BUNDLE_…__CONTRIBSYS__COM=user:password`.
  rule(
    'SIDEKIQ_SECRET',
    `BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["']?\\s{0,3}[:=]\\s{0,3}["']?([a-f0-9]{8}:[a-f0-9]{8})${e}`,
    { group: 1, anchor: near(anchor(['BUNDLE_']), 17, 43, true) },
  ),
  rule('BASIC_AUTH_URL', `\\bhttps?://[^\\s:/@"']{1,64}:${urlPassword(3)}`, {
    group: 1,
    more: urlPasswordRest,
    anchor: anchor(['://'], 4, 5, (text, start) => text[start] === 'h'),
  }),
  rule(
    'AUTHORIZATION_HEADER',
    '(?:Authorization|authorization|AUTHORIZATION)["\']?\\s{0,2}:\\s{0,2}(?:(?:Basic|Bearer|Token|token|bearer|basic)\\s{1,3})?([A-Za-z0-9+/=._~-]{8,4000})',
    {
      group: 1,
      anchor: anchor(['uthorization', 'UTHORIZATION'], 1, 1),
      more: /[A-Za-z0-9+/=._~-]+/y,
    },
  ),
  // `curl -u user:password` / `--user`, on the curl line or a continuation line.
  rule(
    'CURL_USER',
    `(?:curl\\b(?:[^\\n]|\\\\\\r?\\n){0,300}?\\s)(?:-u|--user)\\s{1,3}["']?[^\\s:"']{0,64}:([^\\s"']{3,128})`,
    // Anchored on the flag (`-u`, also in `--user`): 5 to 906 characters in
    // (`curl`, up to 300 characters or escaped line breaks, a blank), where
    // `curl` is common in text about HTTP and the flag is rare.
    {
      group: 1,
      more: flagValueRest,
      anchor: {
        ...anchor(
          ['-u'],
          5,
          906,
          (text, start) => text.charCodeAt(start) === 99, // c
          // After a blank: `-u`, or `--user`'s second `-`.
          (text, at) => isBlankCode(text.charCodeAt(at - 1)) || text.startsWith('--user', at - 1),
        ),
        contains: ['curl'],
      },
    },
  ),
  // CLI flags: `--password VALUE`, `--token VALUE` (`--password=VALUE` is an
  // assignment), `sshpass -p VALUE`, and MySQL's attached `-pVALUE` (its
  // `-p VALUE` prompts and names a database, so only the attached form counts).
  // Round 47: so does MySQL's `--password DB` (no `=`): not after a MySQL command on its line.
  rule(
    'GENERIC_SECRET',
    `(?<![\\w-])(?<!(?<![\\w-])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)[ \\t][^\\n]{0,200})--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token|access-token|private-key-passphrase)[ \\t]{1,3}["']?([^\\s"'\\-][^\\s"']{3,127})`,
    {
      group: 1,
      more: flagValueRest,
      anchor: anchor([
        '--pass',
        '--token',
        '--api',
        '--secret',
        '--client-secret',
        '--auth-token',
        '--access-token',
        '--private-key-pass',
      ]),
    },
  ),
  rule(
    'GENERIC_SECRET',
    `(?<![\\w-])sshpass[ \\t]{1,3}-p[ \\t]{0,3}["']?([^\\s"'\\-][^\\s"']{3,127})`,
    {
      group: 1,
      more: flagValueRest,
      anchor: {
        ...anchor(
          ['-p'],
          8,
          10,
          (text, start) => text.charCodeAt(start) === 115, // s
          // `sshpass` and one to three blanks before it.
          (text, at) =>
            isBlankCode(text.charCodeAt(at - 1)) &&
            (text.startsWith('sshpass', at - 8) ||
              text.startsWith('sshpass', at - 9) ||
              text.startsWith('sshpass', at - 10)),
        ),
        contains: ['sshpass'],
      },
    },
  ),
  rule(
    'GENERIC_SECRET',
    `(?<![\\w-])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\\b[^\\n]{0,200}?[ \\t]-p["']?([^\\s"'\\-][^\\s"']{3,127})`,
    // Anchored on `-p`, 6 to 213 characters in (a name, up to 200 characters, a blank).
    {
      group: 1,
      more: flagValueRest,
      anchor: {
        ...anchor(
          ['-p'],
          6,
          213,
          (text, start) => text.charCodeAt(start) === 109, // m
          (text, at) => isBlankCode(text.charCodeAt(at - 1)),
        ),
        contains: ['mysql', 'mariadb'],
      },
    },
  ),
  // XML elements: `<password>VALUE</password>`, `<apiKey>VALUE</apiKey>`. A
  // value past 200 characters (its first 201 with no blank: not prose after
  // a `<password>` placeholder) matches cut there and `more` reads it to the
  // next `<` or line break (round 31: it did not match and reached the model).
  rule(
    'GENERIC_SECRET',
    `<(${xmlSecretElements.join('|')})>(?=[^<\\s]{201}|[^<\\n]{4,200}</\\1>)([^<\\n]{4,200})`,
    {
      group: 2,
      more: /[^<\n]+/y,
      // Tried only where a name can start: `<` and the first letter of one.
      anchor: anchor(['<'], 0, 0, undefined, (text, at) => xmlSecretInitials.has(text[at + 1]!)),
    },
  ),
  // Round 46 (issue 17): a Terraform/HCL variable named for a secret, its value
  // as the `default` of its block (`variable "db_pass" { default = "…" }`); the
  // block's other settings (`type`, `description`, `sensitive`) before it, no
  // nested block. A blind fixture's miss: `password = "…"` was found, this not.
  rule(
    'GENERIC_SECRET',
    `(?<![A-Za-z0-9_])variable[ \\t]{1,3}"[A-Za-z0-9_-]{0,40}${anyCase('(?:passw(?:or)?d|pass|pwd|secret|token|api[_-]?key|private[_-]?key|credential)')}[A-Za-z0-9_-]{0,30}"[ \\t]{0,3}\\{[^{}]{0,300}?(?<![A-Za-z0-9_])default[ \\t]{0,20}=[ \\t]{0,3}"([^"\\n\\\\]{4,200})"`,
    {
      group: 1,
      // The value judged as an assignment's (`secret = "…"`): a TTL, a path, a word is none.
      validate: value => judgeSecretValue(value, 'secret', false) === 'secret',
      // The keyword (lower case in HCL), its blanks and the name's quote: a literal of lower-case
      // letters only would be looked for by the common literals' regex pass over all text.
      anchor: anchor(['variable "', 'variable  "', 'variable   "', 'variable\t"']),
    },
  ),
  rule('OPENSHIFT_TOKEN', `${b}sha256~[A-Za-z0-9_-]{43}${e}`, {
    prefix: 7,
    anchor: near(anchor(['sha256~']), 20),
  }),
  rule('HEROKU_API_KEY', `${b}HRKU-AA[A-Za-z0-9_-]{58}${e}`, {
    prefix: 7,
    anchor: near(anchor(['HRKU-AA']), 20),
  }),
  // Legacy workspace tokens: short, `xoxa-` / `xoxr-` with an optional digit part.
  rule('SLACK_TOKEN', `${b}xox[ar]-(?:\\d-)?[A-Za-z0-9]{8,48}${e}`, {
    prefix: 5,
    anchor: anchor(['xox']),
  }),
  // Round 46 (issue 17): providers with a prefix of their own and no rule before
  // (a blind fixture's misses). Postman API keys: `PMAK-`, 24 and 34 hex digits.
  rule('POSTMAN_API_KEY', `${b}PMAK-[a-f0-9]{24}-[a-f0-9]{34}${e}`, {
    prefix: 5,
    anchor: near(anchor(['PMAK-']), 64),
  }),
  // Notion integration tokens since 2024: `ntn_`, 11 digits and 35 letters or digits.
  rule('NOTION_TOKEN', `${b}ntn_\\d{11}[A-Za-z0-9]{35}${e}`, {
    prefix: 4,
    anchor: near(anchor(['ntn_']), 50),
  }),
  // Airtable personal access tokens: `pat`, a 14-character id, `.` and 64 hex digits.
  // No `prefix`: `pat` starts many words, so the glued reading (prefixed rules) does not look for it.
  rule('AIRTABLE_TOKEN', `${b}pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}${e}`, {
    anchor: near(anchor(['pat']), 82),
  }),
  // Discord webhook URLs: the webhook's id and its 68-character token (the URL is the credential).
  rule(
    'DISCORD_WEBHOOK',
    `https?://(?:(?:ptb|canary)\\.)?discord(?:app)?\\.com/api/webhooks/\\d{17,20}/${upTo(tokenChar, 60, 68)}`,
    { more: readOn(tokenChar), anchor: near(anchor(['/api/webhooks/'], 18, 29), 20) },
  ),
];

/**
 * The spellings of a provider name as a key prefix: as given, lower case,
 * upper case and capitalised (`snyk`, `SNYK`, `Snyk`).
 */
function spellings(names: readonly string[]): string[] {
  const all = new Set<string>();
  for (const name of names) {
    all.add(name);
    all.add(name.toLowerCase());
    all.add(name.toUpperCase());
    all.add(name[0]!.toUpperCase() + name.slice(1).toLowerCase());
  }
  return [...all];
}

/**
 * A provider whose tokens have no prefix of their own, recognised by its
 * name in the key (`SNYK_TOKEN = "…"`, `sonar.login: …`, `"confluent_token":
 * "…"`, `telegram bot: …`), as gitleaks does: the name, up to 20 key
 * characters, an assignment operator of any config format (`=`, `:`, `:=`,
 * `::=`, `?=`, `=>`, `,`), an optional quote, then a value of the
 * provider's documented shape.
 */
function keyed(type: string, names: readonly string[], value: string, shortestValue: number): Rule {
  const words = spellings(names);
  // The value (printable, `shortestValue` or more characters) starts at most
  // 32 characters after the name: 20 of the key, a quote, 3 blanks, an
  // operator of up to 4, 3 blanks and a quote.
  const longestName = Math.max(...words.map(word => word.length));
  return rule(
    type,
    `(?<![A-Za-z0-9])(?:${words.join('|')})[A-Za-z0-9_. \t-]{0,20}?["']?[ \t]{0,3}(?::{1,3}=|\\?=|=>|=|:|,)[ \t]{0,3}["'\x60]?(${value})(?![A-Za-z0-9_-])`,
    { group: 1, anchor: near(anchor(words), shortestValue, longestName + 32, true) },
  );
}

const uuid = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * Providers recognised by their name in the key (see `keyed`): one entry
 * per provider, the value shapes from each provider's documentation as
 * gitleaks encodes them.
 */
const keyedRules: Rule[] = [
  keyed('SNYK_TOKEN', ['snyk'], uuid, 36),
  keyed('SONAR_TOKEN', ['sonar'], '(?:sq[apu]_)?[A-Za-z0-9]{40}', 40),
  keyed('SUMOLOGIC_SECRET', ['sumo'], 'su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}', 14),
  keyed('CONFLUENT_SECRET', ['confluent'], '[A-Za-z0-9]{64}|[A-Za-z0-9]{16}', 16),
  keyed('FASTLY_TOKEN', ['fastly'], '[A-Za-z0-9=_-]{32}', 32),
  keyed(
    'MESSAGEBIRD_TOKEN',
    ['messagebird', 'MessageBird', 'message_bird', 'message-bird'],
    `${uuid}|[A-Za-z0-9]{25}`,
    25,
  ),
  keyed('HUBSPOT_API_KEY', ['hubspot', 'HubSpot'], uuid, 36),
  keyed('HEROKU_API_KEY', ['heroku'], uuid, 36),
  keyed('TELEGRAM_BOT_TOKEN', ['telegram'], '[0-9]{5,16}:A[A-Za-z0-9_-]{34}', 41),
  // Mailgun's current API and webhook signing keys (32, 8 and 8 hex digits) and its public `pubkey-` key.
  keyed(
    'MAILGUN_API_KEY',
    ['mailgun'],
    '[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}|pubkey-[a-f0-9]{32}',
    39,
  ),
];

/** A value's last part of hex digits only and one length (`[a-fA-F0-9]{32}`), as a pattern source ends. */
const hexPartEnd = /\[(?:0-9|a-f|A-F)+\]\{\d+\}$/;

/**
 * Not hex digits to the token's end (a lookahead): a hex key read on is
 * no part of a longer run of hex digits. Linear: the run is read once per
 * match, backing off a digit at a time (each step one character's test).
 */
const longerHexRun = '(?![0-9a-fA-F]+(?![A-Za-z0-9_-]))';

/**
 * A prefixed rule of one length whose value ends in hex digits and at a
 * token's boundary (`shpat_` and 32, `dop_v1_` and 64, Twilio's `SK`,
 * Mailgun's `key-`), made to read on past that length as the AWS id does
 * (round 44): a letter after the key (`see shpat_…done`) failed the
 * boundary, no rule matched and the entropy reading found nothing, so the
 * key was released. A run of 32 or more hex digits is no word: what a
 * token character follows is the key and what was glued to it, read to
 * the token's end (`more`), as `see sk_live_…done` is. `exact` is its one
 * length (a string's end cuts it there, `split-array-strings.ts`) and
 * `joined` the rule as it was (pieces joined across blanks longer than
 * the key are no key, `split-prefix.ts`). A last part of letters or token
 * characters (`glft-` and 20) is left as it was: hyphenated words fill
 * such a length. Round 45: after `key-`, `SK` or `AC` what follows the key
 * is not more hex digits to the token's end (`longerHexRun`): a commit id or
 * a SHA-256 digest there (`restore key-<sha256>`) is a longer digest, no
 * key, as before round 44 (`digestAfterPrefix`).
 */
/**
 * The prefixes a digest is written after in ordinary text (`key-<sha1>`, a
 * cache key; `SK`/`AC` and 40 hex digits, a commit id): only these keys stop
 * short of a longer hex run. A provider prefix no digest follows (`shpat_`,
 * `dop_v1_`, `sntryu_`, `sgp_`) reads on through hex digits too, so one hex
 * digit glued after the key does not release it (round 45's second read).
 */
const digestAfterPrefix = /^(?:key-|SK|AC)\[/;

function readOnPastHex(rule: Rule): Rule {
  const { source, flags } = rule.pattern;
  if (rule.prefix === undefined || rule.more !== undefined || rule.group !== undefined) return rule;
  if (!source.startsWith(b) || !source.endsWith(e)) return rule;
  const body = source.slice(0, -e.length);
  if (!hexPartEnd.test(body)) return rule;
  return {
    ...rule,
    pattern: new RegExp(
      digestAfterPrefix.test(body.slice(b.length)) ? `${body}${longerHexRun}` : body,
      flags,
    ),
    more: readOn(tokenChar),
    exact: exactForm(body.slice(b.length)),
    joined: rule.pattern,
  };
}

/*
 * Round 47 (issue 17): config and command-line shapes whose key or flag names
 * a secret and no rule read (a held-out fixture's misses, then a blind one's):
 * `.netrc`, PHP `define`, a `['password'] = …` item, `htpasswd -b`, strings
 * in a JSON array under a secret key, a key named `auth` (`REDIS_AUTH=`,
 * `_auth=`), `docker login -p`, `redis-cli -a`. Each value is judged as an
 * assignment's (`judgedAs`): a placeholder, a variable, a word is none.
 */

/**
 * A word that says a name's value is a secret, in one of a name's cases
 * (`DB_PASSWORD`, `dbPassword`, `db_password`, `AUTH_SALT`), maybe plural, and
 * not the start of a longer word of that case (`passengers`, `AUTHOR`,
 * `reference_authority`: a corpus's look-alikes).
 */
const secretWords = 'passw(?:or)?d|pass|pwd|secret|token|api_?[kK]ey|auth|salt|credential';
const secretName = `(?:(?:${secretWords})s?(?![a-z])|(?:${secretWords.toUpperCase()})S?(?![A-Z])|(?:${secretWords.replace(
  /(^|\|)([a-z])/g,
  (_, bar: string, letter: string) => bar + letter.toUpperCase(),
)})s?(?![a-z]))`;
/** A value judged as the value of a key named `key`. */
const judgedAs = (key: string) => (value: string) =>
  judgeSecretValue(value, key, false) === 'secret';
/**
 * A quoted value (group), its closing quote (backreference `quote`); past 200
 * characters, its first 200 with more of it after them (`quotedValueRest`).
 */
const quotedValue = (quote: string) => `([^'"\\n\\\\]{4,200})(?:${quote}|(?=[^'"\\n\\\\]))`;
const quotedValueRest = /[^'"\n\\]+/y;
/** The code of the last character before `at` that is not a blank or line break (-1: none). */
function codeBefore(text: string, at: number): number {
  let index = at - 1;
  while (index >= 0 && index > at - 24 && isBlankCode(text.charCodeAt(index))) index--;
  return index >= 0 ? text.charCodeAt(index) : -1;
}
/** The characters of a command-line word (a file, a user, another flag's value). */
const cliWord = '[^\\s]{1,200}';

/**
 * Short words joined by `-` (`jwt-v2`, `oauth2-proxy`, `SCRAM-SHA-256`): under
 * a key named `auth`, the name of a method or mechanism, not a secret (round 47
 * review). A UUID's last part is 12 characters, so a UUID is still judged.
 */
const methodName = /^[A-Za-z0-9]{1,8}(?:-[A-Za-z0-9]{1,8})+$/;
const isMethodName = (value: string) => methodName.test(value);

const configRules: Rule[] = [
  // `.netrc`: `machine HOST login USER password VALUE` (or `default …`), on one line or several.
  rule(
    'GENERIC_SECRET',
    `(?<=(?<![\\w.-])(?:(?:machine|login|account)[ \\t]{1,20}${cliWord}|default)\\s{1,20})password[ \\t]{1,20}([^\\s]{4,128})`,
    {
      group: 1,
      more: flagValueRest,
      validate: judgedAs('password'),
      anchor: anchor(['password'], 0, 0, undefined, (text, at) =>
        isBlankCode(text.charCodeAt(at - 1)),
      ),
    },
  ),
  // PHP: `define('DB_PASSWORD', 'VALUE');` (WordPress's `AUTH_KEY`, `SECURE_AUTH_SALT`).
  rule(
    'GENERIC_SECRET',
    `(?<![\\w$>:-])define[ \\t]{0,3}\\([ \\t]{0,3}(['"])[A-Za-z0-9_]{0,40}${secretName}[A-Za-z0-9_]{0,30}\\1[ \\t]{0,3},[ \\t]{0,3}(['"])${quotedValue('\\2')}`,
    {
      group: 3,
      more: quotedValueRest,
      validate: judgedAs('secret'),
      anchor: anchor(['define(', 'define (', 'define  (']),
    },
  ),
  // An item named for a secret set by its key (`$config['db']['password'] = '…'`, `os.environ["API_TOKEN"] = "…"`).
  rule(
    'GENERIC_SECRET',
    `\\[(['"])[A-Za-z0-9_.-]{0,40}${secretName}[A-Za-z0-9_.-]{0,30}\\1\\][ \\t]{0,3}=(?![=>])[ \\t]{0,3}(['"])${quotedValue('\\2')}`,
    {
      group: 3,
      more: quotedValueRest,
      validate: judgedAs('secret'),
      anchor: anchor(['['], 0, 0, undefined, (text, at) => {
        const code = text.charCodeAt(at + 1);
        return code === 34 || code === 39; // a quote
      }),
    },
  ),
  // `htpasswd -b[c…] FILE USER VALUE` (with `-n`, `USER VALUE`): the password on the command line.
  rule(
    'GENERIC_SECRET',
    `(?<![\\w.-])htpasswd(?:[ \\t]{1,3}-[A-Za-z]{1,8}){0,3}[ \\t]{1,3}-[A-Za-z]{0,7}b[A-Za-z]{0,7}(?:[ \\t]{1,3}-[A-Za-z]{1,8}){0,3}(?:[ \\t]{1,3}[^\\s-]${cliWord}){1,2}[ \\t]{1,3}(["']?)([^\\s"'\\-|&;<>][^\\s"']{3,127})`,
    {
      group: 2,
      more: flagValueRest,
      validate: judgedAs('password'),
      anchor: anchor(['htpasswd']),
    },
  ),
  // A string in a JSON array under a key named for secrets (`"passwords": ["…", "…"]`), its first eight.
  rule(
    'GENERIC_SECRET',
    `(?<="[A-Za-z0-9_.-]{0,40}${secretName}[A-Za-z0-9_.-]{0,30}"[ \\t]{0,3}:[ \\t]{0,3}\\[(?:[ \\t\\r\\n]{0,20}"[^"\\\\\\n]{0,200}"[ \\t\\r\\n]{0,20},){0,7}[ \\t\\r\\n]{0,20})"([^"\\\\\\n]{4,200})"`,
    {
      group: 1,
      validate: judgedAs('secret'),
      anchor: {
        ...anchor(['"'], 0, 0, undefined, (text, at) => {
          const code = codeBefore(text, at);
          return code === 91 || code === 44; // `[` or `,`
        }),
        // For `secretsMayMatch`: the array's `[` before the match (a character that flags a text by itself).
        contains: ['['],
      },
    },
  ),
  // A key named `auth` or ending in one (`REDIS_AUTH=…`, npm's `_auth=…`, `"auth": "…"`).
  rule(
    'GENERIC_SECRET',
    `(?<![A-Za-z0-9])(?:auth|AUTH|Auth)["']?[ ]?(?::|=)(?!=)[ \\t]{0,3}(["'\`]?)([^\\s"'\`,;]{4,300})\\1(?![^\\s,;})\\]])`,
    {
      group: 2,
      validate: value => !isMethodName(value) && judgedAs('secret')(value),
      anchor: {
        ...anchor(spellings(['auth']), 0, 0, undefined, (text, at) => {
          const code = text.charCodeAt(at + 4);
          return code === 58 || code === 61 || code === 34 || code === 39 || code === 32;
        }),
        // For `secretsMayMatch`: the key and its colon (`=` flags a text by itself).
        contains: spellings(['auth']).flatMap(name =>
          ['', '"', "'"].flatMap(quote => [`${name}${quote}:`, `${name}${quote} :`]),
        ),
      },
    },
  ),
  // `docker login … -p VALUE` / `--password VALUE` (not `--password-stdin`).
  rule(
    'GENERIC_SECRET',
    `(?<![\\w-])docker[ \\t]{1,3}login(?:[ \\t]{1,3}${cliWord}){0,6}?[ \\t]{1,3}(?:-p|--password)(?:[ \\t]{1,3}|=)(["']?)([^\\s"'\\-][^\\s"']{3,127})`,
    {
      group: 2,
      more: flagValueRest,
      validate: judgedAs('password'),
      anchor: { ...anchor(['docker']), contains: ['docker'] },
    },
  ),
  // `redis-cli … -a VALUE` / `--pass VALUE`.
  rule(
    'GENERIC_SECRET',
    `(?<![\\w-])redis-cli(?:[ \\t]{1,3}${cliWord}){0,6}?[ \\t]{1,3}(?:-a|--pass)[ \\t]{1,3}(["']?)([^\\s"'\\-][^\\s"']{3,127})`,
    {
      group: 2,
      more: flagValueRest,
      validate: judgedAs('password'),
      anchor: anchor(['redis-cli']),
    },
  ),
];

/*
 * Round 47 (hN, issue 17): Grafana's tokens. A Cloud access policy token is
 * `glc_` and the standard base64 (`+`, `/`, `=` padding) of a JSON object;
 * no rule read it, and the entropy reading ends a run at `=` before it
 * (`GRAFANA_CLOUD=glc_…+…/…` was missed). A service account token is
 * `glsa_`, 32 letters or digits, `_` and an 8-hex-digit checksum.
 */
const base64Char = '[A-Za-z0-9+/]';
const grafanaRules: Rule[] = [
  // 32 to 400 base64 characters and their padding; past 400, read on to the token's end.
  rule(
    'GRAFANA_TOKEN',
    `(?<![A-Za-z0-9_+/-])glc_(?:${base64Char}{400}(?=${base64Char}|[=_-])|${base64Char}{32,400}={0,2}(?![A-Za-z0-9+/=_-]))`,
    {
      prefix: 4,
      more: readOn('[A-Za-z0-9+/=]'),
      // Random base64 mixes cases and digits; a path (`glc_dir/sub/…`) rarely does.
      validate: value => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value),
      anchor: near(anchor(['glc_']), 36),
    },
  ),
  rule('GRAFANA_TOKEN', `${b}glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}${e}`, {
    prefix: 5,
    anchor: near(anchor(['glsa_']), 46),
  }),
];

/*
 * Round 47 (hN, issue 17): a password noted in a comment, `# password VALUE`
 * (a blind fixture's SSH config: `ssh_config` has no password setting, so a
 * host's password is written in a comment beside it, as in shell scripts,
 * INI and YAML files). The comment's first word names a password and one
 * word follows it to the line's end; `# password: VALUE` is an assignment's.
 * The word must hold a letter and a digit or symbol (prose after the word,
 * `# Password Authentication`, is none) and is judged as a password.
 */
const commentPasswordWords = spellings(['password', 'passwd', 'passphrase', 'pwd']);
const commentPasswordRule = rule(
  'GENERIC_SECRET',
  `(?<=(?:^|\\n)[ \\t]{0,20}#[ \\t]{0,3})(?:${commentPasswordWords.join('|')})[ \\t]{1,3}([^\\s:=]\\S{127}(?=\\S)|[^\\s:=]\\S{5,127}(?=[ \\t]{0,20}(?:\\r?\\n|$)))`,
  {
    group: 1,
    more: /\S+/y,
    validate: value =>
      /[A-Za-z]/.test(value) && /[^A-Za-z]/.test(value) && judgedAs('password')(value),
    anchor: anchor(commentPasswordWords, 0, 0, undefined, isCommentsFirstWord),
  },
);

/** Whether the word at `at` is a `#` comment's first, the comment its line's first thing. */
function isCommentsFirstWord(text: string, at: number): boolean {
  let index = at - 1;
  while (index >= 0 && at - index <= 3 && isSpaceOrTab(text.charCodeAt(index))) index--;
  if (text.charCodeAt(index) !== 35) return false; // `#`
  const hash = index--;
  while (index >= 0 && hash - index <= 20 && isSpaceOrTab(text.charCodeAt(index))) index--;
  return index < 0 || text.charCodeAt(index) === 10;
}
const isSpaceOrTab = (code: number) => code === 32 || code === 9;

/** Every provider rule: the prefixed formats, the keyed ones, the config shapes, then Grafana's. */
export const providerRules: Rule[] = [
  ...prefixedRules.map(readOnPastHex),
  ...keyedRules,
  ...configRules,
  ...grafanaRules,
  commentPasswordRule,
];

/** Prefixes whose tokens are judged by their provider rule alone, never by the entropy detector. */
export const knownPrefix =
  /^(?:sk-|sk_|rk_|pk_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|gl[a-z]{2,6}-|GR1348941|xox|xapp-|AIza|AKIA|ASIA|ABSK|bedrock-api-key-|npm_|pypi-|hf_|api_org_|eyJ|SG\.|sntry[su]_|sgp_|hv[sbr]\.|ops_|ico-|LTAI|EAA|fo1_|fm[12]|do[opr]_v1_|shp[a-z]{2}_|sq0|AGE-SECRET|p8e-|s-s4t2|dt0c01\.|EZ[AT]K|AKCp|cmVmd|HRKU-|glc_|glsa_)/;
