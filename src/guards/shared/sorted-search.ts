/**
 * Binary searches over ascending arrays of numbers, shared so that no
 * module hand-writes one (a hand-written one is where an off-by-one hides).
 */

/**
 * The index of the first element of ascending `sorted` at or above `value`
 * (`sorted.length` when every element is below it). Logarithmic.
 */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  return firstNotBelow(sorted, value, false);
}

/**
 * The index of the first element of ascending `sorted` above `value`
 * (`sorted.length` when none is): one past the last element at or below
 * it. Logarithmic.
 */
export function upperBound(sorted: ArrayLike<number>, value: number): number {
  return firstNotBelow(sorted, value, true);
}

/** The first index whose element is not below `value` (`orEqual`: nor equal to it). */
function firstNotBelow(sorted: ArrayLike<number>, value: number, orEqual: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const element = sorted[middle]!;
    if (element < value || (orEqual && element === value)) low = middle + 1;
    else high = middle;
  }
  return low;
}
