import { describe, expect, it } from 'vitest';
import { filteredHookOf } from '../core/filtered-hooks';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import {
  secretsPotentialStart,
  secretsPotentialStartFiltered,
} from '../guards/secrets/potential-start';
import { secrets } from '../guards/secrets/secrets';

describe('filteredHookOf: the hook window mode asks about text every filter ruled out', () => {
  it("is secrets' cheaper hook only with secrets' own filter", () => {
    const guardrail = secrets();
    expect(filteredHookOf(guardrail)).toBe(secretsPotentialStartFiltered);
    // A copy whose filter is another one: its rulings say nothing about the hook's text.
    expect(filteredHookOf({ ...guardrail, mayMatch: () => false })).toBe(secretsPotentialStart);
    const { mayMatch: _, ...withoutFilter } = guardrail;
    expect(filteredHookOf(withoutFilter)).toBe(secretsPotentialStart);
  });

  it("is contentFilter's cheaper hook with its own filter, its full hook with another", () => {
    const guardrail = contentFilter();
    const filtered = filteredHookOf(guardrail);
    expect(filtered).toBeTypeOf('function');
    expect(filtered).not.toBe(guardrail.potentialMatchStart);
    expect(filteredHookOf({ ...guardrail, mayMatch: () => false })).toBe(
      guardrail.potentialMatchStart,
    );
  });

  it('is the guardrail’s own hook when none is registered, undefined without a hook', () => {
    const filter = pii();
    expect(filteredHookOf(filter)).toBe(filter.potentialMatchStart);
    const { potentialMatchStart: _, ...withoutHook } = filter;
    expect(filteredHookOf(withoutHook)).toBeUndefined();
  });
});
