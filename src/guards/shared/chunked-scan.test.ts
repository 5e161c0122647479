import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { generateResult } from '../../../test/helpers';
import { runChain } from '../../core/chain';
import { chainEnded, chainEntered, chainLeft, chainStarted } from '../../core/chain-memo';
import { guardrails } from '../../middleware/guardrails-middleware';
import { findPiiInChunks, findPiiNormalized } from '../pii/find-pii';
import { findPii } from '../pii/find-pii-bundled';
import { pii } from '../pii/pii';
import { scanSecrets, scanSecretsInChunks, scanSecretsNormalized } from '../secrets/find-secrets';
import { secrets } from '../secrets/secrets';
import {
  chunkedScanFrom,
  flatString,
  type PiecesRead,
  redactedTextSource,
  scanInChunks,
  type TextSource,
} from './chunked-scan';
import { holdsFlatMark, markFlat } from './flat-string';
import {
  type NormalizedText,
  normalizationPoints,
  normalizePiece,
  normalizeText,
} from './normalize-text';
import { type DetectedSpan, replaceSpans } from './spans';

// Values of every kind the chain finds, some obfuscated (the normal form
// differs from the text), some placeholders secrets skips and counts.
const values = [
  'jane.doe@example.com',
  'call +44 20 7946 0958',
  '(415) 555-2671',
  'card 4111 1111 1111 1111',
  'card ４１１１ １１１１ １１１１ １１１１',
  'card 4111\u200B1111\u200B1111\u200B1111',
  'IBAN GB82 WEST 1234 5698 7654 32',
  'server 10.0.0.12 port 8080',
  'https://docs.example.org/guide?page=2',
  'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
  'password = "Tr0ub4dor&3xyz"',
  'API_KEY=<your-key-here>',
  'a\u00A0dash\u2013and\u2014another',
];
const words = ['the', 'order', 'shipped', 'to', 'our', 'customer', 'account', 'report', 'and'];

/** About `length` characters of prose with values, lines of random length: every cut falls somewhere new. */
function textWithValues(length: number, seed: number, lineBreaks = true): string {
  const next = seededRandom(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const roll = next();
    const part =
      roll < 0.08
        ? values[Math.floor(next() * values.length)]!
        : roll < 0.11 && lineBreaks
          ? '\n'
          : words[Math.floor(next() * words.length)]!;
    parts.push(part);
    size += part.length + 1;
  }
  return parts.join(' ');
}

/** What one scan of the whole text finds (the path for short texts). */
const wholePii = (text: string) => findPiiNormalized(normalizeText(text));
const wholeSecrets = (text: string) => scanSecretsNormalized(normalizeText(text));

