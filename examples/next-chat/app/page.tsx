'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { type GuardrailRecord, isGuardrailBlocked } from 'ai-guardrails';
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

/** The record that ended a blocked turn, from the metadata the route forwards. */
function blockingRecord(message: ChatMessage): GuardrailRecord | undefined {
  const outcome = message.metadata?.guardrails;
  if (outcome?.status !== 'blocked') return undefined;
  return outcome.records.find(r => r.status === 'blocked' || r.status === 'error');
}

function MessageView({ message }: { message: ChatMessage }) {
  const blockedBy = blockingRecord(message);
  const redacted = message.metadata?.guardrails?.status === 'modified';
  const user = message.role === 'user';
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
          const blocked = part.state === 'output-available' && isGuardrailBlocked(part.output);
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
              {blocked && isGuardrailBlocked(part.output) ? (
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
      {redacted && (
        <span
          data-testid="redacted-badge"
          style={{ ...badge, background: '#e6f4ea', color: '#1e6b35' }}
        >
          redacted by guardrails
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
        {messages.map(message => (
          <MessageView key={message.id} message={message} />
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
