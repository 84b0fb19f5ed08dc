// Prometheus metrics, one registry per app (so tests and cluster workers do not share global state):
// request counter and latency histogram by route pattern and status, the served data version as a gauge,
// whether the rate-limit store is reachable (rate_limit_store_up), the age of each source's data
// (source_data_age_seconds), each source's refresh history and status and the last nightly run (from the sources
// status the pipeline publishes), plus the default Node.js process metrics.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { SOURCE_STATES, type SourceStatusFile } from "../formats/source-status.ts";
import { rateLimitStore, type RateLimitStore } from "./limits/rate-limit.ts";

export interface Metrics {
  registry: Registry;
  observe(method: string, route: string, status: number, seconds: number): void;
  /** Rows the bulk route scored (bulk_rows_scored_total). */
  bulkRows(rows: number): void;
}

export function createMetrics(
  dataVersion: () => string,
  limitStore: () => RateLimitStore = rateLimitStore,
  sourceAges: () => { name: string; seconds: number }[] = () => [],
  sourceStatus: () => SourceStatusFile | undefined = () => undefined,
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
  sourceRefreshMetrics(registry, sourceStatus);
  const bulkRows = new Counter({
    name: "bulk_rows_scored_total",
    help: "Rows scored by POST /api/risk-map/bulk (malformed rows included), counted a block at a time as they are scored",
    registers: [registry],
  });
  const children = new Map<string, { count: ReturnType<typeof requests.labels>; latency: ReturnType<typeof latency.labels> }>();
  return {
    registry,
    observe(method, route, status, seconds) {
      // The labelled children, looked up once per method/route/status (prom-client hashes the labels on every
      // call otherwise); bounded: Node's parser knows ~34 methods, routes and statuses are ours.
      const key = `${method} ${route} ${status}`;
      let child = children.get(key);
      if (child === undefined) {
        const labels = { method, route, status: String(status) };
        child = { count: requests.labels(labels), latency: latency.labels(labels) };
        children.set(key, child);
      }
      child.count.inc();
      child.latency.observe(seconds);
    },
    bulkRows: (rows) => bulkRows.inc(rows),
  };
}

const seconds = (iso: string | null | undefined) => (iso ? Date.parse(iso) / 1000 : undefined);

/**
 * What the pipeline's sources status says of each refresh and of the last nightly, so Prometheus can tell a dead
 * nightly (no recent run, exit code ≠ 0) and a frozen upstream (source_status{status="frozen"} 1) from a healthy one.
 */
function sourceRefreshMetrics(registry: Registry, sourceStatus: () => SourceStatusFile | undefined): void {
  const perSource = (name: string, help: string, value: (s: SourceStatusFile["sources"][number]) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ["source"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of sourceStatus()?.sources ?? []) {
          const v = value(s);
          if (v !== undefined) this.set({ source: s.name }, v);
        }
      },
    });
  perSource("source_refresh_last_attempt_timestamp_seconds", "Unix time of each source's last refresh attempt", (s) => seconds(s.lastAttemptAt));
  perSource("source_refresh_last_success_timestamp_seconds", "Unix time of each source's last refresh that did not fail", (s) => seconds(s.lastSuccessAt));
  perSource("source_refresh_consecutive_failures", "Failed refreshes in a row per source (0 after a success)", (s) => s.consecutiveFailures);
  new Counter({
    name: "source_refresh_failures_total",
    help: "Failed refreshes per source recorded in the pipeline's raw cache",
    labelNames: ["source"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of sourceStatus()?.sources ?? []) this.inc({ source: s.name }, s.failuresTotal ?? 0);
    },
  });
  new Gauge({
    name: "source_status",
    help: `Each source's status, 1 for the current one (${SOURCE_STATES.join(", ")}; frozen: the origin answers but its data stopped advancing)`,
    labelNames: ["source", "status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of sourceStatus()?.sources ?? []) for (const st of SOURCE_STATES) this.set({ source: s.name, status: st }, s.status === st ? 1 : 0);
    },
  });
  const nightly = (name: string, help: string, value: (n: NonNullable<SourceStatusFile["lastNightly"]>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        const n = sourceStatus()?.lastNightly;
        if (n) this.set(value(n));
      },
    });
  nightly("nightly_last_run_timestamp_seconds", "Unix time the last `make nightly` finished", (n) => Date.parse(n.finishedAt) / 1000);
  nightly("nightly_last_run_exit_code", "Exit code of the last `make nightly`: 0 ok, 1 something failed, 2 nothing published", (n) => n.exitCode);
  nightly("nightly_last_run_failures", "Failures the last `make nightly` named (sources and builds)", (n) => n.failed.length);
}
