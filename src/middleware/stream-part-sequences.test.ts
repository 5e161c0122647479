import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { readAll, streamOf, userPrompt } from '../../test/helpers';
import { generated } from '../../test/helpers/window';
import type { Guardrail } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { invisibleText } from '../guards/invisible-text/invisible-text';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';

/**
 * Property test of the part sequences around the text (issue 16): what
 * window-exactness.test.ts does not generate. Each case is a stream of one
 * to four text and reasoning blocks (reasoning judged: `checkReasoning`),
 * their deltas interleaved, ids shared between blocks one after another,
 * tool calls between them, and the malformations a provider may send: a
 * delta with no start (it opens its block), a start repeated inside its
 * block (dropped), an end of no open block (dropped), and a last block the
 * stream never ends. Each block holds prose with values, long ids, emoji,
 * ZWJ sequences, flags and combining marks, in random 1–50-character deltas
 * (by code point, a few empty) or whole.
 *
 * Asserted in window mode (early release with the built-ins' hooks, and
 * the bounded window of custom guardrails without them) and in hold mode:
 * every block is released as one well-formed block (start, deltas, end)
 * whose text is what generate returns for that text alone; no prefix of a block's released text holds a
 * value generate hides in it; no delta begins or ends inside a surrogate
 * pair; every tool call comes out once, in order. And with `contentFilter`
 * blocking a phrase in some blocks (window mode): the stream trips exactly
 * when generate blocks one of its blocks, what a blocked block released
 * before the trip passes generate on its own, and every released block is
 * closed.
 */

type Part = LanguageModelV4StreamPart;
type BlockType = 'text' | 'reasoning';

const WORDS = ['we', 'shipped', 'the', 'parcel', 'ref', 'id', 'call', 'mail', 'key', 'ok.', '\n'];
const GRAPHEMES = ['🙂', '👨‍👩‍👧', '🇯🇵', '🏴‍☠️', 'a\u0308', 'Z\u0351\u0362', '✌🏿', '🇨🇦🇩🇪'];

/** A value the default detectors hide, built from `next`. */
function value(next: () => number): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');
  const kind = Math.floor(next() * 7);
  if (kind === 0) return `m.${digits(3)}@example.org`;
  if (kind === 1) return '4242 4242 4242 4242';
  if (kind === 2) return `+44 20 7946 ${digits(4)}`;
  if (kind === 3) return `ghp_${'x9Kq2Lm7'.repeat(4)}${digits(4)}`;
  if (kind === 4) return `AKIA${'Q7WZ'.repeat(4)}`;
  if (kind === 5) return 'DE89 3704 0044 0532 0130 00';
  return `api_key: '${digits(8)}Xy7Qp${digits(11)}'`;
}

/** A block's text: words, graphemes, 12–24-digit ids and values (returned too). */
function blockText(
  next: () => number,
  words: readonly string[],
): { text: string; values: string[] } {
  const values: string[] = [];
  const pieces: string[] = [];
  const count = 1 + Math.floor(next() * 14);
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.5) pieces.push(words[Math.floor(next() * words.length)]!);
    else if (roll < 0.68) pieces.push(GRAPHEMES[Math.floor(next() * GRAPHEMES.length)]!);
    else if (roll < 0.8) {
      const length = 12 + Math.floor(next() * 13);
      pieces.push(Array.from({ length }, () => Math.floor(next() * 10)).join(''));
    } else {
      const hidden = value(next);
      values.push(hidden);
      pieces.push(hidden);
    }
  }
  return { text: pieces.join(next() < 0.8 ? ' ' : ''), values };
}

