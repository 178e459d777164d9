/**
 * `switchboard transform <tools> <tool> --args '<json>'`: prints the final argument object (static
 * parameters merged, then defaults) as JSON on stdout, and nothing else there. Reasons, warnings
 * and the `--explain` trace go to stderr.
 */
import { parseArgs } from 'node:util';
import { checkStaticValue } from '../../definition/resolve.js';
import type { ToolDefinition } from '../../definition/types.js';
import { transformCall } from '../../harness/transform-call.js';
import type { TransformTraceEntry } from '../../transform/types.js';
import { EXIT, UsageError, parseJsonOption, type CliIO } from '../io.js';
import { readSystemValues, readVars } from './repl.js';
import { loadToolsFile } from './tools-file.js';

export const transformHelp = `Usage: switchboard transform <tools-file> <tool-name> --args '<json>' [options]

Runs one call's argument pipeline (schema check, static parameters, defaults) and prints the
final argument object as JSON on stdout.

Options:
  --args <json>        the model's arguments (default {})
  --vars <file|json>   session variables: inline JSON, e.g. '{"vars.hospital":"Queens"}', or a
                       JSON/YAML file
  --static <json>      static parameter values overriding the definition's defaults
  --language <tag>     vars.session.language (default en-US)
  --system-values <file|json>  the caller's and the called number and the time zone, as
                       for repl: '{"source":"+15551234","target":"+15559876"}' (read as
                       vars.session.source, target, timezone)
  --explain            print every rule's outcome to stderr
  -h, --help           show this help

Exit codes: 0 printed; 2 with the reason on stderr for a bad definition, an unknown tool,
malformed JSON, arguments the call would refuse (size, depth, JSON Schema), a --static
value naming no static parameter or of the wrong type, or bad usage.
`;

/** Every problem with `--static` values: unknown names and values of the wrong type. */
function staticProblems(
  tool: ToolDefinition,
  overrides: Readonly<Record<string, unknown>>,
): string[] {
  const params = new Map(tool.staticParameters.map((p) => [p.name, p]));
  const problems: string[] = [];
  for (const [key, value] of Object.entries(overrides)) {
    const param = params.get(key);
    if (param === undefined) {
      problems.push(
        `--static names ${JSON.stringify(key)}, which is not a static parameter of ${tool.name} (static parameters: ${[...params.keys()].join(', ') || 'none'})`,
      );
      continue;
    }
    const problem = checkStaticValue(param.type, value);
    if (problem !== undefined) problems.push(`--static ${key} (${param.type}): ${problem}`);
  }
  return problems;
}

function traceLine(e: TransformTraceEntry): string {
  const head = `${e.outcome === 'applied' ? 'applied' : 'skipped'} ${e.action} ${JSON.stringify(e.key)}`;
  const why =
    e.reason !== undefined
      ? ` (${e.reason}${e.detail !== undefined ? `: ${e.detail}` : ''})`
      : e.detail !== undefined
        ? ` (${e.detail})`
        : '';
  const value =
    e.outcome === 'applied' && e.action !== 'remove' && e.value !== undefined
      ? ` = ${JSON.stringify(e.value)}`
      : '';
  return `${head}${value}${why}`;
}

/** Runs the command; returns the exit code. */
export async function transformCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      args: { type: 'string' },
      vars: { type: 'string' },
      static: { type: 'string' },
      language: { type: 'string' },
      'system-values': { type: 'string' },
      explain: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(transformHelp);
    return EXIT.ok;
  }
  const [file, name, ...extra] = positionals;
  if (file === undefined || name === undefined)
    throw new UsageError('expected <tools-file> <tool-name>');
  if (extra.length > 0) throw new UsageError(`unexpected argument(s): ${extra.join(' ')}`);
  const args = (parseJsonOption('args', values.args ?? '{}') ?? {}) as Record<string, unknown>;
  // The same --vars as repl, serve and studio: inline JSON or a JSON/YAML file.
  const vars = values.vars === undefined ? undefined : await readVars(values.vars);
  const systemValues = await readSystemValues(values['system-values']);
  const overrides = parseJsonOption('static', values.static) as Record<string, unknown> | undefined;

  const tools = await loadToolsFile('transform', file, io, false);
  if (tools === undefined) return EXIT.unusable;
  const tool = tools.tools.get(name);
  if (tool === undefined) {
    io.stderr.write(
      `switchboard transform: no tool named ${JSON.stringify(name)} in ${file}; available: ${[...tools.tools.keys()].join(', ') || '(none)'}\n`,
    );
    return EXIT.unusable;
  }
  if (overrides !== undefined) {
    const problems = staticProblems(tool, overrides);
    for (const p of problems) io.stderr.write(`switchboard transform: ${p}\n`);
    if (problems.length > 0) return EXIT.unusable;
  }
  const result = transformCall({
    tools,
    tool: name,
    args,
    ...(vars !== undefined ? { vars } : {}),
    ...(overrides !== undefined ? { staticOverrides: overrides } : {}),
    ...(values.language !== undefined ? { language: values.language } : {}),
    ...(systemValues !== undefined ? { systemValues } : {}),
  });
  if (values.explain === true) {
    io.stderr.write(`input:             ${JSON.stringify(args)}\n`);
    if (result.ok) io.stderr.write(`static parameters: ${JSON.stringify(result.withStatic)}\n`);
    io.stderr.write(`defaults (${result.trace.length} rule(s)):\n`);
    for (const e of result.trace) io.stderr.write(`  ${traceLine(e)}\n`);
  } else {
    for (const e of result.trace) {
      if (e.reason === 'missing_value' || e.reason === 'not_an_object')
        io.stderr.write(`warning: ${traceLine(e)}\n`);
    }
  }
  if (!result.ok) {
    io.stderr.write(
      `switchboard transform: the call would fail with ${result.code}: ${result.message}\n`,
    );
    // docs/cli.md: exit 2 with the reason when the input is bad; refused arguments are bad input.
    return EXIT.unusable;
  }
  io.stdout.write(`${JSON.stringify(result.args, null, 2)}\n`);
  return EXIT.ok;
}
