/**
 * The heavy dependencies, loaded on first use instead of when the package is imported: undici
 * when the first connection pool or endpoint Agent is made, yaml when a YAML file is parsed, Ajv
 * when a load compiles argument schemas, zod when a definition, task or snapshot is checked.
 * Together they were most of `import('switchboard')`'s cold start (docs/architecture.md, "What
 * loads when"). The callers are synchronous (`loadTools`, `parseSnapshot`, a pool's `poolFor`),
 * so these are CommonJS `require`s, not dynamic imports; undici, yaml and Ajv ship only CommonJS,
 * so an `import` of them elsewhere gets the very same instance.
 */
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type * as AjvModule from 'ajv';
import type * as JmesPathModule from 'jmespath';
import type * as Re2jsModule from 're2js';
import type * as UndiciModule from 'undici';
import type * as YamlModule from 'yaml';
import type * as ZodModule from 'zod';

const require = createRequire(import.meta.url);

/** `build()` once, on the first call; the same value after. */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

export const undici = once(() => require('undici') as typeof UndiciModule);
export const yaml = once(() => require('yaml') as typeof YamlModule);
export const ajv = once(() => require('ajv') as typeof AjvModule);
/** zod's `z` namespace (its CommonJS build: this process's other zod users may hold the ESM one). */
export const zod = once(() => (require('zod') as typeof ZodModule).z);
/** @types/jmespath declares only `search`; the package also exports `compile` (parse only). */
export const jmespath = once(
  () =>
    require('jmespath') as typeof JmesPathModule & {
      readonly compile?: (expression: string) => unknown;
    },
);
/** re2js's CommonJS build, shared by schema patterns and CEL's `matches`. */
export const re2js = once(() => (require('re2js') as typeof Re2jsModule).RE2JS);
/** The OpenTelemetry API; its provider registry is process-global, whichever build registered it. */
export const otel = once(() => require('@opentelemetry/api') as typeof OtelApi);
