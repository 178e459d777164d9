/**
 * warmUp: synthetic turns through the real turn path before any caller, touching nothing of the
 * host's: no socket, no shared pool, no span on a registered tracer provider.
 */
import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { connectionPools } from '../../src/handlers/endpoint/connection-pools.js';
import { warmUp, DEFAULT_WARM_UP_TURNS } from '../../src/session/warm-up.js';

const network = (): number =>
  process
    .getActiveResourcesInfo()
    .filter((r) => r === 'TCPSocketWrap' || r === 'TCPConnectWrap' || r === 'GetAddrInfoReqWrap')
    .length;

describe('warmUp', () => {
  it('runs the turns asked for, each a successful endpoint call, without the network', async () => {
    const pools = connectionPools.size;
    const before = network();
    const report = await warmUp({ turns: 9 });
    expect(report.turns).toBe(9);
    expect(report.ms).toBeGreaterThanOrEqual(0);
    // The synthetic tools' origin is never dialled: the shared pools are not even created.
    expect(connectionPools.size).toBe(pools);
    expect(network()).toBe(before);
  });

  it('records no span on a tracer provider the host registered', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    trace.setGlobalTracerProvider(provider);
    try {
      // The provider records: a span made through the global API is exported.
      trace.getTracer('probe').startSpan('probe').end();
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['probe']);
      exporter.reset();
      await warmUp({ turns: 4 });
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      trace.disable();
      context.disable();
    }
  });

  it('runs nothing for 0 turns and refuses a bad count, naming it', async () => {
    await expect(warmUp({ turns: 0 })).resolves.toMatchObject({ turns: 0 });
    for (const turns of [-1, 1.5, Number.NaN, 100_001])
      await expect(warmUp({ turns })).rejects.toThrow(/warmUp: turns must be a whole number/);
    expect(DEFAULT_WARM_UP_TURNS).toBe(2000);
  });
});
