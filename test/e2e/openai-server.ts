import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Token counts a reply reports. */
export interface ReplyUsage {
  input: number;
  output: number;
}

/** How the local server answers one request. */
export type MockReply =
  /** A complete answer (JSON, or SSE deltas when the client asked to stream). */
  | { text: string; deltas?: string[]; usage?: ReplyUsage }
  /** An HTTP error with an OpenAI-style error body. */
  | { status: number; error: string }
  /** Streams `deltas` (when the client streams) and then never finishes; never answers otherwise. */
  | { hang: true; deltas?: string[] };

/** One request the server received. */
export interface RecordedRequest {
  path: string;
  /** The `model` field of the body. */
  model: string;
  body: Record<string, unknown>;
  stream: boolean;
  /** Resolves when the connection closed; `early` when the client hung up before the answer ended. */
  closed: Promise<{ early: boolean }>;
}

/** Decides the reply of each request; may await (to order events in tests). */
export type Responder = (request: RecordedRequest) => MockReply | Promise<MockReply>;

const defaultUsage: ReplyUsage = { input: 42, output: 7 };

function sse(res: ServerResponse, data: unknown) {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function writeResponses(res: ServerResponse, model: string, reply: MockReply, stream: boolean) {
  const usage = 'text' in reply ? (reply.usage ?? defaultUsage) : defaultUsage;
  const usageJson = {
    input_tokens: usage.input,
    output_tokens: usage.output,
    total_tokens: usage.input + usage.output,
  };
  const created = Math.floor(Date.now() / 1000);
  if (!stream) {
    if (!('text' in reply)) return; // hang: never answer
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'resp_1',
        created_at: created,
        model,
        output: [
          {
            type: 'message',
            role: 'assistant',
            id: 'msg_1',
            content: [{ type: 'output_text', text: reply.text, annotations: [] }],
          },
        ],
        usage: usageJson,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(res, { type: 'response.created', response: { id: 'resp_1', created_at: created, model } });
  sse(res, {
    type: 'response.output_item.added',
    output_index: 0,
    item: { type: 'message', id: 'msg_1' },
  });
  const deltas =
    'text' in reply ? (reply.deltas ?? [reply.text]) : 'hang' in reply ? (reply.deltas ?? []) : [];
  for (const delta of deltas) {
    sse(res, { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, delta });
  }
  if (!('text' in reply)) return; // hang after the deltas
  sse(res, {
    type: 'response.output_item.done',
    output_index: 0,
    item: { type: 'message', id: 'msg_1' },
  });
  sse(res, { type: 'response.completed', response: { usage: usageJson } });
  res.end();
}

function writeChat(res: ServerResponse, model: string, reply: MockReply, stream: boolean) {
  const usage = 'text' in reply ? (reply.usage ?? defaultUsage) : defaultUsage;
  const usageJson = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
  };
  const created = Math.floor(Date.now() / 1000);
  if (!stream) {
    if (!('text' in reply)) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl_1',
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: reply.text },
            finish_reason: 'stop',
          },
        ],
        usage: usageJson,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra = {}) => ({
    id: 'chatcmpl_1',
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
  sse(res, chunk({ role: 'assistant', content: '' }, null));
  const deltas =
    'text' in reply ? (reply.deltas ?? [reply.text]) : 'hang' in reply ? (reply.deltas ?? []) : [];
  for (const delta of deltas) sse(res, chunk({ content: delta }, null));
  if (!('text' in reply)) return;
  sse(res, chunk({}, 'stop', { usage: usageJson }));
  res.write('data: [DONE]\n\n');
  res.end();
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/**
 * A small OpenAI-compatible HTTP server on 127.0.0.1 (ephemeral port) for
 * end-to-end tests through `@ai-sdk/openai`: `POST /v1/responses` (what
 * `openai(modelId)` calls) and `POST /v1/chat/completions` (`openai.chat`),
 * JSON or SSE streams. Every request is recorded, including whether the
 * client closed the connection before the answer ended.
 */
export async function startOpenAIServer(respond: Responder) {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer(async (req, res) => {
    let markClosed!: (value: { early: boolean }) => void;
    const closed = new Promise<{ early: boolean }>(resolve => {
      markClosed = resolve;
    });
    res.on('close', () => markClosed({ early: !res.writableFinished }));
    try {
      const body = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const request: RecordedRequest = {
        path,
        model: String(body.model ?? ''),
        body,
        stream: body.stream === true,
        closed,
      };
      requests.push(request);
      const reply = await respond(request);
      if (res.destroyed) return;
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { message: reply.error, type: 'server_error', param: null, code: 'mock' },
          }),
        );
      } else if (path === '/v1/responses') {
        writeResponses(res, request.model, reply, request.stream);
      } else if (path === '/v1/chat/completions') {
        writeChat(res, request.model, reply, request.stream);
      } else {
        res.writeHead(404).end();
      }
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  server.on('connection', socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** Base URL for `createOpenAI({ baseURL })`. */
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    /** The requests for one model id. */
    requestsFor: (model: string) => requests.filter(request => request.model === model),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}

/** The server type, for tests that share one. */
export type OpenAIServer = Awaited<ReturnType<typeof startOpenAIServer>>;
