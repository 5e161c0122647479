import { describe, expect, it } from 'vitest';
import { configIssuesOf } from '../../../test/helpers';
import { contentFilter } from './content-filter';

describe('contentFilter: the "checks nothing" error reads `categories` once', () => {
  it('names the value read for the check, not a second read of a getter', () => {
    let reads = 0;
    const options = {
      get categories(): readonly string[] {
        reads++;
        // Empty when first read (no entry: the error), a list afterwards.
        return reads === 1 ? [] : ['violence'];
      },
    };
    expect(configIssuesOf(() => contentFilter(options))).toEqual([
      {
        path: 'content-filter.categories',
        value: [],
        expected:
          'at least one entry (blocklist or categories) or maxLength (with none, contentFilter checks nothing)',
      },
    ]);
    expect(reads).toBe(1);
  });
});
