import { isWhitespaceAt, trailingTokenStart, withinLast } from '../shared/potential-start';

/** Tab, line feed, carriage return: the URL parser drops them inside a URL. */
function isUrlBreak(code: number): boolean {
  return code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * The last token, and before it the tokens joined to it by tabs and line
 * breaks alone when they hold a Markdown link's `](` or an attribute's
 * `="` / `='`: an attribute value or link destination with a line break
 * inside is one URL (`<a href="http://ev\nil.com">`), not yet closed.
 */
function trailingUrlStart(text: string): number {
  const start = trailingTokenStart(text);
  let chain = start;
  while (chain > 0) {
    let gap = chain;
    while (gap > 0 && isUrlBreak(text.charCodeAt(gap - 1))) gap--;
    if (gap === chain || gap === 0 || isWhitespaceAt(text, gap - 1)) break;
    chain = gap;
    while (chain > 0 && !isWhitespaceAt(text, chain - 1)) chain--;
  }
  return chain < start && /\]\(|=["']/.test(text.slice(chain)) ? chain : start;
}

/**
 * `potentialMatchStart` of `urlFilter`: a URL never holds whitespace, so
 * only the last token may still grow into one (or into a longer one), but
 * for an attribute value or link destination cut by a tab or line break.
 */
export const urlPotentialStart: (text: string) => number = withinLast(2048, trailingUrlStart);
