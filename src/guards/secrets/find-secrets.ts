import { validateOptionsOnce } from '../../core/options';
import {
  anchoredMatcher,
  forEachOccurrence,
  type LiteralFinder,
  literalFinder,
  stickyPattern,
} from '../shared/anchored-scan';
import { shannonEntropy } from '../shared/checksums';
import { normalizeText } from '../shared/normalize-text';
import { type DetectedSpan, type RankedSpan, resolveOverlaps } from '../shared/spans';
import { isPlaceholderValue } from './placeholder';
import { findSecretsOptionShape } from './secrets-options';

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
  /**
   * Also report values that look like examples or placeholders
   * (`AKIA…EXAMPLE`, `ghp_xxxx…`, `abcd1234abcd1234…`, see
   * `isPlaceholderValue`). Default false: documentation and templates pass.
   */
  reportPlaceholders?: boolean;
}

interface Rule {
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
interface Anchor {
  literals: readonly string[];
  min: number;
  max: number;
  start?: (text: string, start: number) => boolean;
  /** A cheap test of a literal's occurrence (at its start) before it counts as a hit. */
  hit?: (text: string, at: number) => boolean;
}

function anchor(
  literals: readonly string[],
  min = 0,
  max = min,
  start?: (text: string, start: number) => boolean,
  hit?: (text: string, at: number) => boolean,
): Anchor {
  return { literals, min, max, start, hit };
}

const startsWithDigit = (text: string, start: number) => {
  const code = text.charCodeAt(start);
  return code >= 48 && code <= 57;
};
const startsWithMNO = (text: string, start: number) => {
  const code = text.charCodeAt(start);
  return code >= 77 && code <= 79; // M, N, O
};
const startsWithLowerCase = (text: string, start: number) => {
  const code = text.charCodeAt(start);
  return code >= 97 && code <= 122;
};

const b = '(?<![A-Za-z0-9_-])';
const e = '(?![A-Za-z0-9_-])';
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

// Texts repeat a handful of JWT headers: remember the verdict for each.
const jwtHeaderVerdicts = new Map<string, boolean>();

/** A JWT's first segment must decode to a JSON object (its header), as RFC 7519 requires. */
function jwtHeaderIsJson(token: string): boolean {
  const segment = token.slice(0, token.indexOf('.'));
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

/** A PEM match holds key material (a base64 line of 20+ characters that is not a placeholder) or runs to the end of the text. */
function pemHasKeyMaterial(value: string, matchEnd: number, textLength: number): boolean {
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
const providerRules: Rule[] = [
  // Anthropic keys: `sk-ant-api03-` / `sk-ant-admin01-`, 93 characters, then `AA`.
  rule('ANTHROPIC_API_KEY', `${b}sk-ant-(?:api|sid)\\d{2}-[A-Za-z0-9_-]{93}AA${e}`, {
    prefix: 13,
    anchor: anchor(['sk-ant-api', 'sk-ant-sid']),
  }),
  rule('ANTHROPIC_ADMIN_KEY', `${b}sk-ant-admin\\d{2}-[A-Za-z0-9_-]{93}AA${e}`, {
    prefix: 15,
    anchor: anchor(['sk-ant-admin']),
  }),
  rule(
    'OPENAI_API_KEY',
    `${b}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200}${e}`,
    { prefix: 3, anchor: anchor(['sk-']) },
  ),
  rule('OPENAI_API_KEY', `${b}sk-(?:proj-|svcacct-|admin-)[A-Za-z0-9_-]{20,200}${e}`, {
    prefix: 8,
    anchor: anchor(['sk-']),
  }),
  rule('OPENAI_API_KEY', `${b}sk-[A-Za-z0-9]{48}${e}`, { prefix: 3, anchor: anchor(['sk-']) }),
  rule('AWS_ACCESS_KEY_ID', `${b}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}${e}`, {
    prefix: 4,
    anchor: anchor(['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T']),
  }),
  rule(
    'AWS_SECRET_ACCESS_KEY',
    `(?:aws|AWS)[\\w.-]{0,20}(?:secret|SECRET|Secret|access_key|ACCESS_KEY)[\\w.-]{0,20}["']?\\s{0,3}[:=]{1,2}>?\\s{0,3}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`,
    { group: 1, anchor: anchor(['aws', 'AWS']) },
  ),
  rule('AWS_BEDROCK_API_KEY', `${b}ABSK[A-Za-z0-9+/=]{100,400}`, {
    prefix: 4,
    anchor: anchor(['ABSK']),
  }),
  rule(
    'AWS_BEDROCK_API_KEY',
    `${b}bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=_-]{20,2000}`,
    {
      prefix: 16,
      anchor: anchor(['bedrock-api-key-']),
    },
  ),
  rule('GITHUB_TOKEN', `${b}gh[pousr]_[A-Za-z0-9]{36}${e}`, {
    prefix: 4,
    anchor: anchor(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']),
  }),
  rule('GITHUB_TOKEN', `${b}github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}${e}`, {
    prefix: 11,
    anchor: anchor(['github_pat_']),
  }),
  // GitLab: the documented lengths of each token kind; routable tokens carry `.` and a 9-character suffix.
  rule('GITLAB_TOKEN', `${b}(?:glpat|glrt)-[A-Za-z0-9_-]{27,300}\\.[0-9a-z]{9}${e}`, {
    prefix: 6,
    anchor: anchor(['glpat-', 'glrt-']),
  }),
  rule('GITLAB_TOKEN', `${b}(?:glpat|gldt|glrt|glcbt|glffct|glft|glsoat)-[A-Za-z0-9_-]{20}${e}`, {
    prefix: 6,
    anchor: anchor(['glpat-', 'gldt-', 'glrt-', 'glcbt-', 'glffct-', 'glft-', 'glsoat-']),
  }),
  rule('GITLAB_TOKEN', `${b}glsoat-[A-Za-z0-9_-]{50}${e}`, {
    prefix: 7,
    anchor: anchor(['glsoat-']),
  }),
  rule('GITLAB_TOKEN', `${b}glptt-[A-Za-z0-9_-]{40}${e}`, {
    prefix: 6,
    anchor: anchor(['glptt-']),
  }),
  rule('GITLAB_TOKEN', `${b}glimt-[A-Za-z0-9_-]{25}${e}`, {
    prefix: 6,
    anchor: anchor(['glimt-']),
  }),
  rule('GITLAB_TOKEN', `${b}glagent-[A-Za-z0-9_-]{50,1024}${e}`, {
    prefix: 8,
    anchor: anchor(['glagent-']),
  }),
  rule('GITLAB_TOKEN', `${b}gloas-[A-Za-z0-9_-]{64}${e}`, {
    prefix: 6,
    anchor: anchor(['gloas-']),
  }),
  rule('GITLAB_TOKEN', `${b}GR1348941[A-Za-z0-9_-]{20}(?:[A-Za-z0-9_-]{30})?${e}`, {
    prefix: 9,
    anchor: anchor(['GR1348941']),
  }),
  rule('GITLAB_TOKEN', `_gitlab_session=([0-9a-z]{32})${e}`, {
    group: 1,
    anchor: anchor(['_gitlab_session=']),
  }),
  rule('SLACK_TOKEN', `${b}xox[bpaesr]-\\d{8,14}-\\d{8,14}(?:-\\d{8,14})?-[A-Za-z0-9]{20,40}${e}`, {
    prefix: 5,
    anchor: anchor(['xox']),
  }),
  rule('SLACK_TOKEN', `${b}xox[abposre]-[A-Za-z0-9-]{20,250}${e}`, {
    prefix: 5,
    anchor: anchor(['xox']),
  }),
  rule('SLACK_TOKEN', `${b}xoxe(?:\\.xox[bp])?-\\d-[A-Z0-9]{146,200}${e}`, {
    prefix: 5,
    anchor: anchor(['xoxe']),
  }),
  rule('SLACK_TOKEN', `${b}xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]{20,80}`, {
    prefix: 5,
    anchor: anchor(['xapp-']),
  }),
  rule(
    'SLACK_WEBHOOK',
    'https?://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,120}',
    { anchor: anchor(['://hooks.slack.com/'], 4, 5) },
  ),
  rule('STRIPE_KEY', `${b}(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}${e}`, {
    prefix: 8,
    anchor: anchor(['sk_', 'rk_']),
  }),
  rule('GOOGLE_API_KEY', `${b}AIza[0-9A-Za-z_-]{35}${e}`, { prefix: 4, anchor: anchor(['AIza']) }),
  rule('GCP_SERVICE_ACCOUNT', '"type"\\s{0,3}:\\s{0,3}"service_account"', {
    anchor: anchor(['"type"']),
  }),
  rule('AZURE_AD_CLIENT_SECRET', `${b}[a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.-]{31,34}${e}`, {
    anchor: anchor(['Q~'], 4, 4),
  }),
  rule('AZURE_STORAGE_KEY', 'AccountKey=([A-Za-z0-9+/]{86}==)', {
    group: 1,
    anchor: anchor(['AccountKey=']),
  }),
  rule('TWILIO_API_KEY', `${b}SK[0-9a-fA-F]{32}${e}`, { prefix: 2, anchor: anchor(['SK']) }),
  rule('SENDGRID_API_KEY', `${b}SG\\.[A-Za-z0-9_-]{20,24}\\.[A-Za-z0-9_-]{39,50}${e}`, {
    prefix: 3,
    anchor: anchor(['SG.']),
  }),
  rule('NPM_TOKEN', `${b}npm_[A-Za-z0-9]{36}${e}`, { prefix: 4, anchor: anchor(['npm_']) }),
  rule(
    'NPM_TOKEN',
    `//[^\\s/]{0,200}/:_authToken=\\s{0,2}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})${e}`,
    {
      group: 1,
      anchor: anchor(['/:_authToken='], 2, 202, (text, start) => text.startsWith('//', start)),
    },
  ),
  rule('PYPI_TOKEN', `${b}pypi-AgE[A-Za-z0-9_-]{70,1000}`, {
    prefix: 5,
    anchor: anchor(['pypi-AgE']),
  }),
  rule('PYPI_TOKEN', `${b}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}`, {
    prefix: 20,
    anchor: anchor(['pypi-AgEIcHlwaS5vcmc']),
  }),
  rule('HUGGINGFACE_TOKEN', `${b}(?:hf_|api_org_)[A-Za-z]{34}${e}`, {
    prefix: 3,
    anchor: anchor(['hf_', 'api_org_']),
  }),
  rule(
    'JWT',
    `${b}eyJ[A-Za-z0-9_-]{10,500}\\.eyJ[A-Za-z0-9_-]{10,8000}(?:\\.[A-Za-z0-9_-]{0,1000})?`,
    { validate: jwtHeaderIsJson, anchor: anchor(['eyJ']) },
  ),
  rule('PRIVATE_KEY', pemPrivateKey, { keepPlaceholders: true, anchor: anchor(['-----BEGIN']) }),
  rule(
    'DATABASE_URL_PASSWORD',
    '\\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|jdbc:[a-z]{2,12}|clickhouse|cockroachdb|ftp|sftp|smtp)://[^\\s:/@"\']{1,64}:([^\\s@/"\']{1,128})@[^\\s/"\']{1,255}',
    { group: 1, anchor: anchor(['://'], 3, 17, startsWithLowerCase) },
  ),
  rule(
    'DISCORD_TOKEN',
    `${b}[MNO][A-Za-z0-9_-]{23,25}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}${e}`,
    { anchor: anchor(['.'], 24, 26, startsWithMNO, (text, at) => text.charCodeAt(at + 7) === 46) },
  ),
  rule('TELEGRAM_BOT_TOKEN', `${b}\\d{8,10}:AA[A-Za-z0-9_-]{33}${e}`, {
    anchor: anchor([':AA'], 8, 10, startsWithDigit),
  }),
  rule('SHOPIFY_TOKEN', `${b}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${e}`, {
    prefix: 6,
    anchor: anchor(['shpat_', 'shpca_', 'shppa_', 'shpss_']),
  }),
  rule('SQUARE_TOKEN', `${b}(?:EAAA|sq0atp-|sq0csp-)[A-Za-z0-9_-]{22,60}${e}`, {
    prefix: 4,
    anchor: anchor(['EAAA', 'sq0atp-', 'sq0csp-']),
  }),
  rule('MAILCHIMP_API_KEY', `${b}[0-9a-f]{32}-us\\d{1,2}${e}`, { anchor: anchor(['-us'], 32, 32) }),
  rule('DIGITALOCEAN_TOKEN', `${b}do[opr]_v1_[a-f0-9]{64}${e}`, {
    prefix: 7,
    anchor: anchor(['doo_v1_', 'dop_v1_', 'dor_v1_']),
  }),
  rule('AGE_SECRET_KEY', `${b}AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}${e}`, {
    prefix: 16,
    anchor: anchor(['AGE-SECRET-KEY-1']),
  }),
  // 1Password account secret key (A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX) and service-account token.
  rule(
    'ONEPASSWORD_SECRET',
    `${b}A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${e}`,
    { prefix: 3, anchor: anchor(['A3-']) },
  ),
  rule('ONEPASSWORD_SECRET', `${b}ops_eyJ[A-Za-z0-9+/=_-]{250,}`, {
    prefix: 4,
    validate: base64JsonAfter(4),
    anchor: anchor(['ops_eyJ']),
  }),
  rule('ADOBE_CLIENT_SECRET', `${b}p8e-[A-Za-z0-9-]{32}${e}`, {
    prefix: 4,
    anchor: anchor(['p8e-']),
  }),
  rule('ALIBABA_ACCESS_KEY_ID', `${b}LTAI[A-Za-z0-9]{20}${e}`, {
    prefix: 4,
    anchor: anchor(['LTAI']),
  }),
  rule('HASHICORP_TF_TOKEN', `${b}[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}${e}`, {
    anchor: anchor(['.atlasv1.'], 14, 14),
  }),
  rule('VAULT_TOKEN', `${b}hv[sbr]\\.[A-Za-z0-9_-]{90,300}${e}`, {
    prefix: 4,
    anchor: anchor(['hvs.', 'hvb.', 'hvr.']),
  }),
  rule('FACEBOOK_ACCESS_TOKEN', `${b}EAA[A-Za-z0-9]{100,400}${e}`, {
    prefix: 3,
    anchor: anchor(['EAA']),
  }),
  rule('FACEBOOK_ACCESS_TOKEN', `${b}\\d{15,16}(?:\\||%7C)[A-Za-z0-9_-]{27}${e}`, {
    anchor: anchor(['|', '%7C'], 15, 16, startsWithDigit),
  }),
  rule('FLYIO_TOKEN', `${b}FlyV1 fm[12][ar]?_[A-Za-z0-9+/=_-]{100,2000}`, {
    prefix: 11,
    anchor: anchor(['FlyV1 fm']),
  }),
  rule('FLYIO_TOKEN', `${b}fo1_[A-Za-z0-9_-]{43}${e}`, { prefix: 4, anchor: anchor(['fo1_']) }),
  rule('INTRA42_CLIENT_SECRET', `${b}s-s4t2(?:ud|af)-[a-f0-9]{64}${e}`, {
    prefix: 10,
    anchor: anchor(['s-s4t2']),
  }),
  rule('MAPBOX_TOKEN', `${b}[ps]k\\.[A-Za-z0-9]{60}\\.[A-Za-z0-9]{22}${e}`, {
    prefix: 3,
    anchor: anchor(['pk.', 'sk.']),
  }),
  rule('SENTRY_TOKEN', `${b}sntrys_eyJ[A-Za-z0-9+/=_-]{60,400}`, {
    prefix: 7,
    validate: base64JsonAfter(7),
    anchor: anchor(['sntrys_eyJ']),
  }),
  rule('SENTRY_TOKEN', `${b}sntryu_[a-f0-9]{64}${e}`, { prefix: 7, anchor: anchor(['sntryu_']) }),
  rule('SOURCEGRAPH_TOKEN', `${b}sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}${e}`, {
    prefix: 4,
    anchor: anchor(['sgp_']),
  }),
  rule('DYNATRACE_TOKEN', `${b}dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}${e}`, {
    prefix: 7,
    anchor: anchor(['dt0c01.']),
  }),
  rule('YANDEX_TOKEN', `${b}t1\\.[A-Za-z0-9_-]{2,40}={0,2}\\.[A-Za-z0-9_-]{86}={0,2}`, {
    prefix: 3,
    anchor: anchor(['t1.']),
  }),
  rule('EASYPOST_TOKEN', `${b}EZ[AT]K[A-Za-z0-9]{54}${e}`, {
    prefix: 4,
    anchor: anchor(['EZAK', 'EZTK']),
  }),
  rule('ARTIFACTORY_TOKEN', `${b}AKCp[A-Za-z0-9]{69}${e}`, { prefix: 4, anchor: anchor(['AKCp']) }),
  rule('ARTIFACTORY_TOKEN', `${b}cmVmd[A-Za-z0-9]{59}${e}`, {
    prefix: 5,
    anchor: anchor(['cmVmd']),
  }),
  rule('INFRACOST_TOKEN', `${b}ico-[A-Za-z0-9]{32}${e}`, { prefix: 4, anchor: anchor(['ico-']) }),
  // Sidekiq Pro/Enterprise gem credentials: `BUNDLE_…__CONTRIBSYS__COM=user:password`.
  rule(
    'SIDEKIQ_SECRET',
    `BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["']?\\s{0,3}[:=]\\s{0,3}["']?([a-f0-9]{8}:[a-f0-9]{8})${e}`,
    { group: 1, anchor: anchor(['BUNDLE_']) },
  ),
  rule('BASIC_AUTH_URL', '\\bhttps?://[^\\s:/@"\']{1,64}:([^\\s@/"\']{3,128})@[^\\s/"\']{1,255}', {
    group: 1,
    anchor: anchor(['://'], 4, 5, (text, start) => text[start] === 'h'),
  }),
  rule(
    'AUTHORIZATION_HEADER',
    '(?:Authorization|authorization|AUTHORIZATION)["\']?\\s{0,2}:\\s{0,2}(?:(?:Basic|Bearer|Token|token|bearer|basic)\\s{1,3})?([A-Za-z0-9+/=._~-]{8,4000})',
    { group: 1, anchor: anchor(['Authorization', 'authorization', 'AUTHORIZATION']) },
  ),
  // `curl -u user:password` / `--user`, on the curl line or a continuation line.
  rule(
    'CURL_USER',
    `(?:curl\\b(?:[^\\n]|\\\\\\r?\\n){0,300}?\\s)(?:-u|--user)\\s{1,3}["']?[^\\s:"']{0,64}:([^\\s"']{3,128})`,
    { group: 1, anchor: anchor(['curl']) },
  ),
];

/** Prefixes whose tokens are judged by their provider rule alone, never by the entropy detector. */
const knownPrefix =
  /^(?:sk-|sk_|rk_|pk_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|gl[a-z]{2,6}-|GR1348941|xox|xapp-|AIza|AKIA|ASIA|ABSK|bedrock-api-key-|npm_|pypi-|hf_|api_org_|eyJ|SG\.|sntry[su]_|sgp_|hv[sbr]\.|ops_|ico-|LTAI|EAA|fo1_|fm[12]|do[opr]_v1_|shp[a-z]{2}_|sq0|AGE-SECRET|p8e-|s-s4t2|dt0c01\.|EZ[AT]K|AKCp|cmVmd)/;

const keywords =
  '(?:api[_.-]?key|apikey|api[_.-]?token|secret|token|passw(?:or)?d|pwd|pass|auth[_.-]?key|credential|access[_.-]?key|private[_.-]?key|client[_.-]?secret|signing[_.-]?key|encryption[_.-]?key|session[_.-]?key|webhook[_.-]?url|dsn|login)';
// An identifier containing a keyword, an assignment or comparison operator
// on the same line, then a quoted value (any characters but the quote) or a
// bare value. Whitespace alone separates only a quoted value.
const assignment = new RegExp(
  `(?<![A-Za-z0-9])([A-Za-z0-9_.-]{0,40}${keywords}[A-Za-z0-9_.-]{0,30})["']?(?:[ \\t]{0,3}(?::::=|::=|:=|\\?=|=>|===|!==|==|!=|=|:)[ \\t]{0,3}(?:(["'\`])([^"'\`\\n]{4,200})\\2|([^\\s"'\`,;)}\\]]{4,300}))|[ \\t]{1,3}(["'\`])([^"'\`\\n]{4,200})\\5)`,
  'gi',
);
// The same, reversed: a quoted value compared with a keyword identifier.
const reversedComparison = new RegExp(
  `(["'\`])([^"'\`\\n]{4,200})\\1[ \\t]{0,3}(?:===|!==|==|!=)[ \\t]{0,3}[A-Za-z0-9_.]{0,40}${keywords}`,
  'gi',
);
// XML settings: `<add key="ClearTextPassword" value="…" />`.
const xmlSetting = new RegExp(
  `key=["'][A-Za-z0-9_.-]{0,40}${keywords}[A-Za-z0-9_.-]{0,30}["'][ \\t]{1,3}value=["']([^"'\\n]{4,200})["']`,
  'gi',
);

/** Keys that name something (an id, a file, a type) rather than hold a secret. */
const namingKey =
  /(?:^|[_.-]|[a-z])(?:id|ids|name|names|type|url|uri|path|file|dir|ref|field|header|prefix|length|len|count|format|mode|policy|label|hint|regex|pattern|endpoint|host|version|store|manager|provider|ttl|expiry|expires|timeout|enabled|required|min|max|secrets|tokens|credentials|passwords|keys)$|public|^pub[_.-]/i;
/** Keys whose value is a password: passwords are often words, so only placeholders are excluded. */
const passwordKey = /passw(?:or)?d|pwd|passphrase/i;

const placeholderValue =
  /^(?:x+|\*+|\.+|-+|_+|#+|0+|true|false|null|nil|none|undefined|yes|no|on|off|required|optional|string|text|value|changeme|change_?me|password|secret|token|redacted|hidden|example|sample|test|dummy|placeholder|your[_-]?.*|my[_-]?.*|insert[_-].*|replace[_-]?.*|todo|tbd|<[^>]*>|\$\{.*\}?|\$\(.*\)|\{\{.*\}\}|\{[A-Za-z_][\w.]*\}?|%[A-Za-z_]\w*%|%\(.*\)s?|%s|\$[A-Za-z_][A-Za-z0-9_]*|process\.env\..*|os\.environ.*|env\(.*|getenv.*|[A-Za-z_][\w.]*\(.*|ENC\[.*)$/i;

function looksLikeSecretValue(value: string, key: string, reportPlaceholders: boolean): boolean {
  if (namingKey.test(key)) return false;
  if (placeholderValue.test(value)) return false;
  if (!reportPlaceholders && isPlaceholderValue(value)) return false;
  if (/^\s|\s$/.test(value)) return false; // secrets do not start or end with spaces
  if (/^<[^>]*>$|^\{[\w.\s]*\}?$/.test(value)) return false; // <template>, {variable}
  if (/^[A-Za-z_][\w.-]*[:=]$/.test(value)) return false; // the next key of a config file
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(value)) return false; // member access
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return false; // a CONSTANT_NAME reference
  if (/@/.test(value) && /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/.test(value)) return false; // an email
  if (/^(?:https?:)?\/\//.test(value) && !/:[^/@]+@/.test(value)) return false; // a plain URL
  if (/^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}(?::\d{1,5})?$/i.test(value)) return false; // a host name
  if (/^[./~]/.test(value) || /\.(?:json|ya?ml|pem|txt|key|env|cfg|conf|ini|crt)$/i.test(value))
    return false; // a path or file name
  if (/^\d{1,7}$/.test(value)) return false; // small numbers (ports, counts)
  if (/^[a-z]+(?:[-_ ][a-z]+)*$/.test(value) && value.length < 20) return false; // plain words
  if (passwordKey.test(key)) return value.length >= 6;
  if (/^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*(?:[-_.]?\d+(?:\.\d+)*)?$/.test(value)) return false; // CamelCase name, maybe versioned
  if (/^\d{1,7}$/.test(value)) return false; // small numbers (ports, counts)
  return value.length >= 6;
}

// Runs of token characters; `=` only as base64 padding at the end.
const entropyCandidate =
  /(?<![A-Za-z0-9+/_=.~-])[A-Za-z0-9+/_-]{20,512}={0,2}(?![A-Za-z0-9+/_=~-])/g;
const uuidLike = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Values that are random by design but not credentials: hashes, signatures, CSRF tokens, nonces. */
const notCredentialContext =
  /(?:sha(?:1|256|384|512)-|integrity|base64,|checksum|hash|digest|signature|csrf|xsrf|authenticity_token|nonce|etag|fingerprint|commit|public[_-]?(?:key|token)|publicKey|publicToken)["' \t]{0,3}(?:[:=]|value=)?["' \t]{0,3}$|ENC\[[A-Z0-9_]{1,20},[^\]]{0,400}$/i;
/** A line of base64 as in PEM / PGP / MIME armour (64 or 76 wide). */
const armourLine = /^[A-Za-z0-9+/=]{40,80}$/;

/**
 * True when the token is a full line of a multi-line base64 block
 * (certificates, public keys, PGP blocks): the neighbouring line is one too.
 * Private keys are found by their BEGIN line instead.
 */
function isArmourLine(source: string, start: number, end: number): boolean {
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
function entropyCandidateIsSecret(
  token: string,
  before: string,
  threshold: number,
  minLength: number,
  reportPlaceholders: boolean,
): boolean {
  if (token.length < minLength || token.length > 200) return false; // longer: a data payload
  if (/^[0-9a-fA-F]+$/.test(token)) return false; // hex: SHAs, digests, ids
  if (uuidLike.test(token)) return false;
  if (knownPrefix.test(token)) return false;
  if (notCredentialContext.test(before)) return false;
  if (/data:[\w/+.-]+;base64,[A-Za-z0-9+/=]*$/.test(before)) return false;
  const hasLower = /[a-z]/.test(token);
  const hasUpper = /[A-Z]/.test(token);
  const hasDigit = /\d/.test(token);
  if (!(hasLower && hasUpper && hasDigit)) return false;
  if (/^[A-Za-z]+(?:[-_/][A-Za-z]+)+$/.test(token)) return false; // words-joined-by-dashes
  if (/^[A-Za-z][a-z]+(?:[A-Z][a-z0-9]+){2,}$/.test(token)) return false; // camelCaseIdentifier
  if (!reportPlaceholders && isPlaceholderValue(token)) return false;
  return shannonEntropy(token) >= threshold;
}

// ---------------------------------------------------------------- anchored scanning

/** Every rule's anchor literals, found in one pass; literal index -> rules anchored on it. */
const anchorLiterals: string[] = [];
const rulesByLiteral: number[][] = [];
providerRules.forEach((providerRule, ruleIndex) => {
  for (const literal of providerRule.anchor.literals) {
    let index = anchorLiterals.indexOf(literal);
    if (index < 0) {
      index = anchorLiterals.push(literal) - 1;
      rulesByLiteral.push([]);
    }
    rulesByLiteral[index]!.push(ruleIndex);
  }
});
const providerFinder: LiteralFinder = literalFinder(anchorLiterals);
const stickyRules = providerRules.map(providerRule => stickyPattern(providerRule.pattern));

/**
 * Calls `onMatch(ruleIndex, match)` with exactly the matches
 * `source.matchAll(rule.pattern)` yields for each provider rule, in rule
 * order and text order, trying each pattern only near its anchors.
 */
function scanProviderRules(
  source: string,
  onMatch: (ruleIndex: number, match: RegExpExecArray) => void,
): void {
  const hits: number[][] = [];
  providerFinder.find(source, (start, literal) => {
    for (const ruleIndex of rulesByLiteral[literal]!) {
      const check = providerRules[ruleIndex]!.anchor.hit;
      if (check && !check(source, start)) continue;
      const ruleHits = hits[ruleIndex];
      if (ruleHits) ruleHits.push(start);
      else hits[ruleIndex] = [start];
    }
  });
  for (let ruleIndex = 0; ruleIndex < providerRules.length; ruleIndex++) {
    const ruleHits = hits[ruleIndex];
    if (!ruleHits) continue;
    // Hits come grouped by anchor character: put them in text order.
    if (!isSorted(ruleHits)) ruleHits.sort((first, second) => first - second);
    const { min, max, start: startCheck } = providerRules[ruleIndex]!.anchor;
    const matcher = anchoredMatcher(stickyRules[ruleIndex]!, source);
    let from = 0;
    for (const hit of ruleHits) {
      const last = hit - min;
      for (let start = Math.max(hit - max, from, 0); start <= last; start++) {
        if (start < matcher.next) {
          start = matcher.next - 1;
          continue;
        }
        if (startCheck && !startCheck(source, start)) continue;
        const match = matcher.at(start);
        if (match) onMatch(ruleIndex, match);
      }
      from = Math.max(from, last + 1);
    }
  }
}

function isSorted(numbers: readonly number[]): boolean {
  for (let index = 1; index < numbers.length; index++) {
    if (numbers[index]! < numbers[index - 1]!) return false;
  }
  return true;
}

/**
 * For rule authors: the scans whose anchored results for `text` differ from
 * a full `matchAll` of their pattern (`'provider:<index>:<type>'`,
 * `'assignment'`, `'reversedComparison'`, `'xmlSetting'`, `'entropy'`).
 * Empty when every anchor is right for `text`.
 */
export function anchoredScanMismatches(text: string): string[] {
  const spans = (matches: Iterable<{ index: number; 0: string }>) => {
    let list = '';
    for (const match of matches) list += `${match.index}:${match[0].length},`;
    return list;
  };
  const anchored: RegExpExecArray[][] = providerRules.map(() => []);
  scanProviderRules(text, (ruleIndex, match) => anchored[ruleIndex]!.push(match));
  const mismatches: string[] = [];
  providerRules.forEach((providerRule, ruleIndex) => {
    if (spans(anchored[ruleIndex]!) !== spans(text.matchAll(providerRule.pattern))) {
      mismatches.push(`provider:${ruleIndex}:${providerRule.type}`);
    }
  });
  const scans: Array<[string, typeof scanAssignments, RegExp]> = [
    ['assignment', scanAssignments, assignment],
    ['reversedComparison', scanReversedComparisons, reversedComparison],
    ['xmlSetting', scanXmlSettings, xmlSetting],
  ];
  for (const [name, scan, pattern] of scans) {
    const found: RegExpExecArray[] = [];
    scan(text, match => found.push(match));
    if (spans(found) !== spans(text.matchAll(pattern))) mismatches.push(name);
  }
  let entropyRuns = '';
  scanEntropyCandidates(text, (start, end) => {
    entropyRuns += `${start}:${end - start},`;
  });
  if (entropyRuns !== spans(text.matchAll(entropyCandidate))) mismatches.push('entropy');
  return mismatches;
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

function isAlphanumericCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

function isQuoteCode(code: number): boolean {
  return code === 34 || code === 39 || code === 96;
}

const stickyAssignment = stickyPattern(assignment);
const stickyReversedComparison = stickyPattern(reversedComparison);
const stickyXmlSetting = stickyPattern(xmlSetting);
const keywordPattern = new RegExp(keywords, 'i');
// An assignment's key is at most 40 + 14 (the longest keyword) + 30 characters.
const longestAssignmentKey = 84;

/**
 * The matches of `assignment` (as `matchAll` yields them). Every match has a
 * key ([A-Za-z0-9_.-], containing a keyword) that ends just before an
 * optional quote, up to three blanks and an operator (which holds `:` or
 * `=`) or a quote; so the pattern is only tried at the starts of keys that
 * end within five characters before a `:`, `=` or quote and hold a keyword.
 */
function scanAssignments(source: string, onMatch: (match: RegExpExecArray) => void): void {
  const matcher = anchoredMatcher(stickyAssignment, source);
  let covered = 0; // key ends up to here are done
  forEachOccurrence(source, [':', '=', '"', "'", '`'], position => {
    for (let end = Math.max(covered + 1, position - 5, 1); end <= position; end++) {
      if (!isIdentifierCode(source.charCodeAt(end - 1)) || isIdentifierCode(source.charCodeAt(end)))
        continue;
      let first = end - 1;
      while (
        first > 0 &&
        end - first < longestAssignmentKey &&
        isIdentifierCode(source.charCodeAt(first - 1))
      )
        first--;
      if (end - first < 3 || !keywordPattern.test(source.slice(first, end))) continue;
      for (let start = Math.max(first, matcher.next); start <= end - 3; start++) {
        if (start > 0 && isAlphanumericCode(source.charCodeAt(start - 1))) continue;
        if (start < matcher.next) continue;
        const match = matcher.at(start);
        if (match) onMatch(match);
      }
    }
    covered = Math.max(covered, position);
  });
}

/**
 * The matches of `reversedComparison`: a quoted value, up to three blanks
 * and `==`/`!=`/`===`/`!==`. The closing quote sits within five characters
 * before an `=`, and the opening quote is the previous quote character (the
 * value holds none).
 */
function scanReversedComparisons(source: string, onMatch: (match: RegExpExecArray) => void): void {
  const matcher = anchoredMatcher(stickyReversedComparison, source);
  let covered = -1; // closing quotes up to here are done
  forEachOccurrence(source, ['='], position => {
    for (let close = Math.max(covered + 1, position - 5, 1); close < position; close++) {
      const quote = source.charCodeAt(close);
      if (!isQuoteCode(quote)) continue;
      let open = close - 1;
      while (open >= 0 && close - open <= 201) {
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
  });
}

/** The matches of `xmlSetting`, which start with `key=` (any case). */
function scanXmlSettings(source: string, onMatch: (match: RegExpExecArray) => void): void {
  const matcher = anchoredMatcher(stickyXmlSetting, source);
  forEachOccurrence(source, ['='], position => {
    const start = position - 3;
    if (
      start < matcher.next ||
      (source.charCodeAt(start) | 0x20) !== 107 ||
      (source.charCodeAt(start + 1) | 0x20) !== 101 ||
      (source.charCodeAt(start + 2) | 0x20) !== 121
    )
      return;
    const match = matcher.at(start);
    if (match) onMatch(match);
  });
}

/** Characters of an entropy candidate's run: [A-Za-z0-9+/_-]. */
function isTokenCode(code: number): boolean {
  return isAlphanumericCode(code) || code === 43 || code === 47 || code === 95 || code === 45;
}

/**
 * The matches of `entropyCandidate`, found without a regex: maximal runs of
 * 20 to 512 token characters not preceded by `=`, `.` or `~`, plus up to two
 * `=` of padding, not followed by a token character, `=` or `~` (a longer
 * run, or more padding, matches nowhere). Runs shorter than 20 are skipped
 * by looking only at every 20th character.
 */
function scanEntropyCandidates(
  source: string,
  onMatch: (start: number, end: number) => void,
): void {
  const length = source.length;
  let from = 0;
  while (from + 19 < length) {
    const probe = from + 19;
    if (!isTokenCode(source.charCodeAt(probe))) {
      from = probe + 1;
      continue;
    }
    let start = probe;
    while (start > from && isTokenCode(source.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < length && isTokenCode(source.charCodeAt(end))) end++;
    from = end + 1;
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

/**
 * The longest normalised text `findSecrets` must see from the start of a
 * secret (plus its left context) to recognise it: an assignment's key and
 * value, an entropy token with the 40 characters before it. Longer secrets
 * (PEM blocks, long JWTs, Authorization headers) are recognised by their
 * first few hundred characters and are matched to the end of the visible
 * text, so a stream window holds them from their start until they end.
 */
export const secretsMaxMatchLength = 512;

/**
 * Finds credentials in `text` and returns `[{ type, start, end }]`, offsets
 * into the original text (end exclusive), in order and never overlapping.
 * Known provider formats first (structure-checked, placeholders such as
 * `ghp_xxxx…` or `…EXAMPLE` rejected), then `key = value` assignments whose
 * value is not a placeholder, reference or name, then (optionally)
 * high-entropy tokens that are not hex digests, UUIDs, lockfile hashes,
 * armoured base64 or payloads. Linear time: every pattern has bounded
 * quantifiers.
 *
 * @example
 * findSecrets('OPENAI_API_KEY=sk-proj-abc...'); // [{ type: 'OPENAI_API_KEY', start: 15, end: ... }]
 */
export function findSecrets(text: string, options?: FindSecretsOptions): SecretSpan[] {
  const {
    assignments = true,
    entropy = true,
    entropyThreshold = 4.5,
    entropyMinLength = 24,
    reportPlaceholders = false,
  } = validateOptionsOnce(options, {
    prefix: 'findSecrets',
    root: 'findSecrets.options',
    shape: findSecretsOptionShape,
  });
  const normalized = normalizeText(text);
  const source = normalized.text;
  const candidates: RankedSpan[] = [];
  const add = (type: string, start: number, length: number, priority: number) =>
    candidates.push({ type, start, end: start + length, priority });

  // Collected per rule, then added in rule order as a pass per rule would.
  const providerMatches: Array<RegExpExecArray[] | undefined> = [];
  scanProviderRules(source, (ruleIndex, match) => {
    const matches = providerMatches[ruleIndex];
    if (matches) matches.push(match);
    else providerMatches[ruleIndex] = [match];
  });
  providerMatches.forEach((matches, ruleIndex) => {
    if (!matches) return;
    const { type, group, prefix, validate, keepPlaceholders } = providerRules[ruleIndex]!;
    for (const match of matches) {
      const value = group === undefined ? match[0] : match[group];
      if (value === undefined || value.length === 0) continue;
      if (type === 'PRIVATE_KEY') {
        if (!pemHasKeyMaterial(value, match.index + match[0].length, source.length)) continue;
      } else if (!keepPlaceholders) {
        if (
          group !== undefined &&
          (placeholderValue.test(value) || /^[<{]|[>}]$|^(.)\1+$/.test(value))
        )
          continue;
        if (!reportPlaceholders && isPlaceholderValue(value.slice(prefix ?? 0))) continue;
      }
      if (validate && !validate(value)) continue;
      const start = match.index + (group === undefined ? 0 : match[0].lastIndexOf(value));
      add(type, start, value.length, 3);
    }
  });
  if (assignments) {
    scanAssignments(source, match => {
      const value = match[3] ?? match[4] ?? match[6];
      if (value === undefined) return;
      if (!looksLikeSecretValue(value, match[1]!, reportPlaceholders)) return;
      add('GENERIC_SECRET', match.index + match[0].lastIndexOf(value), value.length, 2);
    });
    scanReversedComparisons(source, match => {
      const value = match[2]!;
      if (!looksLikeSecretValue(value, '', reportPlaceholders)) return;
      add('GENERIC_SECRET', match.index + 1, value.length, 2);
    });
    scanXmlSettings(source, match => {
      const value = match[1]!;
      if (!looksLikeSecretValue(value, '', reportPlaceholders)) return;
      add('GENERIC_SECRET', match.index + match[0].lastIndexOf(value), value.length, 2);
    });
  }
  if (entropy) {
    scanEntropyCandidates(source, (start, end) => {
      const before = source.slice(Math.max(0, start - 40), start);
      const token = source.slice(start, end);
      if (
        !entropyCandidateIsSecret(
          token,
          before,
          entropyThreshold,
          entropyMinLength,
          reportPlaceholders,
        )
      )
        return;
      if (isArmourLine(source, start, end)) return;
      add('HIGH_ENTROPY_STRING', start, token.length, 1);
    });
  }
  return resolveOverlaps(candidates).map(span => ({
    type: span.type,
    ...normalized.toOriginalSpan(span.start, span.end),
  }));
}
