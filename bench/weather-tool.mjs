// The endpoint benchmarks' tool and its answer (shared by endpoint.bench.mjs and endpoint-cold.mjs).

/** The JSON text the weather endpoint answers with. */
export const WEATHER_BODY = JSON.stringify({
  city: 'Bronx',
  temperature: 21.5,
  conditions: 'sunny',
  forecast: [1, 2, 3, 4, 5].map((d) => ({ d, t: 20 + d })),
});

/** The `get_weather` definition: a path parameter, two defaults that go to the query. */
export function weatherDefinition(origin) {
  return {
    type: 'endpoint',
    tool: {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            units: { type: 'string', enum: ['metric', 'imperial'] },
            days: { type: 'integer' },
          },
          required: ['city'],
          additionalProperties: false,
        },
      },
    },
    endpoint: {
      url: `${origin}/v1/weather/{city}`,
      method: 'get',
      argument_location: 'path',
      timeout: 10,
    },
    defaults: { units: 'metric', days: 3 },
  };
}

/**
 * One call the way the engine makes it: `JSON.parse` of the raw argument string, validation,
 * compiled defaults, then the endpoint handler (the session passes its turn's interruption signal
 * to cancellable calls: one per turn). Resolves with the output; throws if the call failed.
 */
export function engineCaller(tool, handler) {
  const session = { id: 's1', language: 'en-US', vars: {} };
  const turn = new AbortController();
  return async function engineCall() {
    const parsed = JSON.parse('{"city":"Bronx"}');
    if (!tool.validator.validate(parsed).ok) throw new Error('invalid');
    const applied = tool.defaults.apply(parsed, { vars: session.vars });
    if (!applied.ok) throw new Error('defaults');
    const out = await handler.execute(applied.args, {
      tool,
      callId: 'c',
      session,
      signal: turn.signal,
    });
    if (out.type !== 'success')
      throw new Error(`engine call failed: ${out.error.code} ${out.error.message}`);
    return out.output;
  };
}
