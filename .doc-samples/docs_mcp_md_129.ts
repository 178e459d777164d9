import { loadTools } from 'switchboard';
import { createMcpServer, mcpStdioTransport } from 'switchboard/mcp';

const server = createMcpServer({
  tools: await loadTools('tools.yaml'),
  services: {
    clinic: {
      auth: { type: 'bearer', token: process.env.CLINIC_TOKEN! },
      origins: ['https://api.clinic.test'],
    },
  },
  actions: { transfer: async (args) => ({ transferred: args.to }) },
});
await server.connect(mcpStdioTransport()); // stdin/stdout; or any SDK server transport
const http = await server.listen({ port: 8788 }); // Streamable HTTP on loopback
console.log(http.url); // http://127.0.0.1:8788/mcp

server.setTools(await loadTools('tools-v2.yaml')); // clients get notifications/tools/list_changed
await server.close();

export {};
