import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** One tool as an MCP server lists it, and what calling it returns. */
export interface ServedTool {
  name: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[] };
  /** The text result of a call. */
  run: (args: Record<string, unknown>) => string;
}

/**
 * A real MCP server (`@modelcontextprotocol/sdk`) on Streamable HTTP over
 * loopback, stateless: every request lists the tools of `tools` as they are
 * at that moment, so a test can change a definition between two calls (a
 * "rug pull").
 */
export async function startMcpServer(tools: Map<string, ServedTool>) {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  function mcpServer() {
    const server = new Server(
      { name: 'test-tools', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [...tools.values()].map(({ name, description, inputSchema }) => ({
        name,
        ...(description !== undefined && { description }),
        inputSchema,
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async request => {
      const tool = tools.get(request.params.name);
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      calls.push({ name: request.params.name, args });
      if (!tool) return { isError: true, content: [{ type: 'text', text: 'no such tool' }] };
      return { content: [{ type: 'text', text: tool.run(args) }] };
    });
    return server;
  }

  const http: HttpServer = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>(resolve => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () => new Promise<void>(resolve => http.close(() => resolve())),
  };
}
