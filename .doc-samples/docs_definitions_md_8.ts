import { loadTools } from 'switchboard';
const tools = await loadTools('fixtures/tools/clinic.json');
tools.tools.get('book_appointment');   // resolved ToolDefinition
tools.warnings;                         // DefinitionIssue[] (severity "warning")

export {};
