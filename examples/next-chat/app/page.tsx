'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { type GuardrailRecord, hasGuardrailBlockedShape } from 'ai-guardrails';
import { type CSSProperties, useState } from 'react';
import type { ChatMessage } from '../lib/chat-message';

const badge: CSSProperties = {
  display: 'inline-block',
  marginTop: 6,
  padding: '2px 8px',
  borderRadius: 999,
  fontSize: 12,
  fontWeight: 600,
};

/** Words for the entity types a redaction record names (records carry types and offsets, never values). */
const typeNames: Record<string, string> = {
  EMAIL_ADDRESS: 'e-mail address',
  PHONE_NUMBER: 'phone number',
  CREDIT_CARD: 'card number',
  IBAN_CODE: 'IBAN',
  US_SSN: 'social security number',
  IP_ADDRESS: 'IP address',
  PERSON: 'name',
  STREET_ADDRESS: 'street address',
};

const describeType = (type: string) =>
  typeNames[type] ??
  type
    .toLowerCase()
    .replaceAll('_', ' ')
    .replace(/ (key|token)$/, ' $1');

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the modifying records of one kind redacted: the types, and the spans of a single text. */
interface Redaction {
  types: string[];
  spans: Array<{ type: string; start: number; end: number }>;
}

function redactionOf(
  message: ChatMessage | undefined,
  kinds: readonly GuardrailRecord['kind'][],
): Redaction | undefined {
  const records = message?.metadata?.guardrails?.records ?? [];
  // A user text's input record has no `role`; one with a role is about another
  // part of the history (an assistant turn), not the text shown here.
  const modified = records.filter(
    r => kinds.includes(r.kind) && r.status === 'modified' && (r.kind !== 'input' || !r.role),
  );
  if (modified.length === 0) return undefined;
  const types = new Set<string>();
  const spans: Redaction['spans'] = [];
  for (const { info } of modified) {
    if (!isObject(info)) continue;
    if (Array.isArray(info.types)) {
      for (const type of info.types) if (typeof type === 'string') types.add(type);
    }
    if (Array.isArray(info.spans)) {
      for (const span of info.spans) {
        if (!isObject(span)) continue;
        const { type, start, end } = span;
        if (typeof type === 'string' && typeof start === 'number' && typeof end === 'number') {
          spans.push({ type, start, end });
        }
      }
    }
  }
  return { types: [...types], spans };
}

/** The user's text as the model received it: each redacted span as [TYPE]. */
function asTheModelSawIt(text: string, spans: Redaction['spans']): string | undefined {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { type, start, end } of sorted) {
    // Offsets from another text (a message of several parts): show no preview rather than a wrong one.
    if (start < at || end > text.length) return undefined;
    out += `${text.slice(at, start)}[${type}]`;
    at = end;
  }
  return out + text.slice(at);
}

/** The record that ended a blocked turn, from the metadata the route forwards. */
function blockingRecord(message: ChatMessage): GuardrailRecord | undefined {
  const outcome = message.metadata?.guardrails;
  if (outcome?.status !== 'blocked') return undefined;
  return outcome.records.find(r => r.status === 'blocked' || r.status === 'error');
}

