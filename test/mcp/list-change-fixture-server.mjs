/**
 * An MCP server (stdio) whose tool list changes while a client is listing it: the second
 * `tools/list` it answers (a client's first re-listing; `--at-first`: the first, at connect) adds
 * a tool and announces the change before answering with the list as it was when the request came. A client that coalesces the
 * announcement into one more listing ends with every tool (client.test.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tool = (name) => ({ name, inputSchema: { type: 'object' } });
let tools = [tool('t1')];
let listings = 0;
const changeAt = process.argv.includes('--at-first') ? 1 : 2;
const server = new Server(
  { name: 'growing', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true } } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => {
  listings++;
  if (listings !== changeAt) return { tools };
  const asked = [...tools, tool('t2')];
  tools = [...asked, tool('t3')];
  // Written before the answer on the one stdio stream: the client reads it during its listing.
  await server.sendToolListChanged();
  return { tools: asked };
});
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [] }));
await server.connect(new StdioServerTransport());
