import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { windowAndGenerateTexts, withoutTiming } from '../../../test/helpers';
import { toolOutputsIn } from '../../../test/helpers/tool-history';
import { turnsModel } from '../../../test/helpers/turns-model';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardTools } from '../../tools/guard-tool';
import { anchoredScanMismatches, findSecrets } from './find-secrets';
import { secrets } from './secrets';

const found = (text: string) =>
  findSecrets(text).map(span => [span.type, text.slice(span.start, span.end)]);

describe('secrets in config formats', () => {
  it.each([
    ['YAML', 'db:\n  password: "Tr0ub4dor&3x"'],
    ['JSON', '{"password": "Tr0ub4dor&3x"}'],
    ['.env', 'DB_PASSWORD=Tr0ub4dor&3x'],
    ['HCL', 'variable "db" {\n  password = "Tr0ub4dor&3x"\n}'],
    ['INI', '[database]\npassword = Tr0ub4dor&3x'],
    ['NuGet XML', '<add key="ClearTextPassword" value="Tr0ub4dor&3x" />'],
    ['XML element', '<password>Tr0ub4dor&3x</password>'],
    ['connection string', 'Server=db;User Id=sa;Password=Tr0ub4dor&3x;'],
    ['--password flag', 'docker login --password Tr0ub4dor&3x'],
    ['attached -p of mysql', 'mysql -u root -pTr0ub4dor&3x mydb'],
    ['sshpass -p', 'sshpass -p Tr0ub4dor&3x ssh admin@host'],
    // Round 33: a YAML block scalar's value was read by no scan.
    ['a YAML literal block', 'password: |\n  Tr0ub4dor&3x\n'],
    ['a YAML folded block', 'config:\n  db_password: >-\n    Tr0ub4dor&3x\n  user: bob\n'],
    ['a YAML block kept, indented by 2', 'password: |+2\n  Tr0ub4dor&3x\n\nnext: 1'],
    ['a YAML block with a comment', 'password: | # prod\n  Tr0ub4dor&3x\n'],
    ['a YAML block in a list item', 'users:\n- password: |\n    Tr0ub4dor&3x\n- name: bob\n'],
    ['a YAML block under a quoted key', '"db_password": >\n  Tr0ub4dor&3x\n'],
    ['a YAML block with CRLF', 'password: |\r\n  Tr0ub4dor&3x\r\nuser: bob\r\n'],
    ['a YAML block after a tab', 'password:\t|\n  Tr0ub4dor&3x'],
  ])('finds the password in %s', (_format, text) => {
    expect(found(text)).toEqual([['GENERIC_SECRET', 'Tr0ub4dor&3x']]);
  });

  it('reads a NuGet password by its key even when it looks like a name', () => {
    expect(found('<add key="ClearTextPassword" value="CleartextPassword1" />')).toEqual([
      ['GENERIC_SECRET', 'CleartextPassword1'],
    ]);
  });

  it('leaves flags that are not secrets alone', () => {
    expect(found('mysql -u root -p mydb')).toEqual([]); // -p alone prompts
    expect(found('ssh -p 2222 host && mkdir -p build')).toEqual([]);
    expect(found(`tool --token $API_TOKEN --password "\${DB_PASSWORD}"`)).toEqual([]);
    expect(found('<token>true</token>')).toEqual([]);
  });

  it('finds every value of a Kubernetes Secret, base64 data and plain stringData', () => {
    const manifest = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: app',
      'data:',
      '  # base64',
      '  ca.pem: TFMwdExTMUNSVWRKVGlCRFJWSlVTVVpKUTBGVVJTMHRMUzB0',
      '  .dockercfg: >',
      '    eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlIjp7ImF1dGgiOiJjMlZqY21WMCJ9fX0=',
      'stringData:',
      '  api: q8Zr4Lm2Xw9T',
      'type: Opaque',
    ].join('\n');
    expect(found(manifest)).toEqual([
      ['KUBERNETES_SECRET', 'TFMwdExTMUNSVWRKVGlCRFJWSlVTVVpKUTBGVVJTMHRMUzB0'],
      ['KUBERNETES_SECRET', 'eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlIjp7ImF1dGgiOiJjMlZqY21WMCJ9fX0='],
      ['KUBERNETES_SECRET', 'q8Zr4Lm2Xw9T'],
    ]);
  });

  it('reads data: blocks only in a Secret, and not short samples', () => {
    const configMap = 'kind: ConfigMap\ndata:\n  mode: cHJvZHVjdGlvbg==\n';
    expect(found(configMap)).toEqual([]);
    expect(found('kind: Secret\ndata:\n  extra: YmFyCg==\n')).toEqual([]);
  });
});

