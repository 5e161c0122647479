import { describe, expect, it } from 'vitest';
import { loadOnce } from './load-once';

class LoadFailed extends Error {}

const failed = (reason: string, cause: unknown) =>
  new LoadFailed(`not loaded (${reason})`, { cause });

describe('loadOnce', () => {
  it('starts one load for concurrent first callers, and keeps what it loaded', async () => {
    let loads = 0;
    const model = loadOnce(async () => ({ weights: ++loads }), failed);
    expect(model.loaded).toBeUndefined();
    const [a, b] = [model.load(), model.load()];
    expect(a).toBe(b);
    expect(await a).toEqual({ weights: 1 });
    expect(model.loaded).toBe(await b);
    expect(await model.load()).toBe(await a);
    expect(loads).toBe(1);
  });

  it('rejects a failed load with the caller’s error (cause kept, reason cut at 200), then tries again', async () => {
    const cause = new Error('x'.repeat(300));
    let loads = 0;
    const model = loadOnce(async () => {
      loads++;
      if (loads === 1) throw cause;
      return 'ready';
    }, failed);
    const error = await model.load().catch((rejected: unknown) => rejected);
    expect(error).toBeInstanceOf(LoadFailed);
    expect((error as Error).message).toBe(`not loaded (${'x'.repeat(200)})`);
    expect((error as Error).cause).toBe(cause);
    expect(model.loaded).toBeUndefined();
    expect(await model.load()).toBe('ready');
    expect(loads).toBe(2);
    // A loader that throws synchronously, or rejects with no Error, fails the same way.
    const sync = loadOnce<string>(() => {
      throw 'no chunk';
    }, failed);
    await expect(sync.load()).rejects.toThrow('not loaded (no chunk)');
  });

  it('setLoader forgets the value, and a load still under way is not kept', async () => {
    let release: ((value: string) => void) | undefined;
    const model = loadOnce(() => new Promise<string>(resolve => (release = resolve)), failed);
    const first = model.load();
    // The load starts a microtask later (a loader that throws rejects the promise).
    for (let tick = 0; tick < 10 && release === undefined; tick++) await Promise.resolve();
    if (release === undefined) throw new Error('the load did not start');
    model.setLoader(async () => 'second');
    release('first');
    expect(await first).toBe('first');
    expect(model.loaded).toBeUndefined();
    expect(await model.load()).toBe('second');
    expect(model.loaded).toBe('second');
    model.setLoader(async () => 'third');
    expect(model.loaded).toBeUndefined();
    expect(await model.load()).toBe('third');
  });
});
