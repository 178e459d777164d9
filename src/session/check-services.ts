/**
 * Checks of the host's `services` and `actions` at `createSession`/`restoreSession` (issue 44
 * items 1–2, issue 43 "credentials follow their service"): every field of every service and its
 * auth, with the path of what is wrong; `origins` required for a service with credentials; action
 * handlers only for action tools. A tool naming a service nothing configures is a warning (its
 * calls fail with `not_available`): a tools file is often shared by bots that use part of it.
 */
import type { ToolDefinition } from '../definition/types.js';
import type { DefinitionIssue } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { kindOf } from '../option-checks.js';
import { headerProblem } from '../handlers/endpoint/build-request.js';
import {
  ANY_ORIGIN,
  credentialsOf,
  originOf,
  connectionLimitProblems,
  originProblems,
  ServiceOrigins,
} from '../handlers/endpoint/service-origins.js';
import type { SessionOptions } from './types.js';

type Problem = (path: string, message: string, code?: string) => void;

const SERVICE_KEYS = ['auth', 'headers', 'origins', 'maxConnections'];
const AUTH_KEYS: Readonly<Record<string, readonly string[]>> = {
  basic: ['type', 'username', 'password'],
  bearer: ['type', 'token'],
  custom_headers: ['type', 'headers'],
  oauth2: ['type', 'client_id', 'client_secret', 'auth_url', 'scope'],
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What checking one services object against one tool map found, to replay. */
interface ServiceFindings {
  readonly problems: ReadonlyArray<readonly [string, string, string | undefined]>;
  readonly warnings: readonly DefinitionIssue[];
}

/**
 * Findings by services object, then tool map: a host passes the same objects to every session,
 * so they are checked once, not at every createSession (about 15 µs of a createSession's 18).
 */
const checkedServices = new WeakMap<
  object,
  WeakMap<ReadonlyMap<string, ToolDefinition>, ServiceFindings>
>();

/** Checks the options' services and actions; problems to `problem`, warnings to `warn`. */
export function checkServicesAndActions(
  options: SessionOptions,
  problem: Problem,
  warn: (issue: DefinitionIssue) => void,
): void {
  checkActions(options, problem);
  const services: unknown = options.services;
  if (services !== undefined && !isRecord(services)) {
    problem('services', `expected an object of services by name, got ${kindOf(services)}`);
    return;
  }
  const tools = options.tools.tools;
  const byTools = services === undefined ? undefined : checkedServices.get(services);
  let findings = byTools?.get(tools);
  if (findings === undefined) {
    const problems: Array<readonly [string, string, string | undefined]> = [];
    const warnings: DefinitionIssue[] = [];
    const record: Problem = (path, message, code) => void problems.push([path, message, code]);
    const configured = services ?? {};
    for (const [name, config] of Object.entries(configured))
      checkService(options, name, config, record, (w) => void warnings.push(w));
    checkToolServices(options, configured, record, (w) => void warnings.push(w));
    findings = { problems, warnings };
    // Only a clean result is kept: a host that fixes its object after an error is checked again.
    if (services !== undefined && problems.length === 0) {
      const map = byTools ?? new WeakMap();
      map.set(tools, findings);
      if (byTools === undefined) checkedServices.set(services, map);
    }
  }
  for (const [path, message, code] of findings.problems) problem(path, message, code);
  for (const w of findings.warnings) warn(w);
}

/** Each action handler is a function registered under the name of an action tool. */
function checkActions(options: SessionOptions, problem: Problem): void {
  const actions: unknown = options.actions;
  if (actions === undefined) return;
  const isMap = actions instanceof Map;
  if (!isMap && !isRecord(actions)) {
    problem(
      'actions',
      `expected an object (or Map) of handlers by tool name, got ${kindOf(actions)}`,
    );
    return;
  }
  const tools = options.tools.tools;
  // Made every createSession: no list is built unless a name is wrong.
  const check = (name: string, handler: unknown): void => {
    const path = `actions.${name}`;
    const tool = tools.get(name);
    if (tool === undefined) {
      const actionTools = [...tools.values()].filter((t) => t.type === 'action').map((t) => t.name);
      problem(
        path,
        `names no tool${didYouMean(name, actionTools)}; action tools: ${actionTools.join(', ') || 'none'}`,
      );
    } else if (tool.type !== 'action')
      problem(
        path,
        `${name} is ${tool.type === 'endpoint' ? 'an' : 'a'} ${tool.type} tool; only action tools call host handlers`,
      );
    if (typeof handler !== 'function') problem(path, `expected a function, got ${kindOf(handler)}`);
  };
  if (isMap)
    for (const [name, handler] of actions as Map<unknown, unknown>) check(String(name), handler);
  else for (const name of Object.keys(actions)) check(name, actions[name]);
}

function checkService(
  options: SessionOptions,
  name: string,
  config: unknown,
  problem: Problem,
  warn: (issue: DefinitionIssue) => void,
): void {
  const base = `services.${name}`;
  if (!isRecord(config)) {
    problem(base, `expected an object ({ auth, headers, origins }), got ${kindOf(config)}`);
    return;
  }
  for (const key of Object.keys(config))
    if (!SERVICE_KEYS.includes(key))
      problem(
        `${base}.${key}`,
        `is not a service setting${didYouMean(key, SERVICE_KEYS)}; settings: ${SERVICE_KEYS.join(', ')}`,
      );
  if (config['headers'] !== undefined)
    checkHeaders(`${base}.headers`, config['headers'], false, problem);
  for (const { path, message } of [...originProblems(config), ...connectionLimitProblems(config)])
    problem(`${base}.${path}`, message);
  const auth = config['auth'];
  if (auth !== undefined) checkAuth(`${base}.auth`, auth, problem);
  const credentials = credentialsOf(config);
  if (credentials === undefined) return;
  if (config['origins'] === undefined) {
    const suggested = suggestedOrigins(options, name);
    problem(
      `${base}.origins`,
      `is required for a service with ${credentials} (its credentials go only to the origins listed): add origins: ${JSON.stringify(suggested.length > 0 ? suggested : ['https://api.example.com'])}${suggested.length > 0 ? ' (where the tools naming it send requests)' : ''}, or origins: ["*"] to send them to any URL a definition names`,
      'origins_required',
    );
  } else if (Array.isArray(config['origins']) && config['origins'].includes(ANY_ORIGIN))
    warn({
      code: 'origins_any',
      severity: 'warning',
      path: `${base}.origins`,
      message: `service "${name}" sends its credentials to any URL a definition names (origins: ["*"])`,
    });
}

function checkAuth(base: string, auth: unknown, problem: Problem): void {
  if (!isRecord(auth)) {
    problem(
      base,
      `expected an object with a type (${Object.keys(AUTH_KEYS).join(', ')}), got ${kindOf(auth)}`,
    );
    return;
  }
  const type = auth['type'];
  const keys =
    typeof type === 'string' && Object.hasOwn(AUTH_KEYS, type) ? AUTH_KEYS[type] : undefined;
  if (keys === undefined) {
    const shown = typeof type === 'string' ? JSON.stringify(type) : kindOf(type);
    problem(
      `${base}.type`,
      `expected one of ${Object.keys(AUTH_KEYS).join(', ')}, got ${shown}${typeof type === 'string' ? didYouMean(type, Object.keys(AUTH_KEYS)) : ''}`,
    );
    return;
  }
  for (const key of Object.keys(auth))
    if (!keys.includes(key))
      problem(
        `${base}.${key}`,
        `is not a setting of ${String(type)} auth${didYouMean(key, keys)}; settings: ${keys.join(', ')}`,
      );
  const text = (key: string, required: boolean): void => {
    const value = auth[key];
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || (required && value === ''))
      problem(`${base}.${key}`, `expected a non-empty string, got ${kindOf(value)}`);
    else if (headerProblem('x', value) !== undefined) problem(`${base}.${key}`, unsendable(value));
  };
  switch (type) {
    case 'bearer':
      text('token', true);
      break;
    case 'basic':
      text('username', true);
      // An empty password is legitimate (an API key as the user name).
      if (typeof auth['password'] !== 'string')
        problem(`${base}.password`, `expected a string, got ${kindOf(auth['password'])}`);
      break;
    case 'custom_headers':
      checkHeaders(`${base}.headers`, auth['headers'], true, problem);
      break;
    case 'oauth2': {
      text('client_id', true);
      text('client_secret', true);
      const url = auth['auth_url'];
      if (typeof url !== 'string' || originOf(url) === undefined)
        problem(
          `${base}.auth_url`,
          `expected an http(s) URL, got ${typeof url === 'string' ? JSON.stringify(url) : kindOf(url)}`,
        );
      if (auth['scope'] !== undefined && typeof auth['scope'] !== 'string')
        problem(`${base}.scope`, `expected a string, got ${kindOf(auth['scope'])}`);
      break;
    }
  }
}

