// Pieces joined at a time: the array's backing store (4 bytes an entry)
// stays far under V8's large-object size (128 KB).
const MAX_PIECES = 2_048;
// Characters joined at a time: a joined chunk (2 bytes a character at most)
// stays under 128 KB with the longest piece kept in it.
const MAX_CHUNK = 16_384;
// A piece this long is kept as it is, not copied into a chunk.
const LONG_PIECE = 8_192;

/**
 * Strings joined in the order pushed, as `pieces.join('')` would: for
 * rewriting a text piece by piece (a copy up to a change, the change, ...).
 * Pushed pieces are joined every few thousand pieces or characters, so no
 * array or intermediate string grows past V8's large-object size. One array
 * of a piece per change outgrew it on a 1 MB text with a change every few
 * characters: each growth mapped fresh pages (1,500-7,500 minor page faults
 * per call), and the pieces, kept alive until the end, were copied by every
 * young-generation collection, so a 1 MB text cost 6-8x a 0.25 MB one.
 */
export class PieceJoiner {
  /** Pieces not yet joined. */
  #pieces: string[] = [];
  #pendingLength = 0;
  /** Joined chunks and long pieces, in order. */
  #done: string[] = [];

  push(piece: string): void {
    if (piece.length >= LONG_PIECE) {
      this.#flush();
      this.#done.push(piece);
      return;
    }
    this.#pieces.push(piece);
    this.#pendingLength += piece.length;
    if (this.#pieces.length >= MAX_PIECES || this.#pendingLength >= MAX_CHUNK) this.#flush();
  }

  /** Everything pushed, joined. */
  join(): string {
    this.#flush();
    return this.#done.length === 1 ? this.#done[0]! : this.#done.join('');
  }

  #flush(): void {
    if (this.#pieces.length === 0) return;
    this.#done.push(this.#pieces.length === 1 ? this.#pieces[0]! : this.#pieces.join(''));
    this.#pieces = [];
    this.#pendingLength = 0;
  }
}
