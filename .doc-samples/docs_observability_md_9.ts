import { NodeSDK } from '@opentelemetry/sdk-node';
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace-node';
import { createSession, loadTools, openaiModel } from 'switchboard';

new NodeSDK({ traceExporter: new ConsoleSpanExporter() }).start(); // or an OTLP exporter

const session = createSession({
  tools: await loadTools('tools/clinic.json'),
  model: openaiModel({ model: 'gpt-4o-mini' }),
  tracing: { propagateContext: true }, // optional: W3C traceparent on endpoint requests
});

export {};