/**
 * What in a header value cannot be sent, without quoting it (it may be a secret): its first
 * unsendable character by code point and place. A line break at the end gets its usual cause,
 * since a value read from a file or a secret mount keeps its final newline.
 */
function unsendable(value: string): string {
  const base = 'contains characters that cannot be sent in an HTTP header';
  if (/\r?\n$/.test(value) && !/[\r\n]/.test(value.replace(/\r?\n$/, '')))
    return `${base}: a line break at the end (a value read from a file keeps its final newline; trim it)`;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x20 && c !== 0x7f && c <= 0xff) continue;
    const code = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    const kind = c > 0xff ? 'a character beyond Latin-1' : 'a control character';
    return `${base}: ${kind} (${code}) at character ${i + 1} of ${value.length}`;
  }
  return base;
}

/** Header names are tokens and values strings a request can carry; secret ones non-empty. */
function checkHeaders(base: string, headers: unknown, secret: boolean, problem: Problem): void {
  if (!isRecord(headers)) {
    problem(base, `expected an object of header values by name, got ${kindOf(headers)}`);
    return;
  }
  const entries = Object.entries(headers);
  if (secret && entries.length === 0) problem(base, 'expected at least one header');
  for (const [name, value] of entries) {
    const path = `${base}.${name}`;
    if (typeof value !== 'string' || (secret && value === ''))
      problem(path, `expected a ${secret ? 'non-empty ' : ''}string, got ${kindOf(value)}`);
    else {
      const why = headerProblem(name, value);
      // The message never quotes the value: it may be a secret.
      if (why !== undefined) problem(path, why.startsWith('header name') ? why : unsendable(value));
    }
  }
}