/** `text` cut into deltas of 1–50 code points (never inside a surrogate pair), or whole. */
function deltasOf(text: string, next: () => number): string[] {
  if (next() < 0.2) return [text];
  const points = Array.from(text);
  const deltas: string[] = [];
  for (let at = 0; at < points.length; ) {
    const size = 1 + Math.floor(next() * (next() < 0.5 ? 6 : 50));
    deltas.push(points.slice(at, at + size).join(''));
    at += size;
    // Some providers send empty deltas.
    if (next() < 0.03) deltas.push('');
  }
  return deltas;
}

interface Block {
  type: BlockType;
  id: string;
  text: string;
  values: string[];
  /** The block's own parts as the model sends them (malformed ones included). */
  parts: Part[];
}

/** Part types of a block of `type`. */
const partType = (type: BlockType, what: 'start' | 'delta' | 'end') =>
  `${type}-${what}` as 'text-start';

/**
 * One case: blocks with their parts, interleaved into one stream with tool
 * calls between them. Blocks that share a type and an id never overlap (one
 * ends before the next starts), as the normalised stream has it.
 */
function sequence(next: () => number, words: readonly string[] = WORDS) {
  const blocks: Block[] = [];
  const count = 1 + Math.floor(next() * 4);
  for (let i = 0; i < count; i++) {
    const type: BlockType = next() < 0.6 ? 'text' : 'reasoning';
    const id = next() < 0.5 ? 'a' : 'b';
    const { text, values } = blockText(next, words);
    const deltas = deltasOf(text, next).map(
      delta => ({ type: partType(type, 'delta'), id, delta }) as Part,
    );
    const parts: Part[] = [...deltas];
    // A delta with no start opens its block (needs a delta to open it).
    if (next() >= 0.25 || deltas.length === 0) parts.unshift({ type: partType(type, 'start'), id });
    // A start repeated inside the open block is dropped.
    if (next() < 0.15 && parts.length > 1) {
      parts.splice(1 + Math.floor(next() * (parts.length - 1)), 0, {
        type: partType(type, 'start'),
        id,
      } as Part);
    }
    parts.push({ type: partType(type, 'end'), id } as Part);
    blocks.push({ type, id, text, values, parts });
  }
  // The last block may never end when no later block shares its type and id (the stream ends it).
  const last = blocks.at(-1)!;
  const unended = next() < 0.2 ? `${last.type}:${last.id}` : undefined;
  if (unended !== undefined) last.parts.pop();
  // Interleave: a block starts once the block of its type and id before it has ended.
  const stream: Part[] = [];
  const cursors = blocks.map(() => 0);
  let calls = 0;
  const ended = (index: number) => cursors[index] === blocks[index]!.parts.length;
  const mayStart = (index: number) =>
    blocks.every(
      (other, before) =>
        before >= index ||
        other.type !== blocks[index]!.type ||
        other.id !== blocks[index]!.id ||
        ended(before),
    );
  for (;;) {
    const ready = blocks
      .map((_, index) => index)
      .filter(
        index =>
          !ended(index) &&
          (cursors[index]! > 0 || mayStart(index)) &&
          // Blocks start in order.
          blocks.slice(0, index).every((_, before) => cursors[before]! > 0),
      );
    if (ready.length === 0) break;
    const index = ready[Math.floor(next() * ready.length)]!;
    stream.push(blocks[index]!.parts[cursors[index]!++]!);
    if (next() < 0.06) {
      const toolCallId = `call-${calls++}`;
      stream.push({ type: 'tool-call', toolCallId, toolName: 'lookup', input: '{"q":"x"}' });
    }
    // An end of no open block is dropped.
    if (next() < 0.04) stream.push({ type: 'text-end', id: 'z' });
  }
  return { blocks, stream, calls, unended };
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The blocks a stream released, in order of their start per type and id, or the first defect found. */
function releasedBlocks(parts: Part[]): {
  blocks: Map<string, string[][]>;
  calls: string[];
  /** Blocks left open at the end (as the model left them). */
  open?: string[];
  defect?: string;
} {
  const blocks = new Map<string, string[][]>();
  const open = new Map<string, string[]>();
  const calls: string[] = [];
  for (const part of parts) {
    if (part.type === 'tool-call') calls.push(part.toolCallId);
    if (
      part.type !== 'text-start' &&
      part.type !== 'text-delta' &&
      part.type !== 'text-end' &&
      part.type !== 'reasoning-start' &&
      part.type !== 'reasoning-delta' &&
      part.type !== 'reasoning-end'
    ) {
      continue;
    }
    const key = `${part.type.split('-')[0]}:${part.id}`;
    if (part.type.endsWith('-start')) {
      if (open.has(key)) return { blocks, calls, defect: `${key} started twice` };
      const deltas: string[] = [];
      open.set(key, deltas);
      blocks.set(key, [...(blocks.get(key) ?? []), deltas]);
    } else if (part.type.endsWith('-end')) {
      if (!open.delete(key)) return { blocks, calls, defect: `${key} ended while not open` };
    } else {
      const deltas = open.get(key);
      if (deltas === undefined)
        return { blocks, calls, defect: `${key}: a delta outside its block` };
      const { delta } = part as { delta: string };
      if (isLow(delta.charCodeAt(0)) || isHigh(delta.charCodeAt(delta.length - 1))) {
        return { blocks, calls, defect: `lone surrogate at the edge of ${JSON.stringify(delta)}` };
      }
      deltas.push(delta);
    }
  }
  return { blocks, calls, open: [...open.keys()] };
}

const BLOCKED = 'This content is not allowed.';
const CASES = Number(process.env.STREAM_SEQUENCE_CASES ?? 1_000);

/** A guardrail without its `potentialMatchStart`: a custom one, held back by the bounded window. */
const withoutHook = ({ potentialMatchStart: _, ...guardrail }: Guardrail): Guardrail => guardrail;

describe('interleaved and malformed part sequences stream as generate judges each block (seeded)', () => {
  it.each([
    ['early release (the built-ins)', (chain: Guardrail[]) => chain, CASES, 20261204],
    ['the bounded window (no hooks)', (chain: Guardrail[]) => chain.map(withoutHook), 300, 4],
  ])(
    'window (%s) and hold: each block == generate of its text, nothing hidden released, well formed',
    async (_, variant, cases, seed) => {
      const chain = () => variant([pii(), secrets({ action: 'redact' }), invisibleText()]);
      const modes = {
        window: guardrails({ output: chain(), checkReasoning: true, stream: { mode: 'window' } }),
        hold: guardrails({ output: chain(), checkReasoning: true, stream: { mode: 'hold' } }),
      };
      const reference = guardrails({ output: chain() });
      const next = seededRandom(seed);
      const failures: Array<{ stream: Part[]; mode: string; problem: string }> = [];
      let interleaved = 0;
      let withValues = 0;
      for (let i = 0; i < cases && failures.length < 5; i++) {
        const { blocks, stream, calls, unended } = sequence(next);
        const expected = new Map<string, Array<{ text: string; hidden: string[] }>>();
        for (const block of blocks) {
          const text = await generated(reference, block.text);
          const hidden = block.values.filter(hiddenValue => !text.includes(hiddenValue));
          if (hidden.length > 0) withValues++;
          const key = `${block.type}:${block.id}`;
          expected.set(key, [...(expected.get(key) ?? []), { text, hidden }]);
        }
        const firstEnd = stream.findIndex(part => part.type.endsWith('-end'));
        if (
          blocks.length > 1 &&
          firstEnd > 0 &&
          stream.slice(firstEnd).some(part => part.type.endsWith('-delta'))
        ) {
          interleaved++;
        }
        for (const [mode, middleware] of Object.entries(modes)) {
          const model = wrapLanguageModel({
            model: new MockLanguageModelV4({ doStream: async () => streamOf(stream) }),
            middleware,
          });
          const out = await readAll((await model.doStream({ prompt: userPrompt('q') })).stream);
          const fail = (problem: string) => failures.push({ stream, mode, problem });
          const released = releasedBlocks(out);
          if (released.defect !== undefined) {
            fail(released.defect);
            continue;
          }
          if (
            released.calls.join() !== Array.from({ length: calls }, (_, n) => `call-${n}`).join()
          ) {
            fail(`tool calls ${released.calls}`);
          }
          // A block the model never ended stays open, its text released; no other.
          if (released.open!.join() !== (unended ?? '')) fail(`open at the end: ${released.open}`);
          const keys = new Set([...expected.keys(), ...released.blocks.keys()]);
          for (const key of keys) {
            const want = expected.get(key) ?? [];
            const got = released.blocks.get(key) ?? [];
            if (got.length !== want.length) {
              fail(`${key}: ${got.length} blocks released, ${want.length} sent`);
              continue;
            }
            for (const [n, deltas] of got.entries()) {
              if (deltas.join('') !== want[n]!.text) {
                fail(
                  `${key} #${n}: ${JSON.stringify(deltas.join(''))} where generate has ${JSON.stringify(want[n]!.text)}`,
                );
              }
              let prefix = '';
              for (const delta of deltas) {
                prefix += delta;
                const leaked = want[n]!.hidden.find(hiddenValue => prefix.includes(hiddenValue));
                if (leaked !== undefined) fail(`${key} #${n} released ${JSON.stringify(leaked)}`);
              }
            }
          }
        }
      }
      expect(failures).toEqual([]);
      // The generator is not idle: blocks interleave and hide values.
      expect(interleaved).toBeGreaterThan(cases / 5);
      expect(withValues).toBeGreaterThan(cases / 2);
    },
    300_000,
  );
});

describe('a blocked block among interleaved and malformed parts (seeded)', () => {
  it('window: trips exactly when generate blocks a block, releases nothing of it that generate blocks, closes every block', async () => {
    const chain = () => [contentFilter(), pii()];
    const window = guardrails({
      output: chain(),
      checkReasoning: true,
      stream: { mode: 'window' },
    });
    const reference = guardrails({ output: chain() });
    const next = seededRandom(99);
    const words = [...WORDS, 'kill yourself', 'build a bomb'];
    const failures: Array<{ stream: Part[]; problem: string }> = [];
    let tripped = 0;
    for (let i = 0; i < 400 && failures.length < 5; i++) {
      const { blocks, stream, unended } = sequence(next, words);
      const blocked = [];
      for (const block of blocks) {
        if ((await generated(reference, block.text)) === BLOCKED) blocked.push(block);
      }
      const model = wrapLanguageModel({
        model: new MockLanguageModelV4({ doStream: async () => streamOf(stream) }),
        middleware: window,
      });
      const out = await readAll((await model.doStream({ prompt: userPrompt('q') })).stream);
      const fail = (problem: string) => failures.push({ stream, problem });
      const finish = out.at(-1);
      const trip = finish?.type === 'finish' && finish.finishReason.unified === 'content-filter';
      if (trip) tripped++;
      if (trip !== blocked.length > 0)
        fail(`tripped: ${trip}, generate blocks ${blocked.length} blocks`);
      const released = releasedBlocks(out);
      if (released.defect !== undefined) fail(released.defect);
      // A trip closes what was released; otherwise only a block the model left open stays open.
      if (released.open!.join() !== (trip ? '' : (unended ?? ''))) fail(`open: ${released.open}`);
      // What a blocked block released before the trip passes generate on its own.
      for (const block of blocked) {
        for (const deltas of released.blocks.get(`${block.type}:${block.id}`) ?? []) {
          const text = deltas.join('');
          if (text !== '' && (await generated(reference, text)) === BLOCKED) {
            fail(`released ${JSON.stringify(text)}, which generate blocks`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tripped).toBeGreaterThan(100);
  }, 300_000);
});
