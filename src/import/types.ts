/**
 * Types of the vendor import/export (docs/import.md): the platforms, the Syllable-format JSON an
 * import produces (what `loadTools` accepts), and the warnings that name every vendor field that
 * did not map exactly.
 */

/** The hosted voice platforms whose tool formats switchboard reads and writes. */
export type Platform = 'vapi' | 'elevenlabs' | 'retell' | 'ultravox';

/** Every {@link Platform}, in the order the CLI lists them. */
export const PLATFORMS = [
  'vapi',
  'elevenlabs',
  'retell',
  'ultravox',
] as const satisfies readonly Platform[];

/**
 * One field that did not map exactly. Nothing is dropped without one.
 *
 * - On import, `path` is the JSON path in the vendor file (`tools[2].server.headers.Authorization`)
 *   and `field` the vendor field relative to its tool (`server.headers.Authorization`).
 * - On export, `path` is the path in the tools file (`tools[0].defaults.city`) and `field` the
 *   Syllable field (`defaults.city`).
 */
export interface ConversionWarning {
  readonly path: string;
  readonly field: string;
  readonly message: string;
  /** The tool's name, when known. */
  readonly tool?: string;
}

/** A JSON Schema object. */
export type JsonSchemaJson = Record<string, unknown>;

/** A static parameter as written in a tools file. */
export interface StaticParameterJson {
  name: string;
  type: 'string' | 'int' | 'boolean' | 'data_source_list';
  default: unknown;
  description?: string;
}

/** `options` fields an import can fill. */
export interface ImportedOptionsJson {
  speech?: {
    after_speech?: boolean;
    interruptible?: boolean;
    before?: { mode: 'always'; phrases: Record<string, string[]> };
    on_error?: { '*': Record<string, string> };
  };
  bridge_phrases?: Record<string, string[]>;
  save?: { from: string; to: string }[];
  background?: boolean;
  side_effects?: 'none' | 'idempotent' | 'unsafe';
}

/** One Syllable-format definition, as JSON (the shape `loadTools` accepts). */
export interface ToolDefinitionJson {
  type: 'action' | 'endpoint' | 'context';
  tool: {
    type: 'function';
    function: { name: string; description?: string; parameters: JsonSchemaJson };
  };
  endpoint?: {
    url: string;
    method: 'get' | 'post' | 'put' | 'delete';
    argument_location: 'body' | 'form' | 'query' | 'path';
    timeout?: number;
  };
  service?: string;
  static_parameters?: StaticParameterJson[];
  defaults?: Record<string, unknown>;
  result?: unknown;
  options?: ImportedOptionsJson;
  /** A workflow (a Retell multi-state LLM's states): `{ task }` as docs/workflows.md writes it. */
  context?: { task: Record<string, unknown> };
}

/** Result of {@link importTools}. */
export interface ImportResult {
  /** Syllable-format definitions: write them as `{ "tools": [...] }` or pass them to `loadTools`. */
  readonly tools: ToolDefinitionJson[];
  readonly warnings: ConversionWarning[];
}

/** Result of {@link exportTools}: the vendor's tool objects and what could not be expressed. */
export interface ExportResult {
  readonly tools: Record<string, unknown>[];
  readonly warnings: ConversionWarning[];
}
