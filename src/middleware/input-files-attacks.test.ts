import { describe, expect, it, vi } from 'vitest';
import { fileSent } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { decodedByteLength } from '../tools/model-output-check';

const EMAIL = 'jane.doe@corp.io';
const utf8 = (text: string) => new TextEncoder().encode(text);
/** `text` as UTF-16 code units in the given byte order, after `bom` bytes. */
function utf16(text: string, order: 'le' | 'be', bom: number[] = []): Uint8Array {
  const bytes = new Uint8Array(bom.length + text.length * 2);
  bytes.set(bom);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const [first, second] = order === 'le' ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff];
    bytes[bom.length + 2 * i] = first;
    bytes[bom.length + 2 * i + 1] = second;
  }
  return bytes;
}

/** What the model got for one user file of `mediaType` and `data` bytes, pii redacting input. */
const sentFile = (mediaType: string, data: Uint8Array | string) =>
  fileSent(pii({ action: 'redact' }), mediaType, data);

const unreadable = {
  blocked: 'content-filter',
  reason: {
    guardrails: {
      status: 'blocked',
      records: [
        {
          guardrail: 'input-unreadable',
          kind: 'input',
          status: 'error',
          part: 'file',
          reason:
            'message 0 (user) was not judged: a file part the model reads as text could not be read',
          durationMs: 0,
        },
      ],
    },
  },
};

describe('a text file in another encoding is judged in the text it carries', () => {
  it('UTF-16 with a byte order mark (either order) is decoded as UTF-16 and put back as UTF-8, its charset saying so', async () => {
    // Read as UTF-8 it was j\0a\0n\0e\0…: no address found, the bytes sent on as they were.
    for (const [mediaType, data] of [
      ['text/plain', utf16(`Mail ${EMAIL} now`, 'le', [0xff, 0xfe])],
      ['text/plain; charset=utf-16', utf16(`Mail ${EMAIL} now`, 'be', [0xfe, 0xff])],
    ] as const) {
      expect(await sentFile(mediaType, data)).toEqual({
        mediaType: 'text/plain; charset=utf-8',
        text: 'Mail [EMAIL_ADDRESS] now',
        bytes: utf8('Mail [EMAIL_ADDRESS] now'),
      });
    }
  });

  it('a charset label is honoured without a byte order mark (utf-16be, latin1); the charset says utf-8 after a redaction', async () => {
    expect(await sentFile('text/csv;charset="UTF-16BE"', utf16(`mail,${EMAIL}`, 'be'))).toEqual({
      mediaType: 'text/csv; charset=utf-8',
      text: 'mail,[EMAIL_ADDRESS]',
      bytes: utf8('mail,[EMAIL_ADDRESS]'),
    });
    // é as one latin1 byte: read as UTF-8 it was U+FFFD, and was sent back so after a redaction.
    const latin1 = Uint8Array.from(`Café ${EMAIL}`, c => c.charCodeAt(0));
    expect(await sentFile('text/plain; charset=ISO-8859-1', latin1)).toEqual({
      mediaType: 'text/plain; charset=utf-8',
      text: 'Café [EMAIL_ADDRESS]',
      bytes: utf8('Café [EMAIL_ADDRESS]'),
    });
  });

  it('an unmodified file in another encoding is sent as UTF-8 of the text judged, its charset saying so', async () => {
    // It was sent as it came (round 14): bytes a reader may take for UTF-8 (see below).
    const data = utf16('Nothing to hide here.', 'le', [0xff, 0xfe]);
    expect(await sentFile('text/plain; charset=utf-16', data)).toEqual({
      mediaType: 'text/plain; charset=utf-8',
      text: 'Nothing to hide here.',
      bytes: utf8('Nothing to hide here.'),
    });
  });

  it('an encoding it cannot decode, or a byte order it cannot tell, fails closed (input-unreadable)', async () => {
    // utf-16 without a byte order mark: little or big endian is the reader's guess.
    expect(await sentFile('text/plain; charset=utf-16', utf16(`Mail ${EMAIL}`, 'be'))).toEqual(
      unreadable,
    );
    // UTF-32 (a TextDecoder reads no UTF-32), by label or by its byte order mark.
    const utf32 = Uint8Array.from([0xff, 0xfe, 0, 0, 0x6a, 0, 0, 0]);
    expect(await sentFile('text/plain; charset=utf-32', utf8(`Mail ${EMAIL}`))).toEqual(unreadable);
    expect(await sentFile('text/plain', utf32)).toEqual(unreadable);
    // Two charset parameters that disagree: which one a provider reads is unknown.
    expect(
      await sentFile('text/plain; charset=utf-8; charset=utf-16le', utf8(`Mail ${EMAIL}`)),
    ).toEqual(unreadable);
  });
});

