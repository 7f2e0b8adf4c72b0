import { Gauge, Histogram, Registry } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  requests: Histogram<'method' | 'route' | 'status'>;
}

/** Each api has its own registry, so several apps in one process (tests) do not collide. */
export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return { registry, requests };
}

/** A gauge read at scrape time, e.g. how many status requests are waiting for their purchase. */
export function gaugeOf(metrics: HttpMetrics, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      this.set(read());
    },
  });
}
