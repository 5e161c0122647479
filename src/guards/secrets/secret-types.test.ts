import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findSecrets } from './find-secrets';
import { providerRules } from './provider-rules';
import { secretTypesFor } from './secret-types';

describe('secretTypesFor', () => {
  it('lists every provider rule type, the assignment types and the entropy type by default', () => {
    const types = secretTypesFor();
    for (const rule of providerRules) expect(types.has(rule.type)).toBe(true);
    expect(
      ['GENERIC_SECRET', 'KUBERNETES_SECRET', 'HIGH_ENTROPY_STRING'].map(t => types.has(t)),
    ).toEqual([true, true, true]);
    expect(types.has('AWS_ACCESS_KEY_ID')).toBe(true);
    expect(types.has('PASSWORD')).toBe(false);
  });

  it('leaves out the types of a scan the options turn off, as findSecrets does', () => {
    const token = 'token: q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2RtY';
    expect(findSecrets(token, { assignments: false })).toEqual([
      { type: 'HIGH_ENTROPY_STRING', start: 7, end: 45 },
    ]);
    expect(secretTypesFor({ assignments: false }).has('KUBERNETES_SECRET')).toBe(false);
    expect(secretTypesFor({ assignments: false }).has('HIGH_ENTROPY_STRING')).toBe(true);
    expect(findSecrets(token, { assignments: false, entropy: false })).toEqual([]);
    expect(secretTypesFor({ entropy: false }).has('HIGH_ENTROPY_STRING')).toBe(false);
    // GENERIC_SECRET is also a keyed provider rule's type: it stays without the assignment scans.
    expect(secretTypesFor({ assignments: false }).has('GENERIC_SECRET')).toBe(true);
  });

  it("names every type findSecrets's own scans add (a new scan type must be listed here)", () => {
    const source = readFileSync(new URL('./find-secrets.ts', import.meta.url), 'utf8');
    const added = new Set(Array.from(source.matchAll(/\badd\(\s*'([A-Z0-9_]+)'/g), m => m[1]!));
    expect([...added].sort()).toEqual([
      'GENERIC_SECRET',
      'HIGH_ENTROPY_STRING',
      'KUBERNETES_SECRET',
    ]);
    for (const type of added) expect(secretTypesFor().has(type)).toBe(true);
  });
});
