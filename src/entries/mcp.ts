/**
 * switchboard/mcp — a tool set served over the Model Context Protocol (docs/mcp.md), with the
 * official SDK; `import('switchboard')` never loads it.
 */
export { createMcpServer, type McpServerOptions, type McpToolServer } from '../mcp/server.js';
export { MCP_HTTP_PATH, type McpHttpOptions, type McpHttpListener } from '../mcp/server-http.js';
export { MAX_MCP_HISTORY, type McpSessionOptions } from '../mcp/server-session.js';
export { annotationsOf as mcpAnnotationsOf } from '../mcp/server-tools.js';
