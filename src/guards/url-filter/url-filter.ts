import { parse as parseDomain } from 'tldts';
import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import type { GuardrailConfigIssue } from '../../core/errors';
import { GuardrailConfigError } from '../../core/errors';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail, GuardrailContext, Verdict } from '../../core/types';
import { decodedJson, readsJson } from '../shared/json-string-spans';
import { SpanList } from '../shared/span-list';
import {
  decodedAttributeUrls,
  delimitedUrlsWithLineBreaks,
  hostSettingValues,
  type ParsedUrl,
  scanUrls,
  shortIPv4Values,
  urlValuesWithLineBreaks,
} from './find-urls';
import { homographLabel, isIpHost, isPrivateHost } from './host-checks';
import { urlPotentialStart } from './potential-start';
import { urlFilterOptionShape } from './url-filter-options';
import { wildcardDnsJudgement } from './wildcard-dns';

/** A host rule: a domain (`example.com`, `*.example.com`), an IP, or a RegExp over the host name. */
export type UrlHostPattern = string | RegExp;

/** Options of `urlFilter`. */
export interface UrlFilterOptions {
  /** When given, only URLs whose host matches one entry pass. */
  allow?: readonly UrlHostPattern[];
  /** URLs whose host matches one entry are flagged (subdomains included). */
  deny?: readonly UrlHostPattern[];
  /** Schemes allowed (without `:`). Default `['http', 'https']`. */
  schemes?: readonly string[];
  /** Flag URLs with a user name or password (`https://bank.com@evil.io`). Default true. */
  blockUserinfo?: boolean;
  /** `allow: ['example.com']` also admits `api.example.com`. Default true. */
  allowSubdomains?: boolean;
  /**
   * Flag private, loopback and link-local IPs, `localhost` and `.internal` /
   * `.local` hosts, and names of wildcard-DNS services that answer with such
   * an address (`10.0.0.1.nip.io`, `localtest.me`). Default: only when the
   * guardrail runs on `tool_input` (no fetches to internal hosts); pass
   * `true` or `false` to force it.
   */
  blockPrivate?: boolean;
  /**
   * Where `blockPrivate` applies, looks up every host name that broke no
   * other rule and flags it when an answer is a private or local address,
   * or when the lookup throws, returns no address or outlasts the
   * guardrail's timeout (fail closed). Answers are IP strings or objects
   * with an `address` (what Node's `dns.promises.lookup(host, { all: true })`
   * returns). Up to 32 distinct names per text; the others are flagged.
   * The core makes no lookup of its own (edge-safe).
   */
  resolveHost?: ResolveHost;
  /** Flag punycode hosts that mix scripts or spell Latin with look-alikes. Default true. */
  blockHomographs?: boolean;
  /** `'block'` (default) the text, or `'redact'` the offending URLs and let the rest through. */
  action?: 'block' | 'redact';
  /** What a redacted URL becomes. Default `'[link removed]'`. */
  replacement?: string;
  /** User-facing message of a block. */
  message?: string;
  /** Guardrail name in records. Default `'url-filter'`. */
  name?: string;
}

/** A DNS lookup for `urlFilter`'s `resolveHost`: the host's addresses. */
export type ResolveHost = (
  host: string,
  options: { signal: AbortSignal },
) => PromiseLike<ReadonlyArray<string | { address: string }>>;

/** Distinct host names one check looks up (besides those its call looked up); the others are flagged unjudged. */
const MAX_RESOLVED_HOSTS = 32;

/**
 * The names a check looks up: those it found (in order, up to
 * `MAX_RESOLVED_HOSTS`), and the rule each name of the call broke once
 * looked up (`null`: none).
 */
interface HostLookups {
  wanted: Set<string>;
  rules: Map<string, string | null>;
}

interface HostMatcher {
  entry: string;
  matches(host: string): boolean;
}

