import {
  nonEmptyString,
  type OptionShape,
  positiveInt,
  recordOf,
  stringList,
  stringOption,
} from '../../core/options';

/** The rules of `contentFilter`'s options. */
export const contentFilterOptionShape = {
  maxLength: positiveInt,
  blocklist: stringList,
  // Not a list: `categories: 5` or `['x']` must fail rather than switch the defaults off.
  categories: recordOf(
    stringList,
    'an object of word lists by category, e.g. { profanity: [...] }',
  ),
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
