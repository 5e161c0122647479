import {
  nonEmptyListOf,
  nonEmptyString,
  numberInRange,
  type OptionShape,
  oneOf,
  positiveInt,
  stringOption,
} from '../../core/options';
import { HARMFUL_CATEGORIES } from './categories';

/** The rules of `harmfulContent`'s options. */
export const harmfulContentOptionShape = {
  threshold: numberInRange(0, 1, { minExclusive: true }),
  categories: nonEmptyListOf(
    oneOf(HARMFUL_CATEGORIES),
    `an array of harmful categories (${HARMFUL_CATEGORIES.join(', ')})`,
    'at least one harmful category (with none, harmfulContent checks nothing)',
  ),
  maxLength: positiveInt,
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;