describe('a charset label the bytes contradict', () => {
  it('UTF-8 bytes labelled another encoding that reads them otherwise fail closed: the provider may read them as UTF-8', async () => {
    // Read as the label says, `card 4111…` in UTF-8 bytes was CJK (utf-16le)
    // and full-width digits were mojibake (latin1): pii found nothing and the
    // bytes went on, which a provider decoding UTF-8 gives the model as a card.
    expect(
      await sentFile('text/plain; charset=utf-16le', utf8('card 4111 1111 1111 1111')),
    ).toEqual(unreadable);
    expect(
      await sentFile(
        'text/plain; charset=latin1',
        utf8('card ４１１１ １１１１ １１１１ １１１１'),
      ),
    ).toEqual(unreadable);
    expect(await sentFile('text/plain; charset=windows-1252', utf8(`Mail\u200B ${EMAIL}`))).toEqual(
      unreadable,
    );
    // Bytes that read the same either way are judged as before: ASCII under
    // latin1, and UTF-16 text of ASCII characters (as UTF-8: the letters
    // with a NUL between each, which normalisation drops).
    expect(await sentFile('text/plain; charset=latin1', utf8(`Mail ${EMAIL}`))).toEqual({
      mediaType: 'text/plain; charset=utf-8',
      text: 'Mail [EMAIL_ADDRESS]',
      bytes: utf8('Mail [EMAIL_ADDRESS]'),
    });
    expect(await sentFile('text/plain; charset=utf-16le', utf16(`Mail ${EMAIL}`, 'le'))).toEqual({
      mediaType: 'text/plain; charset=utf-8',
      text: 'Mail [EMAIL_ADDRESS]',
      bytes: utf8('Mail [EMAIL_ADDRESS]'),
    });
  });
});

describe('bytes a byte order mark or label reads otherwise than UTF-8 does', () => {
  it('go on as UTF-8 of the text judged: a UTF-16 byte order mark before UTF-8, or one bad byte, hid a card', async () => {
    // Judged as UTF-16 (CJK) or latin1 (mojibake), the bytes went on as they
    // came, which a UTF-8 reader (TextDecoder without `fatal`) shows the model
    // as `��card 4111 1111 1111 1111`: the valid-UTF-8 check of round 15 saw
    // neither the byte order mark nor a stray 0xFF as UTF-8.
    const card = utf8('card 4111 1111 1111 1111');
    const cjk = new TextDecoder('utf-16le').decode(card);
    for (const [mediaType, data, judged] of [
      ['text/plain', new Uint8Array([0xff, 0xfe, ...card]), cjk],
      ['text/plain; charset=utf-8', new Uint8Array([0xff, 0xfe, ...card]), cjk],
      [
        'text/plain',
        new Uint8Array([0xfe, 0xff, ...card]),
        new TextDecoder('utf-16be').decode(card),
      ],
      ['text/plain; charset=utf-16le', new Uint8Array([...card, 0xff, 0xff]), `${cjk}\uffff`],
      [
        'text/plain; charset=latin1',
        new Uint8Array([...utf8('card ４１１１ １１１１ １１１１ １１１１'), 0xff]),
        new TextDecoder('latin1').decode(
          new Uint8Array([...utf8('card ４１１１ １１１１ １１１１ １１１１'), 0xff]),
        ),
      ],
    ] as const) {
      expect(new TextDecoder().decode(data)).toContain('card ');
      expect(await sentFile(mediaType, data), mediaType).toEqual({
        mediaType: 'text/plain; charset=utf-8',
        text: judged,
        bytes: utf8(judged),
      });
    }
  });
});

