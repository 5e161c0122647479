import { describe, expect, it } from 'vitest';
import { PieceJoiner } from './piece-joiner';

function joined(pieces: string[]): string {
  const joiner = new PieceJoiner();
  for (const piece of pieces) joiner.push(piece);
  return joiner.join();
}

describe('PieceJoiner', () => {
  it('joins nothing to the empty string', () => {
    expect(joined([])).toBe('');
    expect(joined(['', ''])).toBe('');
  });

  it('joins pieces in order across its chunk limits (2,048 pieces, 16,384 characters)', () => {
    // 10,000 pieces of 1-3 characters: five chunks by count.
    const short = Array.from({ length: 10_000 }, (_, index) =>
      `${index % 7}`.repeat(1 + (index % 3)),
    );
    expect(joined(short)).toBe(short.join(''));
    // Pieces of 100 characters: a chunk by length every 164 pieces.
    const lines = Array.from({ length: 1_000 }, (_, index) => `${index}`.padEnd(100, '.'));
    expect(joined(lines)).toBe(lines.join(''));
  });

  it('keeps a long piece between the chunks before and after it', () => {
    const pieces = ['a', 'b', 'x'.repeat(8_192), 'c', 'y'.repeat(20_000), 'd'];
    expect(joined(pieces)).toBe(pieces.join(''));
    expect(joined(['z'.repeat(8_192)])).toBe('z'.repeat(8_192));
  });
});