function hostMatcher(
  pattern: UrlHostPattern,
  includeSubdomains: boolean,
  path: string,
  issues: GuardrailConfigIssue[],
): HostMatcher | undefined {
  if (pattern instanceof RegExp) {
    // A g or y flag makes `test` resume at `lastIndex`: every host starts at 0.
    return {
      entry: String(pattern),
      matches: host => {
        pattern.lastIndex = 0;
        return pattern.test(host);
      },
    };
  }
  if (typeof pattern !== 'string' || pattern.trim() === '') {
    issues.push({ path, value: pattern, expected: 'a host name, "*.domain", an IP or a RegExp' });
    return undefined;
  }
  const wildcard = pattern.startsWith('*.');
  let parsed: URL;
  try {
    parsed = new URL(`http://${wildcard ? pattern.slice(2) : pattern}`);
  } catch {
    issues.push({ path, value: pattern, expected: 'a host name, "*.domain", an IP or a RegExp' });
    return undefined;
  }
  // `https://evil.io` parses as the host "https" and would match nothing.
  if (
    parsed.username !== '' ||
    parsed.password !== '' ||
    parsed.pathname !== '/' ||
    parsed.search !== '' ||
    parsed.hash !== '' ||
    parsed.hostname.includes('*')
  ) {
    issues.push({
      path,
      value: pattern,
      expected:
        'a host name, "*.domain", an IP or a RegExp (a host, not a URL: no scheme, path or user info)',
    });
    return undefined;
  }
  const host = withoutRootDot(parsed.hostname);
  // `.evil.io` (NO_PROXY's and cookies' "evil.io and subdomains"), `evil..io`,
  // `.`: no URL has such a host, so the rule matched nothing (a deny, silently).
  if (host.split('.').includes('')) {
    issues.push({
      path,
      value: pattern,
      expected:
        'a host name without empty labels ("evil.io" covers its subdomains, "*.evil.io" only them)',
    });
    return undefined;
  }
  const suffix = wildcard || (includeSubdomains && !isIpHost(host)) ? `.${host}` : undefined;
  return {
    entry: pattern,
    matches: candidate =>
      (!wildcard && candidate === host) || (suffix !== undefined && candidate.endsWith(suffix)),
  };
}

/**
 * `evil.io.` (a fully qualified name) is the host `evil.io` to DNS and to
 * browsers: rules compare host names without that trailing dot.
 */
function withoutRootDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** A flagged URL as records show it, and the rule it broke. */
interface Judged {
  url: string;
  rule: string;
}

/** Flagged URLs listed in a record's `info.urls`; `info.count` has them all. */
const MAX_REPORTED_URLS = 20;

/**
 * What a record may say about a URL: its scheme and host (with port), e.g.
 * `https://evil.io`, or only the scheme for URLs without a host
 * (`javascript:`, `data:`). Paths, queries, fragments and user info are left
 * out: they carry passwords, tokens and e-mail addresses, and records travel
 * to logs, telemetry and (through `providerMetadata`) to the browser. No path
 * hash either: a short hash of a guessable path can be guessed back.
 */
function describeUrl(url: ParsedUrl): string {
  if (url.host === '') return `${shownScheme(url.protocol.slice(0, -1))}:`;
  // `host` is the host name and its port.
  return `${shownScheme(url.protocol.slice(0, -1))}://${shownHost(url.hostname)}${url.host.slice(url.hostname.length)}`;
}

/** A label that may carry data: five digits or more, or a run of 20 letters and digits. */
const dataLabel = /[a-z0-9]{20}|(?:\d\D*){5}/i;

/**
 * A host as a record may show it. A model told to leak a value sends it in
 * the host (`https://4111111111111111.evil.io`, an image link), and records,
 * reasons and errors travel to logs, telemetry and the browser. Round 17
 * wrote a label with five digits or a run of 20 letters and digits as `*`,
 * but the value split over short labels (`4111.1111.1111.1111.evil.io`,
 * `jane.doe.evil.io`, base32 in 4-letter labels) was shown whole. Now only
 * the registrable domain is shown (`*.evil.io`, `*.b.co.uk`: the public
 * suffix and one label, which the sender must own), its labels under the
 * same rule (punycode labels, what a homograph record is about, stay); an
 * IPv4 address whole (what a private-host record is about), an IPv6
 * literal as `[*]` (16 bytes of the sender's choosing) unless `[::1]` or
 * `[::]`.
 */
