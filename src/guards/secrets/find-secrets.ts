import { GuardrailConfigError } from '../../core/errors';
import { shannonEntropy } from '../shared/checksums';
import { normalizeText } from '../shared/normalize-text';
import { type DetectedSpan, type RankedSpan, resolveOverlaps } from '../shared/spans';

/** One secret match: its type and `[start, end)` offsets into the original text. */
export type SecretSpan = DetectedSpan;

/** Options of `findSecrets`. */
export interface FindSecretsOptions {
  /** Report `password=` / `api_key:` style assignments. Default true. */
  assignments?: boolean;
  /** Report long random-looking tokens with no known format. Default true. */
  entropy?: boolean;
  /** Minimum Shannon entropy (bits per character) for the entropy detector. Default 4.5. */
  entropyThreshold?: number;
  /** Minimum token length for the entropy detector. Default 24. */
  entropyMinLength?: number;
}

interface Rule {
  type: string;
  pattern: RegExp;
  /** Capture group holding the secret; the whole match when absent. */
  group?: number;
  /** Longest match, for stream windows. */
  maxLength: number;
}

const b = '(?<![A-Za-z0-9_-])';
const e = '(?![A-Za-z0-9_-])';
const rule = (type: string, source: string, maxLength: number, group?: number): Rule => ({
  type,
  pattern: new RegExp(source, 'g'),
  maxLength,
  group,
});

/** Known provider formats. Each is specific enough to need no entropy check. */
const providerRules: Rule[] = [
  rule('ANTHROPIC_API_KEY', `${b}sk-ant-(?:api|admin|sid)\\d{2}-[A-Za-z0-9_-]{20,120}${e}`, 140),
  rule('OPENAI_API_KEY', `${b}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,200}${e}`, 220),
  rule('AWS_ACCESS_KEY_ID', `${b}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}${e}`, 20),
  rule(
    'AWS_SECRET_ACCESS_KEY',
    `(?:aws|AWS)[\\w.-]{0,20}(?:secret|SECRET|Secret|access_key|ACCESS_KEY)[\\w.-]{0,20}["']?\\s{0,3}[:=]{1,2}>?\\s{0,3}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`,
    120,
    1,
  ),
  rule('AWS_BEDROCK_API_KEY', `${b}(?:ABSK|bedrock-api-key-)[A-Za-z0-9+/=_-]{32,400}`, 420),
  rule(
    'GITHUB_TOKEN',
    `${b}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{80,90})${e}`,
    260,
  ),
  rule(
    'GITLAB_TOKEN',
    `${b}(?:glpat|glrt|gldt|glptt|glsoat|glcbt|glimt|glagent|gloas|glffct|glft)-[A-Za-z0-9_.-]{20,80}${e}`,
    100,
  ),
  rule('GITLAB_TOKEN', `${b}GR1348941[A-Za-z0-9_-]{20}${e}`, 29),
  rule('SLACK_TOKEN', `${b}xox[abposre]-[A-Za-z0-9-]{10,250}`, 260),
  rule('SLACK_TOKEN', `${b}xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]{20,80}`, 120),
  rule(
    'SLACK_WEBHOOK',
    'https?://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,120}',
    160,
  ),
  rule('STRIPE_KEY', `${b}(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}${e}`, 110),
  rule('GOOGLE_API_KEY', `${b}AIza[0-9A-Za-z_-]{35}${e}`, 39),
  rule('AZURE_AD_CLIENT_SECRET', `${b}[a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.-]{31,34}${e}`, 40),
  rule('AZURE_STORAGE_KEY', 'AccountKey=([A-Za-z0-9+/]{86}==)', 100, 1),
  rule('TWILIO_API_KEY', `${b}SK[0-9a-fA-F]{32}${e}`, 34),
  rule('SENDGRID_API_KEY', `${b}SG\\.[A-Za-z0-9_-]{20,24}\\.[A-Za-z0-9_-]{39,50}${e}`, 80),
  rule('NPM_TOKEN', `${b}npm_[A-Za-z0-9]{36}${e}`, 40),
  rule('PYPI_TOKEN', `${b}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}`, 1020),
  rule('HUGGINGFACE_TOKEN', `${b}(?:hf_|api_org_)[A-Za-z]{34}${e}`, 42),
  rule(
    'JWT',
    `${b}eyJ[A-Za-z0-9_-]{10,2000}\\.eyJ[A-Za-z0-9_-]{10,4000}(?:\\.[A-Za-z0-9_-]{0,1000})?`,
    7000,
  ),
  rule(
    'PRIVATE_KEY',
    '-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\\s\\S]{0,8000}?-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----)?',
    8200,
  ),
  rule(
    'DATABASE_URL_PASSWORD',
    '\\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|jdbc:[a-z]{2,12}|clickhouse|cockroachdb|ftp|sftp|smtp)://[^\\s:/@"\']{1,64}:([^\\s@/"\']{1,128})@[^\\s/"\']{1,255}',
    520,
    1,
  ),
  rule(
    'DISCORD_TOKEN',
    `${b}[MNO][A-Za-z0-9_-]{23,25}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}${e}`,
    72,
  ),
  rule('TELEGRAM_BOT_TOKEN', `${b}\\d{8,10}:AA[A-Za-z0-9_-]{33}${e}`, 46),
  rule('SHOPIFY_TOKEN', `${b}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${e}`, 38),
  rule('SQUARE_TOKEN', `${b}(?:EAAA|sq0atp-|sq0csp-)[A-Za-z0-9_-]{22,60}${e}`, 66),
  rule('MAILCHIMP_API_KEY', `${b}[0-9a-f]{32}-us\\d{1,2}${e}`, 37),
  rule('DIGITALOCEAN_TOKEN', `${b}do[opr]_v1_[a-f0-9]{64}${e}`, 71),
  rule('AGE_SECRET_KEY', `${b}AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}${e}`, 74),
  rule(
    'BASIC_AUTH_URL',
    '\\bhttps?://[^\\s:/@"\']{1,64}:([^\\s@/"\']{3,128})@[^\\s/"\']{1,255}',
    520,
    1,
  ),
  rule(
    'AUTHORIZATION_HEADER',
    '(?:Authorization|authorization|AUTHORIZATION)["\']?\\s{0,2}:\\s{0,2}(?:Basic|Bearer|Token|token|bearer|basic)\\s{1,3}([A-Za-z0-9+/=._~-]{8,2000})',
    2100,
    1,
  ),
  rule(
    'CURL_USER',
    `(?:curl\\b[^\\n]{0,200}?\\s)(?:-u|--user)\\s{1,3}["']?[^\\s:"']{1,64}:([^\\s"']{3,128})`,
    420,
    1,
  ),
];

