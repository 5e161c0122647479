import { describe, expect, it } from 'vitest';
import { messageStrings, originalsShownIn } from './pseudonym-tool-scope';

describe('what a tool call may restore: the values its messages carry', () => {
  it('reads every string of the messages (texts, tool results), none of byte data', () => {
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'Write to jane.doe@example.com' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'lookup',
            output: { type: 'json', value: { people: [{ email: 'bob@example.org' }] } },
          },
        ],
      },
      { role: 'user', content: [{ type: 'file', data: new Uint8Array([97]), mediaType: 'x/y' }] },
    ];
    expect(messageStrings(messages).sort()).toEqual(
      [
        'user',
        'text',
        'Write to jane.doe@example.com',
        'tool',
        'tool-result',
        'c1',
        'lookup',
        'json',
        'bob@example.org',
        'user',
        'file',
        'x/y',
      ].sort(),
    );
  });

  it('walks 100,000 levels of nesting without a stack overflow', () => {
    let nested: unknown = 'deep@example.com';
    for (let i = 0; i < 100_000; i++) nested = [nested];
    expect(messageStrings(nested)).toEqual(['deep@example.com']);
  });

  it('keeps only the placeholders whose value occurs in the strings', () => {
    const originals = new Map([
      ['<EMAIL_ADDRESS_1>', 'jane.doe@example.com'],
      ['<EMAIL_ADDRESS_2>', 'victim@example.com'],
    ]);
    expect(originalsShownIn(originals, ['Write to jane.doe@example.com', 'Hi'])).toEqual(
      new Map([['<EMAIL_ADDRESS_1>', 'jane.doe@example.com']]),
    );
    expect(originalsShownIn(originals, [])).toEqual(new Map());
  });

  it('past its work bound leaves the remaining placeholders out (fail closed)', () => {
    const originals = new Map([
      ['<EMAIL_ADDRESS_1>', 'a@example.com'],
      ['<EMAIL_ADDRESS_2>', 'b@example.com'],
    ]);
    const strings = ['a@example.com b@example.com'];
    // One value costs the messages' 27 characters plus its own 13.
    expect(originalsShownIn(originals, strings, 40)).toEqual(
      new Map([['<EMAIL_ADDRESS_1>', 'a@example.com']]),
    );
    expect(originalsShownIn(originals, strings, 80)).toEqual(originals);
    expect(originalsShownIn(originals, strings, 39)).toEqual(new Map());
  });
});
