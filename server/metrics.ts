// Prometheus metrics, one registry per app (so tests and cluster workers do not share global state):
// request counter and latency histogram by route pattern and status, the served data version as a gauge,
// whether the rate-limit store is reachable (rate_limit_store_up), the age of each source's data
// (source_data_age_seconds), plus the default Node.js process metrics.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { rateLimitStore, type RateLimitStore } from "./limits/rate-limit.ts";

export interface Metrics {
  registry: Registry;
  observe(method: string, route: string, status: number, seconds: number): void;
}

export function createMetrics(
  dataVersion: () => string,
  limitStore: () => RateLimitStore = rateLimitStore,
  sourceAges: () => { name: string; seconds: number }[] = () => [],
): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's default collectors name three gauges *_total, which Prometheus keeps for counters (promtool check
  // metrics refuses them); the same counts stay in nodejs_active_{resources,handles,requests}{type}.
  for (const name of ["nodejs_active_resources_total", "nodejs_active_handles_total", "nodejs_active_requests_total"]) registry.removeSingleMetric(name);
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new Gauge({
    name: "drought_data_version_info",
    help: "Served drought data version (value 1, version in the label)",
    labelNames: ["version"] as const,
    registers: [registry],
    collect() {
      this.reset();
      let version = "none";
      try {
        version = dataVersion() || "none";
      } catch {
        // not loaded yet
      }
      this.set({ version }, 1);
    },
  });
  new Gauge({
    name: "rate_limit_store_up",
    help: "1 while the rate-limit store is reachable, 0 while it is down and each process limits from memory",
    labelNames: ["store"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const store = limitStore();
      this.set({ store: store.kind }, store.up() ? 1 : 0);
    },
  });
  new Gauge({
    name: "source_data_age_seconds",
    help: "Seconds since the end of the latest date inside each source's data (from the published sources status)",
    labelNames: ["source"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, seconds } of sourceAges()) this.set({ source: name }, seconds);
    },
  });
  return {
    registry,
    observe(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
  };
}