describe('text media types a provider reads as text', () => {
  it('source code and rich text under application/x-* names are judged (Gemini reads them as text)', async () => {
    for (const mediaType of [
      'application/x-javascript',
      'application/x-typescript',
      'application/typescript',
      'application/x-python',
      'application/x-python-code',
      'application/rtf',
      'application/toml',
      'application/x-httpd-php',
      'APPLICATION/X-PYTHON-CODE; charset=utf-8',
    ]) {
      expect(await sentFile(mediaType, utf8(`# ${EMAIL}`)), mediaType).toEqual({
        mediaType,
        text: '# [EMAIL_ADDRESS]',
        bytes: utf8('# [EMAIL_ADDRESS]'),
      });
    }
  });
});

describe('a text file in the prompt has the size limit of a tool result', () => {
  const tooLong = {
    ...unreadable,
    reason: {
      guardrails: {
        ...unreadable.reason.guardrails,
        records: [
          {
            ...unreadable.reason.guardrails.records[0],
            reason:
              'message 0 (user) was not judged: a text file is longer than 1000000 characters',
          },
        ],
      },
    },
  };

  it('a 12 MB file fails closed before it is decoded, as bytes or base64', async () => {
    // It was decoded and judged whole, whatever its size: no limit of its own.
    const bytes = new Uint8Array(12_000_000).fill(0x61);
    expect(await sentFile('text/plain', bytes)).toEqual(tooLong);
    const base64 = 'YWFh'.repeat(1_000_000); // 3,000,000 bytes of `a`
    expect(await sentFile('text/csv', base64)).toEqual(tooLong);
  });

  it('base64 with line breaks (MIME) is refused before decoding too', async () => {
    // `atob` drops the breaks, but the length check read only unbroken base64:
    // 4 MB of it was decoded (and copied twice) before the limit refused it.
    const atob = vi.spyOn(globalThis, 'atob');
    try {
      const mime = `${'YWFh'.repeat(19)}\r\n`.repeat(55_000); // 3,135,000 bytes of `a`
      expect(await sentFile('text/plain', mime)).toEqual(tooLong);
      expect(atob).not.toHaveBeenCalled();
    } finally {
      atob.mockRestore();
    }
    expect(decodedByteLength('YWFh\r\nYWE=\n')).toBe(5);
    expect(decodedByteLength(' YW Fh\tYQ ')).toBe(4);
    // What `atob` refuses is left to it: another character, `=` inside, a bad length.
    for (const data of ['YWFh\n-YWE=', 'YW=\nFh', 'YWFhY\n', 'YWE==\n=']) {
      expect(decodedByteLength(data), data).toBeUndefined();
    }
  });

  it('a UTF-16 file over the limit once decoded fails closed; one at the limit is judged', async () => {
    // 2,000,004 bytes with a byte order mark: 1,000,001 characters, more than its fewest (666,667).
    expect(await sentFile('text/plain', utf16('a'.repeat(1_000_001), 'le', [0xff, 0xfe]))).toEqual(
      tooLong,
    );
    const atLimit = `${EMAIL} ${'a'.repeat(1_000_000 - EMAIL.length - 1)}`;
    const sent = await sentFile('text/plain', utf8(atLimit));
    expect(sent.text).toBe(`[EMAIL_ADDRESS] ${'a'.repeat(1_000_000 - EMAIL.length - 1)}`);
  });
});