describe('providers recognised by their name in the key', () => {
  it.each([
    [
      'SNYK_TOKEN',
      'SNYK_TOKEN := "3f9a8c2e-71b4-4d0a-9e6f-2c5b8a1d7e40"',
      '3f9a8c2e-71b4-4d0a-9e6f-2c5b8a1d7e40',
    ],
    [
      'SONAR_TOKEN',
      'sonar.login=sqp_8fK2mQ9xR4tL7vN1bC6zH3jW5pY0dS2gA8eU4iOq',
      'sqp_8fK2mQ9xR4tL7vN1bC6zH3jW5pY0dS2gA8eU4iOq',
    ],
    ['SUMOLOGIC_SECRET', 'SUMO_ACCESS_ID = "suGyI5imvQdPzW"', 'suGyI5imvQdPzW'],
    ['CONFLUENT_SECRET', '"confluent_api_key": "k7q2m9x4r1t8v5n3"', 'k7q2m9x4r1t8v5n3'],
    [
      'FASTLY_TOKEN',
      'fastly_token: lje9pva1f6p-z96e26qscphpkzg1wg_=',
      'lje9pva1f6p-z96e26qscphpkzg1wg_=',
    ],
    [
      'MESSAGEBIRD_TOKEN',
      'MessageBird_key = "a8Kq2Xm9Rt4Lw7Nv1Bc6Zh3Jp"',
      'a8Kq2Xm9Rt4Lw7Nv1Bc6Zh3Jp',
    ],
    [
      'HUBSPOT_API_KEY',
      'const hubspotKey = "9c1e4b7a-2d5f-4e8a-b3c6-0f9d2a7e5b18"',
      '9c1e4b7a-2d5f-4e8a-b3c6-0f9d2a7e5b18',
    ],
    [
      'TELEGRAM_BOT_TOKEN',
      'telegram bot: 37746062:Al_d4hpm_7z8cwyzu2camtttyv5_mpo--vg',
      '37746062:Al_d4hpm_7z8cwyzu2camtttyv5_mpo--vg',
    ],
  ])('%s', (type, text, value) => {
    expect(found(text)).toEqual([[type, value]]);
  });

  it('finds prefixed tokens of OpenShift, Heroku and legacy Slack workspaces', () => {
    expect(found('oc login --token=sha256~CyEkLrLKpv1W5OKRdFvD--a4QsbTsJEby5vKtPLthwk')).toEqual([
      ['OPENSHIFT_TOKEN', 'sha256~CyEkLrLKpv1W5OKRdFvD--a4QsbTsJEby5vKtPLthwk'],
    ]);
    expect(found('"refresh_token1": "xoxr-5-z1va9fmkjmsi"')).toEqual([
      ['SLACK_TOKEN', 'xoxr-5-z1va9fmkjmsi'],
    ]);
  });

  it('needs the provider name: a bare UUID is not a Snyk token', () => {
    expect(found('request id 3f9a8c2e-71b4-4d0a-9e6f-2c5b8a1d7e40')).toEqual([]);
  });

  it('scans the new rules only near their anchors, with the same matches as a full scan', () => {
    const text = [
      'SNYK_TOKEN := "3f9a8c2e-71b4-4d0a-9e6f-2c5b8a1d7e40"',
      'docker login --password Tr0ub4dor&3x',
      'mysql -u root -pTr0ub4dor&3x',
      '<apiKey>q8Zr4Lm2Xw9T</apiKey>',
      'telegram bot: 37746062:Al_d4hpm_7z8cwyzu2camtttyv5_mpo--vg',
      'sha256~CyEkLrLKpv1W5OKRdFvD--a4QsbTsJEby5vKtPLthwk',
    ];
    for (const separator of ['', ' ', '\n']) {
      expect(anchoredScanMismatches(text.join(separator))).toEqual([]);
    }
  });
});

describe('Kubernetes Secret scan on nested blocks', () => {
  it('reads a data: nested inside a data: block once, as part of the outer block', () => {
    // Each line is read by one block only (linear on a staircase of ever
    // deeper `data:` lines; timed in bench/ and the hostile test, not here).
    const staircase = `kind: Secret\n${Array.from({ length: 400 }, (_, step) => `${' '.repeat(step)}data:`).join('\n')}`;
    expect(findSecrets(staircase)).toEqual([]);
    const nested = 'kind: Secret\ndata:\n  inner:\n    data:\n      key: TFMwdExTMUNSVWRKVGlC\n';
    // Every value under a Secret's data is a secret, reported once.
    expect(found(nested)).toEqual([['KUBERNETES_SECRET', 'TFMwdExTMUNSVWRKVGlC']]);
    const after =
      'kind: Secret\ndata:\n  a: TFMwdExTMUNSVWRKVGlC\nstringData:\n  b: q8Zr4Lm2Xw9T\n';
    expect(found(after)).toEqual([
      ['KUBERNETES_SECRET', 'TFMwdExTMUNSVWRKVGlC'],
      ['KUBERNETES_SECRET', 'q8Zr4Lm2Xw9T'],
    ]);
  });
});