function shownHost(host: string): string {
  if (host.startsWith('[')) return host === '[::1]' || host === '[::]' ? host : '[*]';
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return host;
  const bare = host.endsWith('.') ? host.slice(0, -1) : host;
  const domain = registrableDomain(bare);
  const shown = (domain ?? bare)
    .split('.')
    .map(label => (!label.startsWith('xn--') && dataLabel.test(label) ? '*' : label))
    .join('.');
  const root = bare.length < host.length ? '.' : '';
  return `${domain !== undefined && domain.length < bare.length ? '*.' : ''}${shown}${root}`;
}

/**
 * The public suffix and one label before it (`evil.io`, `b.co.uk`), when
 * the host has one. Not validated as a DNS name: a host longer than 253
 * characters or with a label DNS rejects (`--1.sslip.io`) had none, and
 * was shown whole, data split over its short labels too (round 39).
 */
function registrableDomain(host: string): string | undefined {
  return parseDomain(host, { validateHostname: false }).domain ?? undefined;
}

/**
 * A scheme as a record may show it: up to 16 letters (with `+ . -`), else
 * `*` (a scheme is the sender's to choose: `x4111111111111111://…`).
 */
function shownScheme(scheme: string): string {
  return /^[a-z][a-z+.-]{0,15}$/i.test(scheme) ? scheme : '*';
}

/**
 * Finds URLs in text (with a scheme, bare domains checked against the public
 * suffix list, bare IPs), parses them with the platform URL parser and flags
 * those outside the allow list, on the deny list, with a scheme not allowed,
 * with user info, on private hosts (by default on tool input; names of
 * wildcard-DNS services such as `10.0.0.1.nip.io` too, and, with
 * `resolveHost`, names whose DNS answer is private), or with an IDN
 * homograph host. Blocks, or redacts just those URLs with `action: 'redact'`.
 *
 * Stream-safe with a 2,048-character window. The record's `info` holds the
 * flagged URLs (the first 20) as scheme and host only, with the rule each
 * broke, and `count`, the number flagged; the reason names the first one the
 * same way. Linear in the text: every URL is cut at 2,048 characters.
 *
 * @example
 * urlFilter({ allow: ['docs.example.com'], action: 'redact' }); // output: no foreign links
 * urlFilter({ deny: ['pastebin.com'] }); // tool input: private hosts blocked too
 */
