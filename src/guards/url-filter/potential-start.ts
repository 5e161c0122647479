import { trailingTokenStart, withinLast } from '../shared/potential-start';

/**
 * `potentialMatchStart` of `urlFilter`: a URL never holds whitespace, so
 * only the last token may still grow into one (or into a longer one).
 */
export const urlPotentialStart: (text: string) => number = withinLast(2048, trailingTokenStart);
