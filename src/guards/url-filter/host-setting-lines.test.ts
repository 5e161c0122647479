import { describe, expect, it } from 'vitest';
import { fetchPageRecords } from '../../../test/helpers/fetch-tool';
import { urlFilter } from './url-filter';

/**
 * Round 27: a JSON member `{"host":"10.1"}` was a host (round 25), but the
 * same setting in a YAML, INI or `.env` file a tool is given was text:
 * `host: 10.1`, `host = 127.1`, `export DB_HOST=2130706433` passed
 * `blockPrivate`, and a tool that connects to `http://` + the setting
 * reaches 10.0.0.1 or 127.0.0.1. A setting line's value under a key that
 * names a host is now read as a host.
 */
async function configRecords(config: string, guardrail = urlFilter({ blockPrivate: true })) {
  let ran = false;
  const records = await fetchPageRecords({ config }, guardrail, () => {
    ran = true;
  });
  return { ran, records };
}

const blocked = (host: string) => ({
  ran: false,
  records: [
    {
      status: 'blocked',
      reason: `http://${host}: host "${host}" is private or local`,
      info: {
        urls: [{ url: `http://${host}`, rule: `host "${host}" is private or local` }],
        count: 1,
      },
    },
  ],
});

describe('urlFilter: short IPv4 forms as a setting line of a host key', () => {
  it('guardTools: YAML, INI and .env settings of a private host block the tool call', async () => {
    expect(await configRecords('db:\n  host: 10.1\n  port: 5432\n')).toEqual(blocked('10.0.0.1'));
    expect(await configRecords('[server]\nhost = 127.1 ; local\n')).toEqual(blocked('127.0.0.1'));
    expect(await configRecords('export DB_HOST=2130706433\n')).toEqual(blocked('127.0.0.1'));
    expect(await configRecords("upstreams:\n  - server_ip: '192.168.1'\n")).toEqual(
      blocked('192.168.0.1'),
    );
  });

  it('guardTools: redaction takes the value only; other keys and public hosts stay', async () => {
    let given: unknown;
    const records = await fetchPageRecords(
      { config: 'host: 10.1\nversion: 10.1\nbackup_host: 8.8\n' },
      urlFilter({ blockPrivate: true, action: 'redact' }),
      input => {
        given = input;
      },
    );
    expect(given).toEqual({ config: 'host: [link removed]\nversion: 10.1\nbackup_host: 8.8\n' });
    expect(records).toEqual([
      {
        status: 'modified',
        reason: undefined,
        info: {
          urls: [{ url: 'http://10.0.0.1', rule: 'host "10.0.0.1" is private or local' }],
          count: 1,
        },
      },
    ]);
    expect(await configRecords('version: 10.1\nreplicas: 3\ntimeout = 0.5\n')).toEqual({
      ran: true,
      records: [{ status: 'passed', reason: undefined, info: undefined }],
    });
  });
});

/**
 * Round 28: a list under a host key was text: `hosts:` then `  - 10.1`
 * lines (a YAML block sequence), `hosts: [10.1, 127.1]` (a flow sequence)
 * and `hosts = ["10.1"]` (a TOML array) passed `blockPrivate`, while
 * `{"hosts":["10.1"]}` was blocked. Each item is now read as a host.
 */
describe('urlFilter: short IPv4 forms as items of a list under a host key', () => {
  it('guardTools: block, flow and TOML lists of a private host block the tool call', async () => {
    expect(await configRecords('hosts:\n  - 10.1\n  - example.com\n')).toEqual(blocked('10.0.0.1'));
    expect(await configRecords('db:\n  servers:\n  # primary\n  - "127.1" # local\n')).toEqual(
      blocked('127.0.0.1'),
    );
    expect(await configRecords('hosts: [8.8, 192.168.1]\n')).toEqual(blocked('192.168.0.1'));
    expect(await configRecords('allowed_hosts = [\'example.com\', "10.1"]\n')).toEqual(
      blocked('10.0.0.1'),
    );
  });

  it('guardTools: redaction takes each private item; other lists and public items stay', async () => {
    let given: unknown;
    const records = await fetchPageRecords(
      { config: 'hosts:\n\n  - 10.1\n  - 8.8\n  - 127.1\nversions:\n  - 10.1\nport: 80\n' },
      urlFilter({ blockPrivate: true, action: 'redact' }),
      input => {
        given = input;
      },
    );
    expect(given).toEqual({
      config:
        'hosts:\n\n  - [link removed]\n  - 8.8\n  - [link removed]\nversions:\n  - 10.1\nport: 80\n',
    });
    expect(records).toEqual([
      {
        status: 'modified',
        reason: undefined,
        info: {
          urls: [
            { url: 'http://10.0.0.1', rule: 'host "10.0.0.1" is private or local' },
            { url: 'http://127.0.0.1', rule: 'host "127.0.0.1" is private or local' },
          ],
          count: 2,
        },
      },
    ]);
    // The list ends at a line of another kind: a later item is no host's.
    expect(
      await configRecords('hosts:\n  - example.com\nnotes: x\n  - 10.1\nversions: [10.1, 10.2]\n'),
    ).toEqual({ ran: true, records: [{ status: 'passed', reason: undefined, info: undefined }] });
  });
});