export function urlFilter(options?: UrlFilterOptions): Guardrail {
  const read = validateFactoryOptions(options, 'url-filter', urlFilterOptionShape);
  const {
    allow: allowList = [],
    deny = [],
    schemes = ['http', 'https'],
    blockUserinfo = true,
    allowSubdomains = true,
    blockPrivate,
    resolveHost,
    blockHomographs = true,
    action = 'block',
    replacement = '[link removed]',
    message = 'This content contains a link that is not allowed.',
    name = 'url-filter',
  } = read;
  const issues: GuardrailConfigIssue[] = [];
  if (read.allow !== undefined && allowList.length === 0) {
    // "Only URLs whose host matches one entry pass" with no entry: almost
    // surely a list that came out empty, which admitted every host.
    issues.push({
      path: `${name}.allow`,
      value: allowList,
      expected:
        'at least one host pattern (an empty allow list would admit every host: leave allow out to allow all hosts not denied)',
    });
  }
  const allowMatchers = allowList.flatMap(
    (pattern, index) =>
      hostMatcher(pattern, allowSubdomains, `${name}.allow[${index}]`, issues) ?? [],
  );
  const denyMatchers = deny.flatMap(
    (pattern, index) => hostMatcher(pattern, true, `${name}.deny[${index}]`, issues) ?? [],
  );
  if (resolveHost !== undefined && blockPrivate === false) {
    issues.push({
      path: `${name}.resolveHost`,
      value: resolveHost,
      expected: 'no resolveHost with blockPrivate: false (it would look up no host)',
    });
  }
  // Types are checked above; what is left is a host pattern the URL parser rejects.
  if (issues.length > 0) throw new GuardrailConfigError(issues);
  const allowedSchemes = new Set(schemes.map(scheme => scheme.toLowerCase()));
  /** Where a call's looked-up names are kept (`ctx.state`). */
  const lookupsKey = `${name}:url-filter-lookups`;

  function violation(
    url: ParsedUrl,
    checkPrivate: boolean,
    lookups: HostLookups | undefined,
  ): string | undefined {
    // Fails closed: the host is past the 2,048 characters a URL is read to.
    if (url.authorityCut) return 'the user info and host run past 2,048 characters: not judged';
    const scheme = url.protocol.slice(0, -1);
    if (!allowedSchemes.has(scheme)) return `scheme "${shownScheme(scheme)}" is not allowed`;
    if (blockUserinfo && (url.username !== '' || url.password !== '')) {
      return 'user info in the URL is not allowed';
    }
    const host = url.hostname;
    // Only for a URL that breaks a rule.
    const shown = () => shownHost(host);
    if (checkPrivate && isPrivateHost(host)) return `host "${shown()}" is private or local`;
    const wildcard = checkPrivate ? wildcardDnsJudgement(host) : undefined;
    if (wildcard?.kind === 'private') {
      return `host "${shown()}" is a wildcard-DNS name for ${shownHost(wildcard.address)}: private or local`;
    }
    if (wildcard?.kind === 'unknown') {
      return `host "${shown()}" is on the wildcard-DNS service ${wildcard.service} and ${wildcard.why}: not judged`;
    }
    if (blockHomographs) {
      if (homographLabel(host) !== undefined) {
        // The look-alike label is named when it is one a record shows (the registrable domain's).
        const domain = registrableDomain(withoutRootDot(host));
        const spoof = domain === undefined ? undefined : homographLabel(domain);
        return spoof !== undefined && !dataLabel.test(spoof)
          ? `host "${shown()}" ("${spoof}") looks like a homograph`
          : `host "${shown()}" looks like a homograph`;
      }
    }
    const bareHost = withoutRootDot(host);
    const denied = denyMatchers.find(matcher => matcher.matches(bareHost));
    if (denied) return `host "${shown()}" is denied by "${denied.entry}"`;
    if (allowMatchers.length > 0 && !allowMatchers.some(matcher => matcher.matches(bareHost))) {
      return `host "${shown()}" is not on the allow list`;
    }
    if (lookups === undefined || isIpHost(bareHost)) return undefined;
    const looked = lookups.rules.get(bareHost);
    if (looked !== undefined) return looked ?? undefined;
    if (lookups.wanted.size >= MAX_RESOLVED_HOSTS && !lookups.wanted.has(bareHost)) {
      return `host "${shown()}" is past the ${MAX_RESOLVED_HOSTS} host names looked up per text: not judged`;
    }
    lookups.wanted.add(bareHost);
    return undefined;
  }

  /** Looks up every wanted name, `resolveHost` given; a lookup that fails flags its name. */
  async function lookUp(lookups: HostLookups, signal: AbortSignal): Promise<void> {
    const lookup = resolveHost!;
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => {});
    await Promise.all(
      [...lookups.wanted].map(async host => {
        let answers: unknown;
        try {
          // A lookup that ignores the signal still ends the check at the timeout.
          answers = await Promise.race([
            Promise.resolve().then(() => lookup(host, { signal })),
            aborted,
          ]);
        } catch {
          // The error is not kept: its message may name the host whole.
          lookups.rules.set(
            host,
            `host "${shownHost(host)}" was not looked up (the lookup failed): not judged`,
          );
          return;
        }
        lookups.rules.set(host, answersRule(host, answers));
      }),
    ).finally(() => signal.removeEventListener('abort', onAbort));
    signal.throwIfAborted();
  }

  return defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    streamSafe: true,
    // A retry gets the feedback only: the blocked answer holds the values the block is about.
    retryable: 'without-answer',
    maxMatchLength: 2048,
    // Window mode holds back only the last token: a URL holds no whitespace.
    potentialMatchStart: urlPotentialStart,
    // DNS answers change: a verdict that depends on them is never remembered.
    ...(resolveHost === undefined ? {} : { cache: 'none' as const }),
    check(content, ctx) {
      const checkPrivate = blockPrivate ?? ctx.kind === 'tool_input';
      if (!checkPrivate || resolveHost === undefined) return judge(content, ctx, checkPrivate);
      // Names are looked up when the text has any that broke no other rule, then the text judged again.
      // Answers are kept for the call: a streamed answer's windows look each name up once.
      let rules = ctx.state.get(lookupsKey) as HostLookups['rules'] | undefined;
      if (rules === undefined) {
        rules = new Map();
        ctx.state.set(lookupsKey, rules);
      }
      const lookups: HostLookups = { wanted: new Set(), rules };
      const verdict = judge(content, ctx, checkPrivate, lookups);
      if (lookups.wanted.size === 0) return verdict;
      return lookUp(lookups, ctx.abortSignal).then(() =>
        judge(content, ctx, checkPrivate, lookups),
      );
    },
  });

  /** The verdict on `content`, names looked up so far judged by `lookups`. */
  function judge(
    content: string,
    ctx: GuardrailContext,
    checkPrivate: boolean,
    lookups?: HostLookups,
  ): Verdict {
    // Flagged URLs as spans and the first few judgements: a flood of links
    // keeps no object per link alive.
    let flagged = new SpanList<undefined>();
    const reported: Array<{ url: string; rule: string }> = [];
    // scanUrls hands out one parsed object per distinct URL text, so a flood
    // of one link is judged once.
    const judgedByUrl = new Map<ParsedUrl, Judged | null>();
    // JSON (a tool's arguments or result) is read with its strings' escapes
    // decoded: the `n` of a line break (`\nevil.com`) made another host.
    const decoded = readsJson(ctx) ? decodedJson(content) : undefined;
    const found = scanUrls(decoded?.text ?? content);
    for (let index = 0; index < found.length; index++) {
      const url = found.value(index);
      let judged = judgedByUrl.get(url);
      if (judged === undefined) {
        const rule = violation(url, checkPrivate, lookups);
        judged = rule === undefined ? null : { url: describeUrl(url), rule };
        judgedByUrl.set(url, judged);
      }
      if (judged === null) continue;
      const { start, end } = decoded
        ? decoded.toJson(found.start(index), found.end(index))
        : { start: found.start(index), end: found.end(index) };
      flagged.push(start, end, undefined);
      if (reported.length < MAX_REPORTED_URLS) reported.push({ ...judged });
    }
    // A string value that is one URL to a parser once its tabs and line
    // breaks are dropped (`"https://good.com\t.evil.io"`): judged so, and
    // flagged whole (its contents, so a redaction keeps the JSON).
    let count = flagged.length;
    const values = decoded ? urlValuesWithLineBreaks(decoded.text, decoded.stringOf) : [];
    // So is an HTML attribute's value or a Markdown link's destination
    // (`<a href="http://ev\nil.com">`), in any text.
    // (Pushed one by one: spreading 200,000 values into push() overflowed the call stack.)
    for (const value of delimitedUrlsWithLineBreaks(decoded?.text ?? content, decoded?.stringOf))
      values.push(value);
    // And the URLs references hide in a `srcset`, a refresh's `content` or a `style`.
    for (const value of decodedAttributeUrls(decoded?.text ?? content, decoded?.stringOf))
      values.push(value);
    // A value that is, whole, an address in the parser's short forms (`"127.1"`, `"2130706433"`).
    // (One a finder read already, `0x7f000001`, is judged once.)
    if (readsJson(ctx)) {
      const short = shortIPv4Values(decoded?.text ?? content, decoded?.stringOf);
      // And a setting line's (`host: 10.1`, `host = 127.1`; round 27), once (`"host":"10.1"` is both).
      for (const value of hostSettingValues(decoded?.text ?? content, decoded?.stringOf))
        short.push(value);
      short.sort((a, b) => a.start - b.start);
      let next = 0;
      let last = -1;
      for (const value of short) {
        if (value.start === last) continue;
        last = value.start;
        while (next < found.length && found.end(next) <= value.start) next++;
        if (next < found.length && found.start(next) < value.end) continue;
        values.push(value);
      }
    }
    values.sort((a, b) => a.start - b.start);
    const flaggedValues = new SpanList<undefined>();
    for (const value of values) {
      let judged = judgedByUrl.get(value.url);
      if (judged === undefined) {
        const rule = violation(value.url, checkPrivate, lookups);
        judged = rule === undefined ? null : { url: describeUrl(value.url), rule };
        judgedByUrl.set(value.url, judged);
      }
      if (judged === null) continue;
      const { start, end } = decoded
        ? decoded.toJson(value.start, value.end)
        : { start: value.start, end: value.end };
      flaggedValues.push(start, end, undefined);
      count++;
      if (reported.length < MAX_REPORTED_URLS) reported.push({ ...judged });
    }
    if (count === 0) return allow();
    if (flaggedValues.length > 0) flagged = unionOfSpans(flagged, flaggedValues);
    const info = { urls: reported, count };
    if (action === 'redact') {
      const kept: string[] = [];
      let cursor = 0;
      for (let index = 0; index < flagged.length; index++) {
        kept.push(content.slice(cursor, flagged.start(index)), replacement);
        cursor = flagged.end(index);
      }
      kept.push(content.slice(cursor));
      return modify(kept.join(''), info);
    }
    const [first] = reported;
    return block({
      message,
      reason: `${first!.url}: ${first!.rule}`,
      severity: 'warning',
      info,
    });
  }
}

