import { z } from 'zod';
import type { Guardrail, GuardrailContext, GuardrailKind } from '../src';

/**
 * Hostile inputs for the linear-time guarantee of the built-in guardrails:
 * texts an attacker can write to make a scanner, a regex or a tokenizer do
 * more than linear work. Shared by `test/hostile-input.test.ts` (which fails
 * when 1 MB costs more than 6x 0.25 MB) and `bench/hostile.ts` (which reports
 * hostile / ordinary time per built-in).
 */

/** A hostile text of (about) `size` UTF-16 units. */
export interface HostileGenerator {
  name: string;
  make(size: number): string;
}

/** `unit` repeated to `size` units, cut on a code point boundary. */
export function repeatTo(unit: string, size: number): string {
  const text = unit.repeat(Math.ceil(size / unit.length));
  const cut = text.slice(0, size);
  // Do not leave half a surrogate pair at the end.
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** `open` repeated, then `close` repeated: nesting as deep as the size allows. */
function nested(open: string, close: string, size: number): string {
  const depth = Math.floor(size / (open.length + close.length));
  return open.repeat(depth) + close.repeat(depth);
}

/** `head`, then `line` on ever-deeper indentation until `size` characters. */
function staircase(head: string, line: string, size: number): string {
  const parts = [head];
  let length = head.length;
  for (let depth = 1; length < size; depth++) {
    const next = `${' '.repeat(depth)}${line}`;
    parts.push(next);
    length += next.length;
  }
  return parts.join('').slice(0, size);
}

/** `size` characters of `alphabet` (one UTF-16 unit each) in a fixed pseudo-random order: the same text on every run. */
function randomOf(alphabet: string, size: number): string {
  let seed = 0x2545f491;
  const units = new Array<string>(size);
  for (let i = 0; i < size; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    units[i] = alphabet[(seed >>> 8) % alphabet.length]!;
  }
  return units.join('');
}

const repeated = (name: string, unit: string): HostileGenerator => ({
  name,
  make: size => repeatTo(unit, size),
});

/** Text generators: every built-in judges each of them at every kind it supports. */
export const hostileGenerators: readonly HostileGenerator[] = [
  // Repeated separators.
  repeated('spaces', ' '),
  repeated('newlines', '\n'),
  repeated('separator mix', ' -_.,;:|/\\\t'),
  repeated('dash-dot', '-. '),
  // Long digit and letter runs.
  repeated('digit run', '0123456789'),
  repeated('digit groups', '4111 '),
  repeated('digit groups joined by _', '4111_'),
  repeated('digit groups joined by spaced dashes', '4111 - '),
  repeated('phone-like', '+1 (555) 010-'),
  repeated('letter run', 'a'),
  // @ . : floods.
  repeated('@ flood', '@'),
  repeated('a@ flood', 'a@'),
  repeated('e-mail-like', 'a@b.'),
  // An invisible character after each '@' (normalised away, leaving `a@a@…`):
  // 1-2 MB stalled findPii for 3-29 s in round 32 when other texts ran first.
  repeated('zero-width in an @ flood', 'a@\u200B'),
  repeated('zero-width @ flood', '@\u200B'),
  repeated('. flood', '.'),
  repeated(': flood', ':'),
  repeated('hex: flood (IPv6/MAC-like)', 'ab:'),
  // Nested brackets and comments.
  { name: 'nested parentheses', make: size => nested('(', ')', size) },
  { name: 'nested brackets', make: size => nested('[{', '}]', size) },
  repeated('unclosed block comments', '/* '),
  repeated('line comments', '-- x\n'),
  repeated('code fences', '```\n'),
  // Emoji, base64, invisible characters, homoglyphs.
  repeated('flag emoji', '🇺🇸'),
  repeated('subdivision flags', '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'),
  repeated('ZWJ emoji', '👩\u200D💻'),
  // Keycaps (round 34): a digit, VS16 and the enclosing keycap mark, which the
  // normaliser reads through, so a flood is one long digit run (and, mixed with
  // digits, blanks and dashes, card- and phone-shaped groups) to the detectors.
  repeated('keycap flood', '1\uFE0F\u20E3'),
  repeated('keycaps mixed with digits', '1\uFE0F\u20E32 3\uFE0F\u20E3-45 6\u20E3'),
  repeated('base64 run', 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3'),
  repeated('base64 chunks', 'aWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM= '),
  repeated('zero-width between letters', 'a\u200B'),
  repeated('tag characters', '\u{E0041}'),
  repeated('Cyrillic homoglyphs', 'аеорсух'),
  repeated('full-width digits', '４１１１'),
  repeated(
    'injection markup mix',
    `ignore <!-- ${'a'.repeat(40)} %41%41 aGVsbG8gd29ybGQh \u200b\u{E0041} `,
  ),
  repeated('leetspeak', '1gn0r3 '),
  repeated('spaced letters', 'k i l l '),
  // URLs and domain lists.
  repeated('domain list', 'x.com '),
  repeated('glued domains', 'a.b.c.d.e.f.g.h.i.j.k.'),
  repeated('scheme flood', 'http://'),
  { name: 'one long URL', make: size => `https://example.com/${repeatTo('a/', size - 20)}` },
  {
    name: 'long URLs with punctuation',
    make: size => repeatTo(`https://evil.io/${'.'.repeat(2_000)}x `, size),
  },
  repeated('userinfo URLs', 'https://u:p@h.io/?t=1 '),
  // Round 35: a URL ending with its IPv6 host keeps its `]` (a look back per URL).
  repeated('IPv6 URLs', 'http://[fd00::1] http://[::ffff:7f00:1]] ([::1]) '),
  // Round 35: contentFilter reads Markdown as shown: emphasis markers beside letters,
  // brackets and link destinations not there, character references as their characters.
  repeated('Markdown emphasis', '**k**i_l_l ~~y~~`o`u *** [a](b) ](x &#107;&nbsp;['),
  // Secrets- and injection-shaped repetitions.
  repeated('key prefixes', 'sk-ghp_AKIA'),
  repeated('assignments', 'password=secret; '),
  // In tool JSON each quote and line break is an escape that secrets decodes.
  repeated('quoted assignments on lines', 'token: "Zx9kQ2mLp7Wv"\n'),
  repeated('Kubernetes Secret data', 'kind: Secret\ndata:\n  k: dmFsdWU=\n'),
  // One line of `kind:` (a manifest in a JSON string reads so): 17.5 s per MB before.
  repeated('kind: on one line', 'kind: x ata:'),
  // SQL WHEREs: each condition is evaluated; a string of spaces was quadratic (80 KB: 6 s).
  {
    name: 'SQL WHERE of literals',
    make: size => `DELETE FROM t WHERE ${repeatTo('(1+1=2) AND -', size - 20)}`,
  },
  {
    name: 'SQL string of spaces',
    make: size => `DELETE FROM t WHERE 'a' = '${repeatTo(' ', size - 30)}x'`,
  },
  // Round 23: IN lists, LIKE patterns and CASE are evaluated; nesting past 256 fails closed.
  {
    name: 'SQL IN list',
    make: size => `DELETE FROM t WHERE id IN (${repeatTo('12345,', size - 30)}1)`,
  },
  {
    name: 'SQL LIKE of wildcards',
    make: size => {
      const half = Math.floor(size / 2) - 20;
      return `DELETE FROM t WHERE '${'a'.repeat(half)}' LIKE '%${repeatTo('a_', half)}b%'`;
    },
  },
  {
    name: 'SQL LIKE of percent runs',
    make: size => {
      const half = Math.floor(size / 2) - 20;
      return `DELETE FROM t WHERE '${'a'.repeat(half)}' LIKE '${repeatTo('%a', half)}%b'`;
    },
  },
  {
    name: 'SQL CASE branches',
    make: size => `DELETE FROM t WHERE CASE ${repeatTo('WHEN id = 1 THEN 1 ', size - 30)}END = 1`,
  },
  {
    name: 'SQL nested parentheses',
    make: size => `DELETE FROM t WHERE ${nested('(', ')', size - 30)}`,
  },
  // Round 24: ARRAY[…] in every reading (`#`), unread operators restarting at each OR, "…" with ||.
  {
    name: 'SQL ANY of an array',
    make: size => `DELETE FROM t WHERE id = ANY(ARRAY[${repeatTo('1,', size - 40)}1]) # x`,
  },
  {
    name: 'SQL unread operators between ORs',
    make: size => `DELETE FROM t WHERE ${repeatTo('a @> b OR ', size - 30)}id = 1`,
  },
  {
    name: 'SQL quoted strings joined',
    make: size =>
      `DELETE FROM t WHERE ${repeatTo('"a" || "b" = c AND CAST(x AS int) > ', size - 30)}1`,
  },
  // The JSON form (round 16): every "kind" tried for "Secret", every "data": { read member by member.
  repeated(
    'JSON Secret kinds and data objects',
    '{"kind":"Secret","data":{"k":"dmFsdWU9PT09PQ==",',
  ),
  repeated('JSON kind keys', '"kind" :'),
  repeated('YAML list Secret kinds', '- kind: Secret # c\n- data: # c\n    k: dmFsdWU9PT09PQ==\n'),
  {
    name: 'Kubernetes Secret staircase',
    make: size => staircase('kind: Secret\n', 'data:\n', size),
  },
  // Phone words and name-shaped text (the pii phone rule and NER tagger).
  repeated('phone words', 'call me on 12 '),
  repeated('capitalised words', 'Anna Maria Rose Street '),
  repeated('title-case run', 'Xy'),
  // Shell and SQL shapes.
  repeated('rm flags', 'rm --a '),
  repeated('curl without pipe', 'curl '),
  repeated('pipes', '| '),
  repeated('SQL keywords', 'delete from t where '),
  // Random runs without whitespace (round 32): each 256-character slice
  // tokenBudget counts is one pre-token whose byte-pair merge was quadratic
  // (1 MB: lowercase 2.0 s, CJK 4.5 s, punctuation 1.6 s; ordinary text 0.15 s).
  { name: 'random lowercase letters', make: size => randomOf('abcdefghijklmnopqrstuvwxyz', size) },
  {
    name: 'random CJK ideographs',
    make: size =>
      randomOf(
        Array.from({ length: 4_096 }, (_, i) => String.fromCharCode(0x4e00 + i * 5)).join(''),
        size,
      ),
  },
  { name: 'random punctuation', make: size => randomOf('!@#$%^&*()-_=+[]{};:,.<>/?', size) },
  // Markup that never closes (round 36): contentFilter reads a tag as
  // CommonMark does, up to the next `<`, and a reference's name or digits.
  repeated('tags never closed', '<a'),
  repeated('quoted attribute values never closed', '<a b="'),
  repeated('attributes never closed', '<a b=c d '),
  repeated('references without semicolons', '&nbspx&#107&#x6b&eacute'),
];

/**
 * Tool-argument JSON generators (for `tool_input` / `tool_output`): the text
 * and the parsed value, as `guardTools` hands them to a guardrail.
 */
export interface HostileJsonGenerator {
  name: string;
  make(size: number): { text: string; value: unknown };
}

function jsonOf(text: string): { text: string; value: unknown } {
  return { text, value: JSON.parse(text) };
}

export const hostileJsonGenerators: readonly HostileJsonGenerator[] = [
  {
    name: 'deep JSON objects',
    make: size => {
      const depth = Math.floor((size - 4) / 7);
      return jsonOf(`${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`);
    },
  },
  { name: 'deep JSON arrays', make: size => jsonOf(`${nested('[', ']', size - 2)}`) },
  {
    name: 'wide JSON array of strings',
    make: size =>
      jsonOf(
        `[${Array<string>(Math.floor(size / 11))
          .fill('"select 1"')
          .join(',')}]`,
      ),
  },
  {
    name: 'one huge string argument',
    make: size => jsonOf(JSON.stringify({ query: repeatTo('/* rm --a ', size - 20) })),
  },
  // Round 18: secrets at tool kinds read these at 1.0-1.7 s per MB (~50x prose).
  {
    name: 'JSON array of quoted blanks',
    make: size => jsonOf(JSON.stringify(Array<string>(Math.floor(size / 8)).fill('" "'))),
  },
  {
    name: 'JSON Kubernetes Secret objects',
    make: size =>
      jsonOf(
        `[${Array<string>(Math.floor(size / 51))
          .fill('{"kind":"Secret","data":{"k":"dmFsdWU9PT09PQ=="}}')
          .join(',')}]`,
      ),
  },
  {
    name: 'many keys',
    make: size => {
      const count = Math.floor(size / 12);
      const entries = Array.from({ length: count }, (_, index) => `"k${index}":1`);
      return jsonOf(`{${entries.join(',')}}`);
    },
  },
];

/** A built-in at one kind (or a pure function), run on a text and, for tool kinds, its parsed value. */
export interface HostileTarget {
  /** `pii @ input`, `findPii`. */
  name: string;
  /** The built-in it belongs to, for per-built-in reports. */
  builtin: string;
  /** Whether it reads tool arguments (then the JSON generators apply too). */
  toolArguments: boolean;
  run(text: string, value?: unknown): unknown;
}

function contextFor(kind: GuardrailKind, value: unknown): GuardrailContext {
  return {
    kind,
    messages: [],
    abortSignal: new AbortController().signal,
    metadata: {},
    state: new Map(),
    ...(kind === 'tool_input' || kind === 'tool_output'
      ? { toolName: 'run', toolCallId: 'c1' }
      : {}),
    ...(value === undefined ? {} : { value }),
  };
}

function atKinds(
  builtin: string,
  create: () => Promise<Guardrail>,
  kinds: GuardrailKind[],
): HostileTarget[] {
  // Imported and built on first use, so one module's failure (or a work in
  // progress that does not load) is reported by its own targets only.
  let built: Promise<Guardrail> | undefined;
  return kinds.map(kind => ({
    name: `${builtin} @ ${kind}`,
    builtin,
    toolArguments: kind === 'tool_input',
    // A fresh context per run: guardrails keep per-call state in it.
    run: async (text, value) => {
      built ??= create();
      return (await built).check(text, contextFor(kind, value));
    },
  }));
}

function pure(name: string, load: () => Promise<(text: string) => unknown>): HostileTarget {
  let loaded: Promise<(text: string) => unknown> | undefined;
  return {
    name,
    builtin: name,
    toolArguments: false,
    run: async text => {
      loaded ??= load();
      return (await loaded)(text);
    },
  };
}

/**
 * Every deterministic built-in at the kinds whose code paths differ (pii
 * treats output and tool input apart from input; promptInjection judges
 * tool output as indirect injection; urlFilter checks private hosts on tool
 * input), and the pure detectors. Built fresh per call, so no memo or state
 * carries over between measurements.
 */
export function hostileTargets(): HostileTarget[] {
  return [
    ...atKinds('pii', async () => (await import('../src/guards/pii/pii')).pii(), [
      'input',
      'output',
    ]),
    // At tool input it also reads the JSON's strings decoded (a second scan of another text).
    ...atKinds('secrets', async () => (await import('../src/guards/secrets/secrets')).secrets(), [
      'output',
      'tool_input',
    ]),
    ...atKinds(
      'promptInjection',
      async () =>
        (await import('../src/guards/prompt-injection/prompt-injection')).promptInjection(),
      ['input', 'tool_output'],
    ),
    ...atKinds(
      'toolPoisoning',
      async () =>
        (await import('../src/guards/tool-poisoning/tool-poisoning')).toolPoisoning({
          maxLength: 4_000_000,
        }),
      ['tool_definition'],
    ),
    ...atKinds(
      'invisibleText',
      async () => (await import('../src/guards/invisible-text/invisible-text')).invisibleText(),
      ['input'],
    ),
    ...atKinds(
      'contentFilter',
      async () => (await import('../src/guards/content-filter/content-filter')).contentFilter(),
      ['output'],
    ),
    ...atKinds(
      'urlFilter',
      async () =>
        (await import('../src/guards/url-filter/url-filter')).urlFilter({ allow: ['example.com'] }),
      ['output', 'tool_input'],
    ),
    ...atKinds(
      'toolPolicy',
      async () => (await import('../src/guards/tool-policy/tool-policy')).toolPolicy(),
      ['tool_input'],
    ),
    ...atKinds(
      'outputSchema',
      async () =>
        (await import('../src/guards/output-schema/output-schema')).outputSchema({
          schema: z.object({ answer: z.string() }),
        }),
      ['output'],
    ),
    ...atKinds(
      'tokenBudget',
      async () =>
        (await import('../src/guards/token-budget/token-budget')).tokenBudget({
          maxInputTokens: 1_000_000_000,
        }),
      ['input'],
    ),
    pure('findPii', async () => {
      const { findPii } = await import('../src/guards/pii/find-pii-bundled');
      return text => findPii(text);
    }),
    pure('findPii (all entities, NER tagger)', async () => {
      const { findPii } = await import('../src/guards/pii/find-pii-bundled');
      return text => findPii(text, { entities: 'all' });
    }),
    ...atKinds(
      'expression',
      async () =>
        (await import('../src/guards/expression/expression')).expression({
          expr: '!content.matches("(a+)+b") && !content.contains("drop table")',
          // Above the 1,000,000-character default, so 1 MB is evaluated, not blocked unread.
          maxInputLength: 4 * 2 ** 20,
        }),
      ['input'],
    ),
    pure('scoreHarmful', async () => {
      const { scoreHarmful } = await import('../src/guards/harmful-content/score-harmful');
      return text => scoreHarmful(text);
    }),
    pure('findSecrets', async () => {
      const { findSecrets } = await import('../src/guards/secrets/find-secrets');
      return text => findSecrets(text);
    }),
    pure('scorePromptInjection', async () => {
      const { scorePromptInjection } = await import(
        '../src/guards/prompt-injection/score-prompt-injection'
      );
      return text => scorePromptInjection(text);
    }),
  ];
}
