import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { expectInputRedacted } from '../../../test/helpers/redacted-input';
import { base64Alphabet, seededRun } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Tests that `secrets({ action: 'redact' })` sends `redacted` for
 * `manifest` through generateText (one record with the KUBERNETES_SECRET
 * `spans`) and streams the same text in window mode in six chunkings.
 */
function redactedInGenerateAndWindow(
  manifest: string,
  redacted: string,
  spans: Array<[number, number]>,
) {
  it('generateText: each value is redacted; the record has the spans', async () => {
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), manifest);
    expect(sent).toBe(redacted);
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['KUBERNETES_SECRET'],
          spans: spans.map(([start, end]) => ({ type: 'KUBERNETES_SECRET', start, end })),
        },
      },
    ]);
  });

  it('streamText (window): the same text as generateText in six chunkings', async () => {
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      manifest,
      [[1], [3], [7], [13], [5, 11], [64]],
    );
    expect(generated).toBe(redacted);
    expect(streamed).toEqual(Array(6).fill(redacted));
  });
}

/**
 * A YAML comment after a Secret's value (`db: cGFz… # prod`) was read as
 * part of it: the value was then no base64 and reached the model (round 17).
 */
describe('Kubernetes Secret values with a comment after them', () => {
  const manifest = [
    'apiVersion: v1',
    'kind: Secret',
    'data:',
    '  db: cGFzc3dvcmQxMjM0NQ== # prod',
    '  api: "c2VjcmV0LXRva2VuLTk4" # quoted',
    'stringData:',
    '  pw: Tr0ub#4dor\t# a # inside is the value',
    '',
  ].join('\n');
  const redacted = [
    'apiVersion: v1',
    'kind: Secret',
    'data:',
    '  db: [KUBERNETES_SECRET] # prod',
    '  api: "[KUBERNETES_SECRET]" # quoted',
    'stringData:',
    '  pw: [KUBERNETES_SECRET]\t# a # inside is the value',
    '',
  ].join('\n');

  redactedInGenerateAndWindow(manifest, redacted, [
    [40, 60],
    [76, 96],
    [125, 135],
  ]);
});

/**
 * A Secret written in YAML flow style (`data: {db: cGFz…}`, or a whole list
 * item `- {kind: Secret, data: {…}}` in a `kind: List`) reached the model:
 * only a `data:` line of its own and a `kind: Secret` line were read
 * (round 18).
 */
describe('Kubernetes Secrets in YAML flow style', () => {
  const manifest = [
    'apiVersion: v1',
    'kind: Secret',
    'data: {db: cGFzc3dvcmQxMjM0NQ==, \'api\': "c2VjcmV0LXRva2VuLTk4"}',
    '---',
    'kind: List',
    'items:',
    '- {kind: ConfigMap, data: {mode: fast}}',
    '- {apiVersion: v1, kind: Secret, stringData: {pw: Tr0ub4dor3x}}',
    'metadata: {name: ab12cd34ef56gh78ij90}',
    '',
  ].join('\n');
  const redacted = [
    'apiVersion: v1',
    'kind: Secret',
    'data: {db: [KUBERNETES_SECRET], \'api\': "[KUBERNETES_SECRET]"}',
    '---',
    'kind: List',
    'items:',
    '- {kind: ConfigMap, data: {mode: fast}}',
    '- {apiVersion: v1, kind: Secret, stringData: {pw: [KUBERNETES_SECRET]}}',
    'metadata: {name: ab12cd34ef56gh78ij90}',
    '',
  ].join('\n');

  redactedInGenerateAndWindow(manifest, redacted, [
    [39, 59],
    [69, 89],
    [204, 215],
  ]);

  it('reads no flow mapping of a text that declares no Secret', () => {
    const configMap = 'apiVersion: v1\nkind: ConfigMap\ndata: {db: cGFzc3dvcmQxMjM0NQ==}\n';
    return promptSentWithRecords(secrets({ action: 'redact' }), configMap).then(({ sent }) =>
      expect(sent).toBe(configMap),
    );
  });
});

/**
 * Round 32. A YAML flow mapping's value was read up to 16,384 characters:
 * a longer one (`data: {tls.key: <20 KB of base64>}`, a certificate bundle)
 * was no member, so it and every member after it reached the model whole
 * (the JSON form was fixed in round 30). Each form is now read to its end.
 */
describe('Kubernetes Secret values in YAML flow style past 16,384 characters', () => {
  it('generateText: bare, quoted and list-item values are redacted whole, and the mapping read on', async () => {
    for (const length of [16_385, 163_840]) {
      const value = seededRun(length, base64Alphabet, 321);
      for (const [before, after] of [
        ['kind: Secret\ndata: {tls.key: ', ', db: cGFzc3dvcmQxMjM0NQ==}\n'],
        ['kind: Secret\ndata: {"tls.key": "', '", db: cGFzc3dvcmQxMjM0NQ==}\n'],
        ["kind: Secret\ndata: {'ca.crt': '", "', db: cGFzc3dvcmQxMjM0NQ==}\n"],
        ['items:\n- {kind: Secret, data: {ca.crt: ', ', db: cGFzc3dvcmQxMjM0NQ==}}\n'],
      ] as const) {
        const second = before.length + value.length + after.indexOf('cGFz');
        const redacted = `${before}[KUBERNETES_SECRET]${after.replace('cGFzc3dvcmQxMjM0NQ==', '[KUBERNETES_SECRET]')}`;
        await expectInputRedacted(
          () => secrets({ action: 'redact' }),
          `${before}${value}${after}`,
          redacted,
          [
            {
              guardrail: 'secrets',
              kind: 'input',
              status: 'modified',
              info: {
                types: ['KUBERNETES_SECRET'],
                spans: [
                  { type: 'KUBERNETES_SECRET', start: before.length, end: before.length + length },
                  { type: 'KUBERNETES_SECRET', start: second, end: second + 20 },
                ],
              },
            },
          ],
        );
      }
    }
  });
});
