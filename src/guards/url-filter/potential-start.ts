import { trailingTokenStart } from '../shared/potential-start';

/**
 * `potentialMatchStart` of `urlFilter`: a URL never holds whitespace, so
 * only the last token may still grow into one (or into a longer one).
 */
export function urlPotentialStart(text: string): number {
  return trailingTokenStart(text);
}
