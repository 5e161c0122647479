/**
 * A value loaded lazily, once (a model's weights through `import()`), for
 * the loaders of `pii()`'s tagger and `promptInjection()`'s harmful model.
 */
export interface LoadOnce<T> {
  /** The value, once a load succeeded; `undefined` before. */
  readonly loaded: T | undefined;
  /**
   * The value, loaded once: concurrent first callers share one load. A
   * failed load rejects with the loader's error made by `failed` (its cause
   * kept) and is tried again by the next caller.
   */
  load(): Promise<T>;
  /** Loads with `next` from now on and forgets the value loaded so far (and a load under way). */
  setLoader(next: () => Promise<T>): void;
}

/**
 * A `LoadOnce` of what `loader` resolves to. `failed(reason, cause)` makes
 * the error a failed load rejects with: `reason` is the cause's message (or
 * the cause as a string) cut to 200 characters.
 */
export function loadOnce<T>(
  loader: () => Promise<T>,
  failed: (reason: string, cause: unknown) => Error,
): LoadOnce<T> {
  let load = loader;
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    get loaded() {
      return loaded;
    },
    load() {
      if (loaded !== undefined) return Promise.resolve(loaded);
      if (loading === undefined) {
        const attempt: Promise<T> = Promise.resolve()
          .then(() => load())
          .then(
            value => {
              // A load the caller replaced (`setLoader`) meanwhile is not kept.
              if (loading === attempt) loaded = value;
              return value;
            },
            (cause: unknown) => {
              if (loading === attempt) loading = undefined;
              const reason = cause instanceof Error ? cause.message : String(cause);
              throw failed(reason.slice(0, 200), cause);
            },
          );
        loading = attempt;
      }
      return loading;
    },
    setLoader(next) {
      load = next;
      loaded = undefined;
      loading = undefined;
    },
  };
}
