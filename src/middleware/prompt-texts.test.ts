import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { promptTexts, rebuildPrompt, splitModified } from './prompt-texts';

describe('splitModified', () => {
  const split = (parts: string[], modified: string) =>
    splitModified(
      parts.join(''),
      modified,
      parts.map(p => p.length),
    );

  it('keeps a change inside one part in that part', () => {
    expect(split(['mail ann@corp.io', ' and more'], 'mail [EMAIL] and more')).toEqual([
      'mail [EMAIL]',
      ' and more',
    ]);
    expect(split(['hello ', 'ann@corp.io!'], 'hello [EMAIL]!')).toEqual(['hello ', '[EMAIL]!']);
  });

  it('puts a replacement that spans a boundary in the first part and blanks what it covered', () => {
    expect(split(['write to ann@exa', 'mple.com today'], 'write to [EMAIL] today')).toEqual([
      'write to [EMAIL]',
      ' today',
    ]);
    expect(split(['a ann@', 'corp', '.io b'], 'a [EMAIL] b')).toEqual(['a [EMAIL]', '', ' b']);
  });

  it('moves the text between two changes in different parts into the first: never a leak, always the same joined text', () => {
    const parts = ['x@y.io one ', 'two z@w.io'];
    const modified = '[EMAIL] one two [EMAIL]';
    const result = split(parts, modified);
    expect(result.join('')).toBe(modified);
    expect(result.join('|')).not.toMatch(/@/);
  });

  it('handles insertions at the end, deletions and empty parts', () => {
    expect(split(['ab', 'cd'], 'abcd!')).toEqual(['ab', 'cd!']);
    expect(split(['ab', '', 'cd'], 'ad')).toEqual(['a', '', 'd']);
    expect(split(['ab', 'cd'], '')).toEqual(['', '']);
    expect(split(['only'], 'changed')).toEqual(['changed']);
  });
});

describe('promptTexts / rebuildPrompt', () => {
  it('joins the text parts of a user message, skips text-less messages and keeps other parts', () => {
    const image = {
      type: 'file' as const,
      data: { type: 'data' as const, data: new Uint8Array([1]) },
      mediaType: 'image/png',
    };
    const prompt: LanguageModelV4Prompt = [
      { role: 'system' as const, content: 'sys' },
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'a' },
          image,
          { type: 'text' as const, text: 'b' },
        ],
      },
      { role: 'user' as const, content: [image] },
    ];
    expect(promptTexts(prompt, false).map(t => t.text)).toEqual(['ab']);
    const texts = promptTexts(prompt, true);
    expect(texts.map(t => [t.role, t.text])).toEqual([
      ['system', 'sys'],
      ['user', 'ab'],
    ]);
    const rebuilt = rebuildPrompt(prompt, texts, ['SYS', 'aB']);
    expect(rebuilt[0]).toEqual({ role: 'system', content: 'SYS' });
    expect(rebuilt[1]!.content).toEqual([
      { type: 'text', text: 'a' },
      image,
      { type: 'text', text: 'B' },
    ]);
    expect(rebuilt[2]).toBe(prompt[2]);
    expect(rebuildPrompt(prompt, texts, ['sys', 'ab'])).toBe(prompt);
  });
});