function MessageView({ message, reply }: { message: ChatMessage; reply?: ChatMessage }) {
  const blockedBy = blockingRecord(message);
  const user = message.role === 'user';
  // The outcome of a turn rides on the assistant's reply. Its input records are
  // about this user's text (earlier turns' verdicts come from the cache, with
  // no new record); its output and tool records are about the reply.
  const inputRedaction =
    user && !blockingRecord(reply ?? message) ? redactionOf(reply, ['input']) : undefined;
  const outputRedaction = user
    ? undefined
    : redactionOf(message, ['output', 'tool_input', 'tool_output']);
  const userText = message.parts.map(part => (part.type === 'text' ? part.text : '')).join('');
  const modelSaw = inputRedaction ? asTheModelSawIt(userText, inputRedaction.spans) : undefined;
  return (
    <li
      data-testid={`message-${message.role}`}
      data-blocked={blockedBy ? 'true' : undefined}
      style={{
        listStyle: 'none',
        margin: '10px 0',
        padding: '10px 14px',
        borderRadius: 10,
        background: user ? '#dfe8ff' : blockedBy ? '#fff1f0' : '#ffffff',
        border: blockedBy ? '1px solid #f3b5ae' : '1px solid #e2e5ea',
      }}
    >
      <strong style={{ fontSize: 12, color: '#5b6473' }}>{user ? 'You' : 'Assistant'}</strong>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === 'text') {
          return (
            <p key={key} data-testid="message-text" style={{ margin: '4px 0' }}>
              {part.text}
            </p>
          );
        }
        if (part.type === 'tool-search') {
          const blocked =
            part.state === 'output-available' && hasGuardrailBlockedShape(part.output);
          return (
            <div
              key={key}
              data-testid="tool-part"
              data-tool-state={part.state}
              data-blocked={blocked ? 'true' : 'false'}
              style={{
                margin: '6px 0',
                padding: '6px 10px',
                borderRadius: 8,
                fontSize: 13,
                background: blocked ? '#fff1f0' : '#f1f5f9',
                border: blocked ? '1px dashed #d4380d' : '1px dashed #94a3b8',
              }}
            >
              tool search({JSON.stringify(part.input)}){' '}
              {blocked && hasGuardrailBlockedShape(part.output) ? (
                <span
                  data-testid="tool-blocked-badge"
                  style={{ ...badge, background: '#d4380d', color: 'white' }}
                >
                  result blocked by {part.output.guardrail.guardrail}
                </span>
              ) : part.state === 'output-available' ? (
                <span>→ {JSON.stringify(part.output)}</span>
              ) : (
                <span>…</span>
              )}
            </div>
          );
        }
        return null;
      })}
      {blockedBy && (
        <span
          data-testid="blocked-badge"
          style={{ ...badge, background: '#d4380d', color: 'white' }}
        >
          blocked by {blockedBy.guardrail}
        </span>
      )}
      {inputRedaction && (
        <div data-testid="input-redaction" style={{ marginTop: 4, fontSize: 13, color: '#1e3a8a' }}>
          <span
            data-testid="input-redacted-badge"
            style={{ ...badge, background: '#e6f4ea', color: '#1e6b35' }}
          >
            {inputRedaction.types.map(describeType).join(', ') || 'personal data'} redacted before
            it reached the model
          </span>
          {modelSaw !== undefined && (
            <p data-testid="model-saw" style={{ margin: '4px 0' }}>
              The model received: {modelSaw}
            </p>
          )}
        </div>
      )}
      {outputRedaction && (
        <span
          data-testid="redacted-badge"
          style={{ ...badge, background: '#e6f4ea', color: '#1e6b35' }}
        >
          redacted: {outputRedaction.types.map(describeType).join(', ') || 'sensitive data'}
        </span>
      )}
    </li>
  );
}

export default function ChatPage() {
  const { messages, sendMessage, status, error } = useChat<ChatMessage>({
    transport: new DefaultChatTransport({ api: '/api/chat' }),
  });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  return (
    <main style={{ maxWidth: 720, margin: '0 auto', padding: 24 }}>
      <h1 style={{ fontSize: 22 }}>Guarded chat</h1>
      <p style={{ color: '#5b6473', fontSize: 14 }}>
        Input: prompt injection blocked, PII redacted. Output: PII and secrets redacted while
        streaming. Tool results: injected instructions withheld.
      </p>
      <ul data-testid="messages" style={{ padding: 0 }}>
        {messages.map((message, index) => (
          <MessageView
            key={message.id}
            message={message}
            reply={messages[index + 1]?.role === 'assistant' ? messages[index + 1] : undefined}
          />
        ))}
      </ul>
      {error && <p data-testid="chat-error">Error: {error.message}</p>}
      <form
        data-testid="chat-form"
        data-status={status}
        onSubmit={event => {
          event.preventDefault();
          if (!input.trim() || busy) return;
          sendMessage({ text: input });
          setInput('');
        }}
        style={{ display: 'flex', gap: 8 }}
      >
        <input
          data-testid="chat-input"
          value={input}
          onChange={event => setInput(event.target.value)}
          placeholder="Ask something…"
          style={{ flex: 1, padding: 10, borderRadius: 8, border: '1px solid #c7ccd4' }}
        />
        <button
          data-testid="chat-send"
          type="submit"
          disabled={busy}
          style={{ padding: '10px 16px', borderRadius: 8 }}
        >
          Send
        </button>
      </form>
    </main>
  );
}