const keywords =
  '(?:api[_.-]?key|apikey|api[_.-]?token|secret|token|passw(?:or)?d|pwd|pass|auth[_.-]?key|credential|access[_.-]?key|private[_.-]?key|client[_.-]?secret|signing[_.-]?key|encryption[_.-]?key|session[_.-]?key|webhook[_.-]?url|dsn|login)';
// identifier containing a keyword, an assignment operator, then a quoted or bare value
const assignment = new RegExp(
  `(?<![A-Za-z0-9])([A-Za-z0-9_.-]{0,40}${keywords}[A-Za-z0-9_.-]{0,30})["']?\\s{0,3}(?::=|=>|=|:|\\s)\\s{0,3}(["'\`]?)([^\\s"'\`,;)}\\]]{4,300})\\2`,
  'gi',
);

const placeholderValue =
  /^(?:x+|\*+|\.+|-+|_+|#+|0+|true|false|null|nil|none|undefined|yes|no|on|off|required|optional|string|text|value|changeme|change_?me|password|secret|token|redacted|hidden|example|sample|test|dummy|placeholder|your[_-]?.*|my[_-]?.*|insert[_-].*|replace[_-]?.*|todo|tbd|<[^>]*>|\$\{.*\}?|\$\(.*\)|\{\{.*\}\}|%\(.*\)s?|%s|\$[A-Za-z_][A-Za-z0-9_]*|process\.env\..*|os\.environ.*|env\(.*|getenv.*|[A-Za-z_][\w.]*\(.*)$/i;

function looksLikeSecretValue(value: string): boolean {
  if (placeholderValue.test(value)) return false;
  if (/^(.)\1+$/.test(value)) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(value)) return false; // member access
  if (/@/.test(value) && /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/.test(value)) return false; // an email
  if (/^(?:https?:)?\/\//.test(value) && !/:[^/@]+@/.test(value)) return false; // a plain URL
  if (/^[./~]/.test(value) || /\.(?:json|ya?ml|pem|txt|key|env|cfg|conf|ini|crt)$/i.test(value))
    return false; // a path or file name
  if (/^[a-z]+(?:[-_ ][a-z]+)*$/.test(value) && value.length < 20) return false; // plain words
  if (/^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*(?:[-_.]?\d+(?:\.\d+)*)?$/.test(value)) return false; // CamelCase name, maybe versioned
  if (/^\d{1,7}$/.test(value)) return false; // small numbers (ports, counts)
  return value.length >= 6;
}

const entropyCandidate = /(?<![A-Za-z0-9+/_=.-])[A-Za-z0-9+/_=-]{20,512}(?![A-Za-z0-9+/_=-])/g;
const uuidLike = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * True when a token is random enough to be a credential and not one of the
 * common random-looking non-secrets: hex digests (git SHAs, checksums),
 * UUIDs, lockfile integrity hashes and base64 payloads (images, data).
 */
function entropyCandidateIsSecret(
  token: string,
  before: string,
  threshold: number,
  minLength: number,
): boolean {
  if (token.length < minLength || token.length > 200) return false; // longer: a data payload
  if (/^[0-9a-fA-F]+$/.test(token)) return false; // hex: SHAs, digests, ids
  if (uuidLike.test(token)) return false;
  if (/(?:sha(?:1|256|384|512)-|integrity|base64,|checksum|hash|digest|sum)\W{0,4}$/i.test(before))
    return false;
  if (/data:[\w/+.-]+;base64,[A-Za-z0-9+/=]*$/.test(before)) return false;
  const hasLower = /[a-z]/.test(token);
  const hasUpper = /[A-Z]/.test(token);
  const hasDigit = /\d/.test(token);
  if (!(hasLower && hasUpper && hasDigit)) return false;
  if (/^[A-Za-z]+(?:[-_/][A-Za-z]+)+$/.test(token)) return false; // words-joined-by-dashes
  return shannonEntropy(token) >= threshold;
}

/** The longest original text a secret can span (after normalisation), for stream windows. */
export const secretsMaxMatchLength = Math.max(...providerRules.map(rule => rule.maxLength), 512);

/**
 * Finds credentials in `text` and returns `[{ type, start, end }]`, offsets
 * into the original text (end exclusive), in order and never overlapping.
 * Known provider formats first, then `key = value` assignments whose value
 * is not a placeholder, then (optionally) high-entropy tokens that are not
 * hex digests, UUIDs, lockfile hashes or base64 payloads. Linear time: every
 * pattern has bounded quantifiers.
 *
 * @example
 * findSecrets('OPENAI_API_KEY=sk-proj-abc...'); // [{ type: 'OPENAI_API_KEY', start: 15, end: ... }]
 */
export function findSecrets(
  text: string,
  {
    assignments = true,
    entropy = true,
    entropyThreshold = 4.5,
    entropyMinLength = 24,
  }: FindSecretsOptions = {},
): SecretSpan[] {
  if (!(Number.isFinite(entropyThreshold) && entropyThreshold > 0)) {
    throw new GuardrailConfigError({
      path: 'secrets.entropyThreshold',
      value: entropyThreshold,
      expected: 'a positive number of bits per character (4.5 by default)',
    });
  }
  const normalized = normalizeText(text);
  const source = normalized.text;
  const candidates: RankedSpan[] = [];
  for (const { type, pattern, group } of providerRules) {
    for (const match of source.matchAll(pattern)) {
      const value = group === undefined ? match[0] : match[group];
      if (value === undefined || value.length === 0) continue;
      if (group !== undefined && placeholderValue.test(value)) continue;
      const start = match.index + (group === undefined ? 0 : match[0].lastIndexOf(value));
      candidates.push({ type, start, end: start + value.length, priority: 3 });
    }
  }
  if (assignments) {
    for (const match of source.matchAll(assignment)) {
      const value = match[3]!;
      if (!looksLikeSecretValue(value)) continue;
      const start = match.index + match[0].lastIndexOf(value);
      candidates.push({ type: 'GENERIC_SECRET', start, end: start + value.length, priority: 2 });
    }
  }
  if (entropy) {
    for (const match of source.matchAll(entropyCandidate)) {
      const before = source.slice(Math.max(0, match.index - 40), match.index);
      if (!entropyCandidateIsSecret(match[0], before, entropyThreshold, entropyMinLength)) continue;
      candidates.push({
        type: 'HIGH_ENTROPY_STRING',
        start: match.index,
        end: match.index + match[0].length,
        priority: 1,
      });
    }
  }
  return resolveOverlaps(candidates).map(span => ({
    type: span.type,
    ...normalized.toOriginalSpan(span.start, span.end),
  }));
}
