import {
  anyOf,
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
  // A list names built-in categories (checked by the factory); `5` must fail rather than switch the defaults off.
  categories: anyOf(
    [
      stringList,
      recordOf(stringList, 'an object of word lists by category, e.g. { profanity: [...] }'),
    ],
    "built-in category names (['violence', 'hate']) or an object of word lists by category",
  ),
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