/**
 * The rule a name broke by its lookup's answers (`null`: none): a private
 * or local address, or no usable answer (fail closed). Every answer is read.
 */
function answersRule(host: string, answers: unknown): string | null {
  const shown = shownHost(host);
  if (!Array.isArray(answers) || answers.length === 0) {
    return `host "${shown}" was looked up to no address: not judged`;
  }
  for (const answer of answers) {
    const address = answerAddress(answer);
    if (address === undefined) {
      return `host "${shown}" was looked up to a value that is no IP address: not judged`;
    }
    if (isPrivateHost(address))
      return `host "${shown}" resolves to ${shownHost(address)}: private or local`;
  }
  return null;
}

/**
 * An answer as the URL parser writes its address (`127.0.0.1`, `[::1]`):
 * a string, or an object's `address` (Node's `lookup`), of hex digits, dots
 * and colons, maybe with a zone (`fe80::1%eth0`, judged as its address);
 * anything else is `undefined`.
 */
function answerAddress(answer: unknown): string | undefined {
  const written =
    typeof answer === 'string'
      ? answer
      : typeof answer === 'object' && answer !== null && 'address' in answer
        ? answer.address
        : undefined;
  if (typeof written !== 'string') return undefined;
  const address = written.split('%', 1)[0]!;
  if (!/^[0-9a-f:.]{2,45}$/i.test(address)) return undefined;
  try {
    const host = new URL(`http://${address.includes(':') ? `[${address}]` : address}`).hostname;
    return isIpHost(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

/** The spans of `a` and `b` (each in text order), overlapping ones made one. */
function unionOfSpans(a: SpanList<undefined>, b: SpanList<undefined>): SpanList<undefined> {
  const union = new SpanList<undefined>();
  let i = 0;
  let j = 0;
  let open = -1;
  let close = -1;
  while (i < a.length || j < b.length) {
    const fromA = j >= b.length || (i < a.length && a.start(i) <= b.start(j));
    const start = fromA ? a.start(i) : b.start(j);
    const end = fromA ? a.end(i++) : b.end(j++);
    if (open >= 0 && start < close) {
      close = Math.max(close, end);
      continue;
    }
    if (open >= 0) union.push(open, close, undefined);
    open = start;
    close = end;
  }
  if (open >= 0) union.push(open, close, undefined);
  return union;
}
