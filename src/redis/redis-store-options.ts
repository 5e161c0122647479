import { milliseconds, type OptionShape, stringOption } from '../core/options';

/** The rules of `redisStore`'s options (the client is checked by `redisStore` itself). */
export const redisStoreOptionShape = {
  prefix: stringOption,
  timeoutMs: milliseconds,
} satisfies OptionShape;
