import { describe, expect, it } from 'vitest';
import { secretTypesForRule } from './dataset-rule-types';

describe('secretTypesForRule', () => {
  it('maps the rules of the providers round 46 added a finder for', () => {
    expect(secretTypesForRule('postman-api-token')).toEqual(['POSTMAN_API_KEY']);
    expect(secretTypesForRule('notion-api-token')).toEqual(['NOTION_TOKEN']);
    expect(secretTypesForRule('airtable-api-key')).toEqual(['AIRTABLE_TOKEN']);
  });

  it('maps a generic rule to the generic detectors, and an unknown or missing rule to nothing', () => {
    expect(secretTypesForRule('generic-api-key')).toEqual([
      'GENERIC_SECRET',
      'HIGH_ENTROPY_STRING',
    ]);
    expect(secretTypesForRule('discord-client-id')).toBeUndefined();
    expect(secretTypesForRule(undefined)).toBeUndefined();
  });
});