/** The literal origins of the endpoint tools naming a service (templated hosts are skipped). */
function suggestedOrigins(options: SessionOptions, service: string): string[] {
  const out = new Set<string>();
  for (const tool of options.tools.tools.values()) {
    const url = tool.endpoint?.url;
    if (tool.service !== service || url === undefined) continue;
    const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '{';
    if (authority.includes('{')) continue;
    const origin = originOf(url.replace(/\{[^{}]*\}/g, 'x'));
    if (origin !== undefined) out.add(origin);
  }
  return [...out];
}

/** The endpoint tools naming a service, per tool map (made once: checked at every createSession). */
const namingServices = new WeakMap<
  ReadonlyMap<string, ToolDefinition>,
  readonly ToolDefinition[]
>();
function toolsNamingServices(
  tools: ReadonlyMap<string, ToolDefinition>,
): readonly ToolDefinition[] {
  let named = namingServices.get(tools);
  if (named === undefined) {
    named = [...tools.values()].filter((t) => t.service !== undefined && t.endpoint !== undefined);
    namingServices.set(tools, named);
  }
  return named;
}

/**
 * Every endpoint tool naming a service with `origins` has its URL at one of them; a tool naming a
 * service nothing configures is a warning (with the configured name it is probably meant to be).
 */
function checkToolServices(
  options: SessionOptions,
  services: Readonly<Record<string, unknown>>,
  problem: Problem,
  warn: (issue: DefinitionIssue) => void,
): void {
  const named = toolsNamingServices(options.tools.tools);
  if (named.length === 0) return;
  const origins = new ServiceOrigins(options.services ?? {});
  const unconfigured = new Map<string, string[]>();
  for (const tool of named) {
    const service = tool.service;
    if (service === undefined || tool.endpoint === undefined) continue;
    if (!Object.hasOwn(services, service)) {
      unconfigured.set(service, [...(unconfigured.get(service) ?? []), tool.name]);
      continue;
    }
    const origin = originOf(tool.endpoint.url.replace(/\{[^{}]*\}/g, 'x'));
    if (origin === undefined || origins.allows(service, origin)) continue;
    problem(
      `tools.${tool.name}.endpoint.url`,
      `tool ${tool.name} sends service "${service}" credentials to ${origin}, outside its origins (${origins.declared(service).join(', ')})`,
      'origin_not_allowed',
    );
  }
  for (const [service, tools] of unconfigured)
    warn({
      code: 'service_not_configured',
      severity: 'warning',
      path: `services.${service}`,
      message: `service "${service}" is named by ${tools.join(', ')} but not configured${didYouMean(service, Object.keys(services))}; their calls fail with not_available`,
    });
}
