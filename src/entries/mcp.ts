/**
 * switchboard/mcp — the Model Context Protocol (docs/mcp.md). Loads `@modelcontextprotocol/sdk`
 * only when this entry is imported.
 */
// --- MCP servers as a tool source of sessions (client) ---------------------------------------
export {
  connectMcpServers,
  type ConnectMcpServersOptions,
  type McpToolSource,
} from '../mcp/client.js';
export type {
  McpClientConfig,
  McpHttpServerConfig,
  McpServerConfig,
  McpStdioServerConfig,
  McpToolOverlay,
} from '../mcp/client-config.js';
export { McpConnectError } from '../mcp/client-connection.js';
