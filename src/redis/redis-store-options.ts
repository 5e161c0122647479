import { type OptionShape, oneOf, stringOption, timerMilliseconds } from '../core/options';

/** The rules of `redisStore`'s options (the client is checked by `redisStore` itself). */
export const redisStoreOptionShape = {
  prefix: stringOption,
  timeoutMs: timerMilliseconds,
  evictionCheck: oneOf(['refuse', 'warn', 'off']),
} satisfies OptionShape;