describe('long texts are scanned in pieces with the findings of one whole scan', () => {
  it('findPii and scanSecrets on texts of 150 KB to 400 KB, with and without line breaks', () => {
    for (const [seed, length, lineBreaks] of [
      [1, 150_000, true],
      [2, 400_000, true],
      [3, 260_000, false],
    ] as const) {
      const text = textWithValues(length, seed, lineBreaks);
      // Read in pieces indeed (else this compares the whole scan with itself).
      expect(findPiiInChunks(text)).toBeDefined();
      expect(scanSecretsInChunks(text)).toBeDefined();
      const spans = findPii(text);
      expect(spans.length).toBeGreaterThan(1_000);
      expect(spans).toEqual(wholePii(text));
      const scan = scanSecrets(text);
      expect(scan.spans.length).toBeGreaterThan(100);
      expect(scan.placeholdersSkipped).toBeGreaterThan(100);
      expect(scan).toEqual(wholeSecrets(text));
    }
  });

  it('a value on a seam, at every offset around it', () => {
    // The first cut is at the last line break before 57,344: the one after
    // the value, or at 57,000. The value lies at each offset around it.
    const value = 'mail jane.doe@example.com or card 4111 1111 1111 1111 pass="Tr0ub4dor&3xyz"';
    for (let shift = -80; shift <= 80; shift += 7) {
      const before = `${'word '.repeat(11_400)}\n`.slice(0, 57_000 + shift);
      const text = `${before}${value}\n${'more text – '.repeat(20_000)}`;
      expect(findPiiInChunks(text)).toBeDefined();
      expect(findPii(text)).toEqual(wholePii(text));
      expect(scanSecrets(text)).toEqual(wholeSecrets(text));
    }
  });

  it('texts shorter than chunkedScanFrom, and printable ASCII, are scanned whole', () => {
    const text = textWithValues(chunkedScanFrom - 2_000, 4);
    expect(text.length).toBeLessThan(chunkedScanFrom);
    expect(findPiiInChunks(text)).toBeUndefined();
    expect(scanSecretsInChunks(text)).toBeUndefined();
    // Its own normal form: scanned whole, it is not copied.
    const ascii = 'mail jane.doe@example.com today\n'.repeat(10_000);
    expect(findPiiInChunks(ascii)).toBeUndefined();
    expect(scanSecretsInChunks(ascii)).toBeUndefined();
    expect(findPiiInChunks(`${ascii}–`)).toBeDefined();
  });

  it('a PEM block longer than the overlap is found whole: the text is scanned whole', () => {
    const body = Array.from({ length: 120 }, (_, line) =>
      `MIIEowIBAAKCAQEA${line.toString(36).padStart(4, 'q')}7s3Hf9Kx2Lm4Np6Qr8Tv0Wy1Za3Bc5De7Fg9`.slice(
        0,
        64,
      ),
    ).join('\n');
    const key = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
    const text = `${'word – '.repeat(8_000)}\n${key}\n${'more text '.repeat(20_000)}`;
    expect(scanSecretsInChunks(text)).toBeUndefined();
    const start = text.indexOf('-----BEGIN');
    expect(scanSecrets(text).spans).toEqual([
      { type: 'PRIVATE_KEY', start, end: start + key.length },
    ]);
  });

  it('a Kubernetes Secret declared far above its data block: the text is scanned whole', () => {
    const manifest = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n';
    const data = 'data:\n  settings: c3VwZXJzZWNyZXRwYXNzd29yZDEyMw==\n';
    const text = `${manifest}${'# note – \n'.repeat(20_000)}${data}`;
    expect(scanSecretsInChunks(text)).toBeUndefined();
    // The data block alone is no Secret: a piece without the manifest's head finds nothing.
    expect(scanSecrets(data).spans).toEqual([]);
    const start = text.indexOf('c3Vw');
    expect(scanSecrets(text).spans).toEqual([
      { type: 'KUBERNETES_SECRET', start, end: start + 'c3VwZXJzZWNyZXRwYXNzd29yZDEyMw=='.length },
    ]);
  });

  it('invisible characters across a seam leave no piece without context: the text is scanned whole', async () => {
    // The first seam falls at 57,344 (no line break or blank before it):
    // 6,500 zero-width spaces around it put `kind` and `: Secret`, `-----`
    // and `BEGIN`, in no piece together, though the normal form joins them.
    const filler = '# note – a line of filler text here\n'.repeat(1_500);
    const zeroWidth = '\u200B'.repeat(6_500);
    const manifest = `${filler}apiVersion: v1\nkind${zeroWidth}: Secret\nmetadata:\n  name: db\n${'# more – \n'.repeat(10_000)}data:\n  settings: c3VwZXJzZWNyZXRwYXNzd29yZDEyMw==\n`;
    const body = Array.from({ length: 20 }, (_, line) =>
      `MIIEowIBAAKCAQEA${line.toString(36).padStart(4, 'q')}7s3Hf9Kx2Lm4Np6Qr8Tv0Wy1Za3Bc5De7Fg9`.slice(
        0,
        64,
      ),
    ).join('\n');
    const key = `-----${zeroWidth}BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
    const pem = `${filler}${key}\n${'# more – \n'.repeat(10_000)}`;
    for (const text of [manifest, pem]) {
      expect(scanSecretsInChunks(text)).toBeUndefined();
      expect(scanSecrets(text)).toEqual(wholeSecrets(text));
    }
    const value = manifest.indexOf('c3Vw');
    expect(scanSecrets(manifest).spans).toEqual([
      { type: 'KUBERNETES_SECRET', start: value, end: value + 32 },
    ]);
    expect(scanSecrets(pem).spans).toEqual([
      { type: 'PRIVATE_KEY', start: filler.length, end: filler.length + key.length },
    ]);
    // What the model reads of each through generateText and secrets().
    const received: string[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async (options: LanguageModelV4CallOptions) => {
        const user = options.prompt[0]!;
        received.push(
          user.role === 'user' && user.content[0]!.type === 'text' ? user.content[0]!.text : '',
        );
        return generateResult('ok');
      },
    });
    const guarded = wrapLanguageModel({
      model,
      middleware: guardrails({ input: [secrets({ action: 'redact' })] }),
    });
    await generateText({ model: guarded, prompt: manifest });
    await generateText({ model: guarded, prompt: pem });
    expect(received).toEqual([
      manifest.replace('c3VwZXJzZWNyZXRwYXNzd29yZDEyMw==', '[KUBERNETES_SECRET]'),
      pem.replace(key, '[PRIVATE_KEY]'),
    ]);
  });

  it('pieces that disagree at a seam give way to the whole scan', () => {
    const text = 'xé'.repeat(100_000);
    // Findings every 1,000 characters from where a piece's text begins: the
    // pieces on either side of a seam begin at different places.
    const fromItsStart = (piece: string) => ({
      spans: Array.from({ length: Math.floor(piece.length / 1_000) }, (_, index) => ({
        type: 'X',
        start: index * 1_000,
        end: index * 1_000 + 1,
      })),
    });
    expect(scanInChunks(text, fromItsStart)).toBeUndefined();
    // A finding each piece sees the same (each 'a'): pieces agree.
    const text2 = 'abcdefghié'.repeat(20_000);
    const everyA = (piece: string) => {
      const spans: DetectedSpan[] = [];
      for (let at = piece.indexOf('a'); at >= 0; at = piece.indexOf('a', at + 1)) {
        spans.push({ type: 'A', start: at, end: at + 1 });
      }
      return { spans };
    };
    const found = scanInChunks(text2, everyA);
    expect(found?.spans.length).toBe(20_000);
    expect(found?.spans.every((span, index) => span.start === index * 10)).toBe(true);
  });
});

describe('pieces of a string read twice in a chain run (round 37)', () => {
  /** `scanInChunks` of `text`, finding each `needle`, with the normal forms its pieces were given. */
  const readPieces = (text: string, needle: string) => {
    const forms: NormalizedText[] = [];
    const found = scanInChunks(text, (_piece, _points, normalized) => {
      forms.push(normalized);
      const spans: DetectedSpan[] = [];
      for (let at = normalized.text.indexOf(needle); at >= 0; ) {
        spans.push({ type: 'X', start: at, end: at + needle.length });
        at = normalized.text.indexOf(needle, at + 1);
      }
      return { spans, normalForm: normalized };
    });
    return { forms, spans: found?.spans };
  };

  /** `work` inside a chain run (as `runChain` runs a check). */
  const inChainRun = (work: () => void) => {
    const run = chainStarted();
    const outer = chainEntered(run);
    try {
      work();
    } finally {
      chainLeft(outer);
      chainEnded(run);
    }
  };
  const dashes = 'a line of text \u2013 with a dash\n'.repeat(8_000);

  it("the next reader of the same string gets the pieces' normal forms of a reader that found nothing, once", () => {
    const text = dashes;
    inChainRun(() => {
      const first = readPieces(text, 'nowhere');
      expect(first.spans).toEqual([]);
      expect(first.forms.length).toBe(5);
      // Each is the piece's own normal form (the dash folded).
      for (const form of first.forms) {
        expect(form.text).toBe(normalizeText(form.original).text);
        expect(form.text.includes('\u2013')).toBe(false);
      }
      const second = readPieces(text, 'dash');
      expect(second.forms.length).toBe(5);
      expect(second.forms.every((form, index) => form === first.forms[index])).toBe(true);
      expect(second.spans?.length).toBe(8_000);
      expect(second.spans?.[0]).toEqual({ type: 'X', start: 24, end: 28 });
      // Taken by the second reader: a third normalises again.
      const third = readPieces(text, 'dash');
      expect(third.forms.every((form, index) => form !== first.forms[index])).toBe(true);
      expect(third.forms.map(form => form.text)).toEqual(first.forms.map(form => form.text));
      expect(third.spans).toEqual(second.spans);
    });
  });

  it('a reader that found something, another string or no chain run: nothing is handed on', () => {
    const text = dashes;
    inChainRun(() => {
      const finding = readPieces(text, 'dash');
      const next = readPieces(text, 'dash');
      expect(next.forms.some(form => finding.forms.includes(form))).toBe(false);
      const clean = readPieces(text, 'nowhere');
      // The same characters, another string: read on its own.
      const other = readPieces(text.slice(1), 'nowhere');
      expect(other.forms.some(form => clean.forms.includes(form))).toBe(false);
    });
    const outside = readPieces(text, 'nowhere');
    expect(readPieces(text, 'nowhere').forms.some(form => outside.forms.includes(form))).toBe(
      false,
    );
  });

  it('pii() finding nothing, then secrets(): what secrets() finds alone, on long text of values', async () => {
    const context = () => ({
      kind: 'input' as const,
      messages: [],
      metadata: {},
      state: new Map(),
    });
    for (const seed of [1, 2, 3]) {
      const withValues = textWithValues(300_000, seed);
      // The personal data taken out: pii() passes the very string on.
      const text = replaceSpans(withValues, findPii(withValues), () => 'redacted');
      expect(findPii(text)).toEqual([]);
      const alone = await runChain([secrets({ action: 'redact' })], text, context());
      const chained = await runChain([pii(), secrets({ action: 'redact' })], text, context());
      expect(chained.records[0]!.status).toBe('passed');
      expect(chained.records[1]!.status).toBe('modified');
      expect(chained.records[1]!.info).toEqual(alone.records[0]!.info);
      expect(chained.content).toBe(alone.content);
    }
  });
});

describe('pieces pii() found nothing in, read again in its redaction (round 40)', () => {
  /** `scanInChunks` of `source` finding each `needle`, with the normal forms its pieces were given. */
  const readPieces = (source: TextSource, needle: string, keepPieceForms = false) => {
    const forms: NormalizedText[] = [];
    const found = scanInChunks(
      source,
      (_piece, _points, normalized) => {
        forms.push(normalized);
        const spans: DetectedSpan[] = [];
        for (let at = normalized.text.indexOf(needle); at >= 0; ) {
          const { start, end } = normalized.toOriginalSpan(at, at + needle.length);
          spans.push({ type: 'X', start, end });
          at = normalized.text.indexOf(needle, at + 1);
        }
        return { spans, normalForm: normalized };
      },
      { keepPieceForms },
    );
    return { forms, found };
  };
  // Lines whose normal form differs from them (the dash folded), a value in the first piece only.
  const line = 'a line of text \u2013 with a dash\n';
  const text = `${line.repeat(100)}mail VALUE-ONE here\n${line.repeat(10_000)}`;

  it('the redaction gets the normal forms of the pieces the first reader found nothing in, once', () => {
    const points = normalizationPoints(text);
    const first = readPieces(text, 'VALUE-ONE', true);
    const spans = first.found!.spans;
    expect(spans).toEqual([{ type: 'X', start: 2_905, end: 2_914 }]);
    expect(first.forms.length).toBe(6);
    // Kept: every piece but the first (which found the value), by where it starts.
    const kept = first.found!.pieces!;
    expect([...kept.forms.values()].map(form => form.normalized)).toEqual(first.forms.slice(1));
    const redacted = replaceSpans(text, spans, () => '<V>');
    const source = redactedTextSource(text, spans, () => '<V>', points, kept);
    const second = readPieces(source, 'dash');
    // The same cuts: each piece after the first is the first reader's, moved by the placeholder.
    expect(second.forms.length).toBe(6);
    expect(second.forms[0]).not.toBe(first.forms[0]);
    expect(second.forms.slice(1).every((form, index) => form === first.forms[index + 1])).toBe(
      true,
    );
    expect(kept.forms.size).toBe(0);
    // What the redacted text read as a string gives (each piece normalised again).
    const plain = readPieces(redacted, 'dash');
    expect(plain.forms.slice(1).some(form => first.forms.includes(form))).toBe(false);
    expect(plain.forms.map(form => form.text)).toEqual(second.forms.map(form => form.text));
    expect(second.found!.spans.length).toBe(10_100);
    expect(second.found!.spans).toEqual(plain.found!.spans);
    // Given once: the source read again normalises every piece.
    const third = readPieces(source, 'dash');
    expect(third.forms.some(form => first.forms.includes(form))).toBe(false);
    expect(third.found!.spans).toEqual(plain.found!.spans);
  });

  it('a cut its placeholders moved past the target length is still where the redaction is cut (round 41)', () => {
    // Blocks of 57,339 characters, each ending with its only line break: the first reader cuts after each.
    const block = (head: string) =>
      `${head}${'a dash \u2013 word '.repeat(4_200)}`.slice(0, 57_338);
    const original = `${block('mail VALUE-ONE here ')}\n${`${block('')}\n`.repeat(4)}`;
    const first = readPieces(original, 'VALUE-ONE', true);
    const spans = first.found!.spans;
    expect(spans).toEqual([{ type: 'X', start: 5, end: 14 }]);
    expect(first.found!.pieces!.cuts).toEqual([57_339, 114_678, 172_017, 229_356]);
    // A placeholder 10 characters longer than the value: the first cut moves to 57,349, past 57,344.
    const placeholder = '<VALUE-PLACEHOLDER>';
    const source = redactedTextSource(
      original,
      spans,
      () => placeholder,
      normalizationPoints(original),
      first.found!.pieces,
    );
    expect(source.earlierCuts![0]).toBe(57_349);
    const second = readPieces(source, 'dash');
    // Cut where the first reader cut: every piece after the first is given its normal form.
    expect(second.forms.length).toBe(5);
    expect(second.forms.slice(1).every((form, index) => form === first.forms[index + 1])).toBe(
      true,
    );
    const plain = readPieces(
      replaceSpans(original, spans, () => placeholder),
      'dash',
    );
    expect(second.found!.spans).toEqual(plain.found!.spans);
    expect(second.found!.spans.length).toBe(20_478);
  });

  it('readNormalForm: only a stretch holding no placeholder that is a kept piece, moved', () => {
    const original = 'x'.repeat(100);
    const form = normalizeText('y');
    const kept = () => ({
      forms: new Map([[40, { end: 60, normalized: form }]]),
      cuts: [5, 12, 15, 40, 60],
    });
    // A span before the piece, its placeholder 3 characters shorter: the piece sits 3 earlier.
    const before = [{ type: 'X', start: 10, end: 15 }];
    const source = redactedTextSource(original, before, () => '<>', undefined, kept());
    // The cuts moved too, but the one inside the span.
    expect([...source.earlierCuts!]).toEqual([5, 12, 37, 57]);
    expect(source.readNormalForm!(37, 56)).toBe(undefined);
    expect(source.readNormalForm!(40, 60)).toBe(undefined);
    expect(source.readNormalForm!(37, 57)).toBe(form);
    expect(source.readNormalForm!(37, 57)).toBe(undefined);
    // A placeholder inside the stretch, at its start, or ending in it: not the piece's characters.
    for (const spans of [
      [{ type: 'X', start: 50, end: 50 }],
      [{ type: 'X', start: 40, end: 45 }],
      [{ type: 'X', start: 30, end: 42 }],
    ]) {
      const inside = redactedTextSource(original, spans, () => '', undefined, kept());
      const shift = spans[0]!.start < 40 ? -(spans[0]!.end - spans[0]!.start) : 0;
      expect(inside.readNormalForm!(40 + shift, 60 + shift)).toBe(undefined);
    }
    // An empty placeholder right at the stretch's end or start: the piece is read, moved.
    const atEnd = redactedTextSource(
      original,
      [{ type: 'X', start: 60, end: 70 }],
      () => '',
      undefined,
      kept(),
    );
    expect(atEnd.readNormalForm!(40, 60)).toBe(form);
    const atStart = redactedTextSource(
      original,
      [{ type: 'X', start: 30, end: 40 }],
      () => '',
      undefined,
      kept(),
    );
    expect(atStart.readNormalForm!(30, 50)).toBe(form);
    // No kept forms: nothing offered.
    expect(redactedTextSource(original, before, () => '<>').readNormalForm).toBe(undefined);
  });

  it('pii() redacting, then secrets(): the pieces pii() left as they were are not normalised again', async () => {
    // Personal data and keys in the first piece only, then long text whose normal form differs.
    const head = textWithValues(20_000, 7);
    const long = `${head}\n${line.repeat(10_000)}`;
    const read: { normalizationPoints?: Int32Array; pieces?: PiecesRead } = {};
    const spans = findPiiInChunks(long, undefined, undefined, undefined, read)!;
    expect(spans).toEqual(wholePii(long));
    expect(read.pieces!.forms.size).toBe(5);
    const source = redactedTextSource(
      long,
      spans,
      index => `[${spans[index]!.type}]`,
      read.normalizationPoints,
      read.pieces,
    );
    const redacted = replaceSpans(long, spans, span => `[${span.type}]`);
    expect(scanSecretsInChunks(source)).toEqual(wholeSecrets(redacted));
    expect(read.pieces!.forms.size).toBe(0);
    // And the chain, redacting: what the whole scans give.
    const context = { kind: 'input' as const, messages: [], metadata: {}, state: new Map() };
    const result = await runChain([pii(), secrets({ action: 'redact' })], long, context);
    const secretSpans = wholeSecrets(redacted).spans;
    expect(secretSpans.length).toBeGreaterThan(10);
    expect(result.content).toBe(replaceSpans(redacted, secretSpans, span => `[${span.type}]`));
  });
});

describe('redactedTextSource', () => {
  it('slices equal the redacted text', () => {
    const original = textWithValues(20_000, 5);
    const spans = wholePii(original);
    const placeholderOf = (index: number) => `[${spans[index]!.type}]`;
    const redacted = replaceSpans(original, spans, span => `[${span.type}]`);
    const source = redactedTextSource(original, spans, placeholderOf);
    expect(source.length).toBe(redacted.length);
    const next = seededRandom(9);
    for (let run = 0; run < 500; run++) {
      const start = Math.floor(next() * redacted.length);
      const end = start + Math.floor(next() * (redacted.length - start + 1));
      expect(source.slice(start, end)).toBe(redacted.slice(start, end));
    }
    expect(source.slice(0, redacted.length)).toBe(redacted);
  });

  it("carries the original's normalization points over to the redacted text", () => {
    const original = textWithValues(20_000, 5);
    const spans = wholePii(original);
    const redacted = replaceSpans(original, spans, span => `[${span.type}]`);
    const points = normalizationPoints(original);
    expect(points!.length).toBeGreaterThan(100);
    const source = redactedTextSource(original, spans, index => `[${spans[index]!.type}]`, points);
    expect(source.normalizationPoints).toEqual(normalizationPoints(redacted));
    // A placeholder outside printable ASCII: the points are not known.
    expect(redactedTextSource(original, spans, () => '\u2588', points).normalizationPoints).toBe(
      undefined,
    );
  });
});

describe('normalizationPoints', () => {
  it('lists what normalizeText may change, and pieces normalised with them equal normalizeText', () => {
    const text = textWithValues(150_000, 3);
    const points = normalizationPoints(text)!;
    const searched = [...text.matchAll(/[^\t\n\r\x20-\x7e]/g)].map(match => match.index);
    expect([...points]).toEqual(searched);
    const next = seededRandom(4);
    const maps = (normalized: ReturnType<typeof normalizeText>) => {
      const starts: number[] = [];
      const ends: number[] = [];
      for (let at = 0; at <= normalized.text.length; at++) {
        starts.push(normalized.toOriginal(at));
        ends.push(normalized.toOriginalEnd(at));
      }
      return [normalized.text, normalized.changed, starts, ends];
    };
    for (let run = 0; run < 60; run++) {
      const offset = Math.floor(next() * text.length);
      const piece = text.slice(offset, offset + Math.floor(next() * 3_000));
      expect(maps(normalizePiece(piece, { positions: points, offset }))).toEqual(
        maps(normalizeText(piece)),
      );
    }
  });

  it('gives up on text denser in them than one in 16 characters (another script)', () => {
    expect(normalizationPoints('\u96e8'.repeat(200_000))).toBe(undefined);
    expect(normalizationPoints('plain text '.repeat(20_000))).toEqual(new Int32Array(0));
  });
});

describe('the chain pii() + secrets() on a long text', () => {
  const text = textWithValues(300_000, 6);
  /** The chain's result as the whole scans make it. */
  const expected = () => {
    const redacted = replaceSpans(text, wholePii(text), span => `[${span.type}]`);
    const secretSpans = wholeSecrets(redacted).spans;
    return {
      redacted,
      secretSpans,
      final: replaceSpans(redacted, secretSpans, span => `[${span.type}]`),
    };
  };

  it('runChain: secrets reads the redacted text in pieces and finds what a whole scan finds', async () => {
    const { redacted, secretSpans, final } = expected();
    expect(scanSecretsInChunks(redacted)).toBeDefined();
    const context = { kind: 'input' as const, messages: [], metadata: {}, state: new Map() };
    const result = await runChain([pii(), secrets({ action: 'redact' })], text, context);
    expect(result.content).toBe(final);
    expect(result.records.map(record => record.status)).toEqual(['modified', 'modified']);
    expect((result.records[1]!.info as unknown as { spans: DetectedSpan[] }).spans).toEqual(
      secretSpans,
    );
  });

  it('generateText: the model receives the prompt redacted as a whole scan redacts it', async () => {
    let received = '';
    const model = new MockLanguageModelV4({
      doGenerate: async (options: LanguageModelV4CallOptions) => {
        received = options.prompt
          .flatMap(message =>
            message.role === 'user'
              ? message.content.flatMap(part => (part.type === 'text' ? [part.text] : []))
              : [],
          )
          .join('');
        return generateResult('ok');
      },
    });
    const guarded = wrapLanguageModel({
      model,
      middleware: guardrails({ input: [pii(), secrets({ action: 'redact' })] }),
    });
    const result = await generateText({ model: guarded, prompt: text });
    expect(result.text).toBe('ok');
    expect(received).toBe(expected().final);
  });
});

describe('flatString', () => {
  it('gives the same characters for slices, ropes and odd code units', () => {
    const long = `${'ghp_q8Zr4Lm2 '.repeat(5000)}\u00e9\uD800x\uFFFD`;
    const rope = redactedTextSource(long, [{ type: 'T', start: 4, end: 12 }], () => '[T]');
    for (const text of [
      '',
      'a',
      '\uD800',
      long,
      long.slice(3, 40_003),
      rope.slice(0, rope.length),
    ]) {
      expect(flatString(text)).toBe(text);
    }
  });
});

describe('flat pieces (round 29)', () => {
  it('keeps no piece marked after a scan, and reads each as before', async () => {
    const text = `${'Mail jane.doe@example.com\u00a0or call\u2013+44 20 7946 0958. ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R\n'.repeat(3000)}`;
    expect(text.length).toBeGreaterThan(chunkedScanFrom);
    const context = { kind: 'output' as const, messages: [], metadata: {}, state: new Map() };
    const result = await runChain([pii(), secrets({ action: 'redact' })], text, context);
    expect(holdsFlatMark()).toBe(false);
    // The same as each detector on its own input, read whole.
    const redacted = replaceSpans(text, wholePii(text), span => `[${span.type}]`);
    const secretSpans = wholeSecrets(redacted).spans;
    expect(secretSpans.length).toBe(3000);
    expect(result.content).toBe(replaceSpans(redacted, secretSpans, span => `[${span.type}]`));
  });

  it('returns a marked string itself, and copies any other', () => {
    const text = 'abc'.repeat(100);
    expect(flatString(markFlat(text))).toBe(text);
    expect(flatString(text.slice(1))).toBe(text.slice(1));
  });
});

describe('where a piece is cut', () => {
  /** The length of the first piece `scanInChunks` reads (its cut, plus the overlap of 2,048 after it). */
  const firstPieceLength = (source: string | ReturnType<typeof redactedTextSource>) => {
    const lengths: number[] = [];
    scanInChunks(source, piece => {
      lengths.push(piece.length);
      return { spans: [] };
    });
    return lengths[0]! - 2_048;
  };
  /** 57,344 characters of `fill` with `marks` (offset, character) set, then more text with a dash. */
  const textWith = (fill: string, marks: Array<[number, string]>) => {
    const head = fill
      .repeat(Math.ceil(57_344 / fill.length))
      .slice(0, 57_344)
      .split('');
    for (const [at, char] of marks) head[at] = char;
    return `${head.join('')}${'more text – '.repeat(8_000)}`;
  };

  it('at the last line break before 57,344, whether near it or up to 2,048 before', () => {
    // Line breaks near the end and before it: the last one.
    expect(
      firstPieceLength(
        textWith('word ', [
          [56_000, '\n'],
          [57_200, '\n'],
        ]),
      ),
    ).toBe(57_201);
    // Only before the last 256 characters: found in the wider window.
    expect(
      firstPieceLength(
        textWith('word ', [
          [55_500, '\n'],
          [57_000, '\n'],
        ]),
      ),
    ).toBe(57_001);
    // None: at the last blank.
    expect(firstPieceLength(textWith('word ', [[55_000, '\n']]))).toBe(57_340);
    // Neither: where it falls.
    expect(firstPieceLength(textWith('x', []))).toBe(57_344);
  });

  it('the same in a redacted text read from its parts', () => {
    const text = textWith('word ', [
      [55_500, '\n'],
      [57_000, '\n'],
    ]);
    const source = redactedTextSource(
      text,
      [{ type: 'EMAIL_ADDRESS', start: 100, end: 110 }],
      () => '[EMAIL_ADDRESS]',
    );
    // The placeholder is 5 characters longer than what it replaces.
    expect(firstPieceLength(source)).toBe(57_006);
    const near = textWith('word ', [[57_300, '\n']]);
    const nearSource = redactedTextSource(
      near,
      [{ type: 'EMAIL_ADDRESS', start: 100, end: 110 }],
      () => '[EMAIL]',
    );
    expect(firstPieceLength(nearSource)).toBe(57_298);
  });
});