describe('Kubernetes Secret forms beyond kind: Secret on a line of its own', () => {
  const B64 = 'cGFzc3dvcmQxMjM0NTY3OA==';
  it('reads the JSON form, minified (a tool result) and as kubectl get secret -o json prints it (data before kind)', () => {
    // Only a value under a secret-named key (`password`) was found: `ca.crt`,
    // `user` and every stringData value reached the model.
    expect(
      found(
        `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"data":{"ca.crt":"${B64}","user":"YWRtaW5pc3RyYXRvcg=="},"stringData":{"extra":"hunter2hunter"}}`,
      ),
    ).toEqual([
      ['KUBERNETES_SECRET', B64],
      ['KUBERNETES_SECRET', 'YWRtaW5pc3RyYXRvcg=='],
      ['KUBERNETES_SECRET', 'hunter2hunter'],
    ]);
    const kubectl = `{\n    "apiVersion": "v1",\n    "data": {\n        "ca.crt": "${B64}",\n        "user": "YWRtaW5pc3RyYXRvcg=="\n    },\n    "kind": "Secret",\n    "metadata": {\n        "name": "db"\n    },\n    "type": "Opaque"\n}`;
    expect(found(kubectl)).toEqual([
      ['KUBERNETES_SECRET', B64],
      ['KUBERNETES_SECRET', 'YWRtaW5pc3RyYXRvcg=='],
    ]);
  });

  it('reads kind: Secret with a comment or quotes, and a Secret as an item of a List', () => {
    expect(
      found(`kind: Secret # db credentials for the payments service\ndata:\n  extra: ${B64}\n`),
    ).toEqual([['KUBERNETES_SECRET', B64]]);
    expect(found(`kind: "Secret"\ndata:\n  extra: ${B64}\n`)).toEqual([['KUBERNETES_SECRET', B64]]);
    expect(found("kind: 'Secret'\nstringData:\n  extra: hunter2hunter\n")).toEqual([
      ['KUBERNETES_SECRET', 'hunter2hunter'],
    ]);
    expect(
      found(
        `apiVersion: v1\nkind: List\nitems:\n- kind: Secret\n  data: # base64\n    extra: ${B64}\n`,
      ),
    ).toEqual([['KUBERNETES_SECRET', B64]]);
    expect(
      found(`{"kind":"List","items":[{"kind":"Secret","stringData":{"extra":"hunter2hunter"}}]}`),
    ).toEqual([['KUBERNETES_SECRET', 'hunter2hunter']]);
  });

  it('reads no data of a text that declares no Secret, nor a kind that only starts like one', () => {
    expect(found(`{"kind":"ConfigMap","data":{"color":"Ymx1ZWJsdWVibHVl"}}`)).toEqual([]);
    expect(found(`{"kind":"SecretProviderClass","data":{"color":"Ymx1ZWJsdWVibHVl"}}`)).toEqual([]);
    expect(found(`kind: SecretStore # x\ndata:\n  color: Ymx1ZWJsdWVibHVl\n`)).toEqual([]);
    expect(found(`{"kind":"Secret","data":{"extra":"YmFyCg=="}}`)).toEqual([]); // a short sample
  });
});

describe('a Kubernetes Secret as JSON, end to end', () => {
  const B64 = 'cGFzc3dvcmQxMjM0NTY3OA==';
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db' },
    data: { 'ca.crt': B64, user: 'YWRtaW5pc3RyYXRvcg==' },
    type: 'Opaque',
  };

  it('through guardTools: the model reads no data value of a Secret a tool returns; the record has their spans', async () => {
    // The tool's result reached the model with both values: no key names a secret.
    const model = turnsModel([
      { toolCalls: [{ toolCallId: 'c1', toolName: 'kubectl', input: {} }] },
      { text: 'Done.' },
    ]);
    const result = await generateText({
      model,
      tools: guardTools(
        {
          kubectl: tool({
            inputSchema: z.object({}),
            execute: async () => secret,
          }),
        },
        { output: [secrets({ action: 'redact' })] },
      ),
      prompt: 'Show the db secret.',
      stopWhen: isStepCount(2),
    });
    expect(toolOutputsIn(model.doGenerateCalls[1]!.prompt)).toEqual([
      {
        type: 'json',
        value: {
          ...secret,
          data: { 'ca.crt': '[KUBERNETES_SECRET]', user: '[KUBERNETES_SECRET]' },
        },
      },
    ]);
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'tool_output',
        status: 'modified',
        toolName: 'kubectl',
        toolCallId: 'c1',
        info: {
          types: ['KUBERNETES_SECRET'],
          spans: [
            // Of the canonical JSON judged: keys sorted, `data` before `kind`.
            { type: 'KUBERNETES_SECRET', start: 37, end: 61 },
            { type: 'KUBERNETES_SECRET', start: 71, end: 91 },
          ],
        },
      },
    ]);
  });

  it('an answer printing kubectl get secret -o json is redacted alike in generate and in window streaming', async () => {
    const answer = `Here it is:\n${JSON.stringify(secret, null, 4)}\nDone.`;
    const redacted = answer
      .replace(B64, '[KUBERNETES_SECRET]')
      .replace('YWRtaW5pc3RyYXRvcg==', '[KUBERNETES_SECRET]');
    const chunkings = [[1], [7], [13, 2, 40], [64]];
    expect(await windowAndGenerateTexts(secrets({ action: 'redact' }), answer, chunkings)).toEqual({
      generated: redacted,
      streamed: chunkings.map(() => redacted),
    });
  });
});
