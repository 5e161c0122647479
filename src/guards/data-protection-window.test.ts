import { wrapLanguageModel } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cut, modelFor, readAll, userPrompt } from '../../test/helpers';
import { guardrails } from '../middleware/guardrails-middleware';
import { invisibleText } from './invisible-text/invisible-text';
import { pii } from './pii/pii';
import { secrets } from './secrets/secrets';

const base62 = /^[A-Za-z0-9]+$/;
const randomToken = (length: number) =>
  fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${length}}$`)).filter(token => base62.test(token));

const words = fc.constantFrom(
  'hello',
  'the',
  'order',
  'number',
  'is',
  'key',
  'at',
  'call',
  '4111',
  '-.-.-',
  '@',
  '\n',
  'password',
);
const email = fc
  .tuple(
    fc.stringMatching(/^[a-z]{1,12}$/),
    fc.stringMatching(/^[a-z]{1,10}$/),
    fc.constantFrom('com', 'io', 'co.uk'),
  )
  .map(([user, host, tld]) => `${user}@${host}.${tld}`);
const phone = fc.constantFrom(
  '+44 20 7946 0958',
  '(415) 555-2671',
  '+49 30 901820',
  '212-736-5000',
);
const card = fc.constantFrom('4111 1111 1111 1111', '5500-0000-0000-0004', '4012888888881881');
const iban = fc.constantFrom('GB82 WEST 1234 5698 7654 32', 'DE89370400440532013000');
const githubToken = randomToken(36).map(token => `ghp_${token}`);
const awsKey = fc.stringMatching(/^[A-Z0-9]{16}$/).map(token => `AKIA${token}`);
const pemBlock = fc
  .tuple(
    fc.constantFrom('RSA ', 'EC ', '', 'OPENSSH '),
    fc.array(randomToken(64), { minLength: 1, maxLength: 12 }),
    fc.boolean(),
  )
  .map(
    ([kind, lines, closed]) =>
      `-----BEGIN ${kind}PRIVATE KEY-----\n${lines.join('\n')}\n${closed ? `-----END ${kind}PRIVATE KEY-----` : ''}`,
  );
const invisible = fc.constantFrom('\u200B', '\u202E', '\u{E0041}\u{E0042}', '\uFEFF', '\u2060');
/** A value with an invisible character hidden inside it. */
const hidden = fc
  .tuple(fc.oneof(email, card, githubToken), invisible, fc.nat())
  .map(([value, mark, at]) => {
    const position = 1 + (at % (value.length - 1));
    return value.slice(0, position) + mark + value.slice(position);
  });

const segment = fc.oneof(
  { weight: 10, arbitrary: words },
  { weight: 2, arbitrary: email },
  { weight: 1, arbitrary: phone },
  { weight: 1, arbitrary: card },
  { weight: 1, arbitrary: iban },
  { weight: 1, arbitrary: githubToken },
  { weight: 1, arbitrary: awsKey },
  { weight: 1, arbitrary: pemBlock },
  { weight: 1, arbitrary: invisible },
  { weight: 1, arbitrary: hidden },
);
// Joined with ', ': two numbers side by side ("… 0958 4111 …") are ambiguous to any detector.
const text = fc.array(segment, { minLength: 0, maxLength: 80 }).map(parts => parts.join(', '));
const chunking = fc.oneof(
  fc.constant<number[]>([1]),
  fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
  fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 1, maxLength: 5 }),
);

describe('pii + secrets + invisibleText in window mode', () => {
  it('streams the same text as generate for any chunking, and nothing raw is released', async () => {
    const middleware = guardrails({
      output: [pii({ action: 'redact' }), secrets({ action: 'redact' }), invisibleText()],
      stream: { mode: 'window' },
    });
    await fc.assert(
      fc.asyncProperty(text, chunking, async (answer, sizes) => {
        const model = wrapLanguageModel({
          model: modelFor(answer, cut(answer, sizes)),
          middleware,
        });
        const generated = await model.doGenerate({ prompt: userPrompt('q') });
        const generatedText = generated.content
          .map(part => (part.type === 'text' ? part.text : ''))
          .join('');
        const { stream } = await model.doStream({ prompt: userPrompt('q') });
        const parts = await readAll(stream);
        const streamed = parts.flatMap(part => (part.type === 'text-delta' ? [part.delta] : []));
        expect(streamed.join('')).toBe(generatedText);
        // What was released holds no raw value: no e-mail, key, PEM body or invisible character.
        const released = streamed.join('');
        expect(released).not.toMatch(/[a-z]+@[a-z]+\.[a-z]/);
        expect(released).not.toMatch(/ghp_[A-Za-z0-9]{8}|AKIA[A-Z0-9]{8}/);
        expect(released).not.toMatch(/^[A-Za-z0-9]{64}$/m);
        expect(released).not.toMatch(/4111 1111|GB82 WEST/);
        expect(released).not.toMatch(/[\u200B\u202E\uFEFF\u2060]|\u{E0041}/u);
      }),
      { numRuns: 300, seed: 20261130 },
    );
  }, 300_000);

  it('keeps the secrets window small: a PEM key is held from its BEGIN line until its END line', async () => {
    expect(secrets().maxMatchLength).toBeLessThanOrEqual(1024);
    const body = Array.from({ length: 40 }, (_, line) =>
      `${String(line).padStart(2, '0')}q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2RzT4bU9wX1yV3aP6kL0mN8oQ2rS5t`.slice(
        0,
        64,
      ),
    ).join('\n');
    const answer = `Here it is:\n-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\nDone. ${'more text '.repeat(300)}`;
    const model = wrapLanguageModel({
      model: modelFor(answer, cut(answer, [7])),
      middleware: guardrails({
        output: [secrets({ action: 'redact' })],
        stream: { mode: 'window' },
      }),
    });
    const { stream } = await model.doStream({ prompt: userPrompt('q') });
    const deltas = (await readAll(stream)).flatMap(part =>
      part.type === 'text-delta' ? [part.delta] : [],
    );
    expect(deltas.join('')).toBe(`Here it is:\n[PRIVATE_KEY]\nDone. ${'more text '.repeat(300)}`);
    // The key (2.6 KB) is longer than the window, yet text after it streams in several deltas.
    expect(deltas.length).toBeGreaterThan(2);
  });

  it('holds a kind: Secret line so that the data: values after it are redacted as generate redacts them', async () => {
    const manifest =
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\n  namespace: prod\ntype: Opaque\ndata:\n  tls.key: c3VwZXJzZWNyZXRwYXNzd29yZDEyMw==\n';
    const redacted = manifest.replace('c3VwZXJzZWNyZXRwYXNzd29yZDEyMw==', '[KUBERNETES_SECRET]');
    for (const answer of [manifest, `Apply this:\n${manifest}Then run kubectl apply.`]) {
      for (const size of [1, 5, 20, answer.length]) {
        const model = wrapLanguageModel({
          model: modelFor(answer, cut(answer, [size])),
          middleware: guardrails({
            output: [secrets({ action: 'redact' })],
            stream: { mode: 'window' },
          }),
        });
        const generated = await model.doGenerate({ prompt: userPrompt('q') });
        const { stream } = await model.doStream({ prompt: userPrompt('q') });
        const released = (await readAll(stream))
          .flatMap(part => (part.type === 'text-delta' ? [part.delta] : []))
          .join('');
        expect(released, `chunks of ${size}`).toBe(answer.replace(manifest, redacted));
        expect(generated.content).toEqual([{ type: 'text', text: released }]);
      }
    }
  });
});

describe('window mode is exact by construction (default pii + secrets + invisibleText)', () => {
  const middleware = (mode: 'window' | 'hold') =>
    guardrails({ output: [pii(), secrets(), invisibleText()], stream: { mode } });

  async function generatedAndStreamed(
    mw: ReturnType<typeof guardrails>,
    answer: string,
    deltas: string[],
  ) {
    const model = wrapLanguageModel({ model: modelFor(answer, deltas), middleware: mw });
    const generated = await model.doGenerate({ prompt: userPrompt('q') });
    const generatedText = generated.content
      .map(part => (part.type === 'text' ? part.text : ''))
      .join('');
    const { stream } = await model.doStream({ prompt: userPrompt('q') });
    const streamed = (await readAll(stream)).flatMap(part =>
      part.type === 'text-delta' ? [part.delta] : [],
    );
    return { generatedText, streamed };
  }

  it('does not re-judge a cut-off part of a long order id (no [CREDIT_CARD] inside it, no duplicated text)', async () => {
    // Cut 9 digits into the id, the context of the last check reads
    // "96569410149656941 …": a Luhn-valid number on its own.
    const id = '01496569410149656941';
    const filler = 'The parcel is on its way and should arrive within a few days. '.repeat(40);
    const answer = `Order ${id} ${filler.slice(0, 2038)}`;
    const { generatedText, streamed } = await generatedAndStreamed(middleware('window'), answer, [
      answer,
    ]);
    expect(generatedText).toBe(answer);
    expect(streamed.join('')).toBe(answer);
  });

  const emoji = fc.constantFrom(
    '😀',
    '👍🏽',
    '👩‍👩‍👧‍👦',
    '🏳️‍🌈',
    '🇬🇧',
    '🇺🇸🇫🇷',
    'e\u0301',
    'n\u0303o',
    '❤️',
    '𝐀𝐁',
  );
  const longId = fc.stringMatching(/^[0-9]{12,24}$/);
  const prose = fc.constantFrom(
    'the',
    'order',
    'is',
    'on',
    'its',
    'way',
    'id',
    'call',
    'ref',
    '\n',
  );
  // Set apart by commas: a value run into a word or a number is ambiguous to any detector.
  const sensitive = fc.oneof(email, phone, card, iban, githubToken, awsKey).map(v => `, ${v}, `);
  const piece = fc.oneof(
    { weight: 8, arbitrary: prose },
    { weight: 3, arbitrary: emoji },
    { weight: 6, arbitrary: longId },
    { weight: 2, arbitrary: sensitive },
  );
  const separator = fc.constantFrom(' ', ' ', ', ', '');
  const answerOf = (minLength: number, maxLength: number) =>
    fc
      .array(fc.tuple(piece, separator), { minLength, maxLength })
      .map(pieces => pieces.map(([p, s]) => p + s).join(''));
  /** Deltas of 1–50 characters (or the whole answer) that never split a grapheme: the model keeps emoji whole. */
  const graphemes = (text: string) =>
    [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map(s => s.segment);
  const chunked = (text: string, sizes: number[] | 'whole') => {
    if (sizes === 'whole') return [text];
    const deltas: string[] = [];
    let current = '';
    let index = 0;
    for (const grapheme of graphemes(text)) {
      current += grapheme;
      if (current.length >= sizes[index % sizes.length]!) {
        deltas.push(current);
        current = '';
        index++;
      }
    }
    if (current) deltas.push(current);
    return deltas;
  };
  const sizes = fc.oneof(
    fc.constant<'whole'>('whole'),
    fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 8 }),
  );
  /** The offsets of `text` between two graphemes (and its ends), segmented once per text. */
  const boundariesOf = (text: string) => {
    const boundaries = new Set([0]);
    let offset = 0;
    for (const grapheme of graphemes(text)) {
      offset += grapheme.length;
      boundaries.add(offset);
    }
    return boundaries;
  };

  it.each([
    { answers: 'short', minLength: 0, maxLength: 120, numRuns: 1500 },
    // Longer than two windows: the context of later checks is cut from released text.
    // 12 runs: each long answer streams in ~100 early-release checks per chunking. The grapheme
    // boundaries of each answer are segmented once (asking the segmenter again for every delta
    // edge took 6 s a run on a loaded machine, most of this test's 77 s).
    { answers: 'long (1.5–4 KB)', minLength: 300, maxLength: 700, numRuns: 12 },
  ])(
    'streams what generate returns for $answers prose with ids, emoji, flags and marks, in any chunking and mode',
    async ({ minLength, maxLength, numRuns }) => {
      // Secrets redacted, not blocked: which of two secrets trips first may differ, the text may not.
      const redacting = (mode: 'window' | 'hold') =>
        guardrails({
          output: [pii(), secrets({ action: 'redact' }), invisibleText()],
          stream: { mode },
        });
      const windowed = redacting('window');
      const held = redacting('hold');
      await fc.assert(
        fc.asyncProperty(
          answerOf(minLength, maxLength),
          sizes,
          fc.boolean(),
          async (answer, chunks, useWindow) => {
            const { generatedText, streamed } = await generatedAndStreamed(
              useWindow ? windowed : held,
              answer,
              chunked(answer, chunks),
            );
            const text = streamed.join('');
            expect(text).toBe(generatedText);
            expect(text).not.toMatch(/[a-z]+@[a-z]+\.[a-z]/);
            // Every delta is a prefix of this text, so no released prefix holds a raw value.
            expect(text).not.toMatch(/ghp_[A-Za-z0-9]{8}|4111 1111|GB82 WEST/);
            const boundaries = boundariesOf(text);
            let at = 0;
            for (const delta of streamed) {
              // No lone surrogate and no grapheme split at a delta edge.
              expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(delta)).toBe(false);
              expect(boundaries.has(at)).toBe(true);
              at += delta.length;
            }
          },
        ),
        { numRuns, seed: 20261130 },
      );
    },
    120_000,
  );
});
