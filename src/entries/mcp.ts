/**
 * switchboard/mcp — the Model Context Protocol (docs/mcp.md), with the official SDK; loaded only
 * when this entry is imported (`import('switchboard')` never loads it).
 */
// --- a tool set served over MCP (server) ---------------------------------------------------------
export { createMcpServer, type McpServerOptions, type McpToolServer } from '../mcp/server.js';
export { MCP_HTTP_PATH, type McpHttpOptions, type McpHttpListener } from '../mcp/server-http.js';
export type { ConnectionLimits } from '../http-limits.js';
export {
  mcpStdioTransport,
  MAX_MCP_STDIO_LINE_BYTES,
  type McpStdioTransportOptions,
} from '../mcp/server-stdio.js';
export { MAX_MCP_HISTORY, type McpSessionOptions } from '../mcp/server-session.js';
export type { CallSessionOptions } from '../call-runner/served-tools.js';
export { annotationsOf as mcpAnnotationsOf } from '../mcp/server-tools.js';
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
