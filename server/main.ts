// Entry point (`npm start`). Settings: PORT (8080), HOST (0.0.0.0), API_KEYS_FILE (./keys.json),
// ARTIFACTS_DIR (lib/config.ts), REDIS_URL (shared rate-limit budget), RATE_LIMITS (JSON plan table),
// BODY_LIMIT (bytes, 65536), REQUEST_TIMEOUT_MS (10000), HEADERS_TIMEOUT_MS (5000), KEEP_ALIVE_TIMEOUT_MS (5000),
// WORKERS (1; a number, or "auto" = one per core; workers share the port via node:cluster, and share one
// rate-limit budget only with REDIS_URL), ADMISSION_CONCURRENCY (4), ADMISSION_QUEUE (64), ADMISSION_RETRY_AFTER_S (1)
// (heavy requests per class and process: server/http/admission.ts), LISTEN_BACKLOG (4096, server/serve.ts),
// HEALTH_PORT (unset: none; a liveness listener off the API's event loop, server/health/), HEALTH_STALL_MS (5000).
import cluster from "node:cluster";
import { resolve } from "node:path";
import { artifactsDir, intSetting } from "../lib/config.ts";
import { log } from "../lib/log.ts";
import { createApp } from "./app.ts";
import { admissionFromEnv, bulkAdmissionFromEnv } from "./http/admission.ts";
import { exitOnStartFailure, superviseWorkers, type ListenAddress } from "./cluster.ts";
import { createMapPageRouter } from "./routes/map-page.ts";
import { createTilesRouter } from "./routes/tiles.ts";
import { FileKeyStore } from "./auth/key-store.ts";
import { printDevBanner } from "./auth/dev-key.ts";
import { createRateLimiter, planLimitsFromEnv } from "./limits/rate-limit.ts";
import { DEFAULT_LISTEN_BACKLOG, exitOnSignals, httpTimeoutsFromEnv, listen, workerCount } from "./serve.ts";
import { openDroughtService } from "./services/drought-service.ts";
import { ExportService } from "./services/export-service.ts";
import { openFeedRiskService } from "./services/feed-risk-service.ts";
import { ScoreService } from "./services/score-service.ts";
import { openSupplyChainService } from "./services/supply-chain-service.ts";
import { openOutbreakService } from "./services/outbreak-service.ts";
import { openSourceStatusService } from "./services/source-status-service.ts";
import { sharedGeography } from "../lib/feed-risk/place.ts";
import { beatToPrimary, startClusterHealth } from "./health/cluster-health.ts";
import { healthFromEnv, startHealthThread, type HealthThread } from "./health/health-thread.ts";
import { collectStartupGarbage } from "./startup-heap.ts";

async function runWorker(env: NodeJS.ProcessEnv): Promise<void> {
  // The liveness listener first: it answers while the published versions are checked and loaded, too.
  const healthSettings = healthFromEnv(env);
  let health: HealthThread | undefined;
  if (healthSettings.port !== undefined && cluster.isWorker) beatToPrimary();
  else if (healthSettings.port !== undefined) {
    health = await startHealthThread({ ...healthSettings, port: healthSettings.port, timeouts: httpTimeoutsFromEnv(env) }, (err) =>
      log.error({ err }, "the health listener's thread failed: GET /healthz on HEALTH_PORT no longer answers; the API serves on"),
    );
    log.info({ host: healthSettings.host, port: health.port }, "health listener (GET /healthz) on its own thread");
  }
  // Said before the load-time checks of every published version (a few seconds on a loaded 2-core machine).
  log.info({ artifactsDir: artifactsDir(env) }, "starting: checking the published versions before serving them");
  const { service: droughtOnly, store } = await openDroughtService(artifactsDir(env));
  const feeds = await openFeedRiskService(artifactsDir(env), log);
  const drought = new ScoreService(droughtOnly, feeds.service);
  const supplyChain = await openSupplyChainService(artifactsDir(env), log);
  const outbreak = await openOutbreakService(artifactsDir(env), log);
  const sources = await openSourceStatusService(artifactsDir(env), log);
  // The world geography (≈ 0.6 s, ≈ 200 MB) serves the feed-risk and outbreak answers. Built before listening when
  // their snapshots are there, so no answer waits for it; a drought-only server never builds it.
  if (Object.values(feeds.stores).some((s) => s.current() !== undefined) || outbreak.store.current() !== undefined) sharedGeography();
  const keys = new FileKeyStore(resolve(env.API_KEYS_FILE ?? "./keys.json"), { logger: log });
  // ioredis is loaded only when a Redis is configured (≈ 25 MB and 40 ms of start-up otherwise).
  const redis = env.REDIS_URL ? new (await import("ioredis")).Redis(env.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  const limiter = createRateLimiter({ plans: planLimitsFromEnv(env), redis });
  const admission = admissionFromEnv(env);
  const tiles = createTilesRouter({ current: () => store.current(), auth: (k) => keys.authenticate(k), logger: log, admission });
  const app = createApp({
    drought,
    keys,
    limiter,
    logger: log,
    ready: () => store.current() !== undefined,
    bodyLimit: intSetting(env, "BODY_LIMIT", 64 * 1024),
    admission,
    bulkLimits: bulkAdmissionFromEnv(env, admission),
    supplyChain: supplyChain.service,
    outbreak: outbreak.service,
    exports: new ExportService(store),
    history: droughtOnly,
    feeds: feeds.service,
    sources: sources.service,
    routers: [createMapPageRouter(), tiles],
  });
  // The start-up's garbage, collected before the first request rather than by the first seconds of serving.
  const collected = collectStartupGarbage();
  if ("skipped" in collected) log.warn({ reason: collected.skipped }, "start-up garbage not collected: the first seconds of serving will collect it");
  else log.info(collected, "start-up garbage collected");
  const running = await listen(app, {
    port: intSetting(env, "PORT", 8080),
    host: env.HOST || "0.0.0.0",
    logger: log,
    timeouts: httpTimeoutsFromEnv(env),
    backlog: intSetting(env, "LISTEN_BACKLOG", DEFAULT_LISTEN_BACKLOG),
  });
  const snapshots: [string, { current(): unknown }][] = [...Object.entries(feeds.stores), ["outbreaks", outbreak.store], ["ports", supplyChain.store]];
  // make serve only (DEV_KEY_FILE): the key, what is still being built, and requests to try, last
  printDevBanner(env, running.port, log, notServedYet(env, store.current()?.data.deferred ?? [], snapshots, sources.store.current() !== undefined));
  exitOnSignals(running, async () => {
    await health?.stop();
    await tiles.close();
    store.stop();
    feeds.stop();
    supplyChain.store.stop();
    outbreak.store.stop();
    redis?.disconnect();
  });
}

/**
 * What make serve's banner says is not served yet: the deferred tiles and exports of the drought version and the
 * snapshots not published yet, which make serve builds in the background (its log: SERVE_BACKGROUND_LOG).
 */
function notServedYet(env: NodeJS.ProcessEnv, deferred: readonly string[], snapshots: [string, { current(): unknown }][], sourcesLoaded: boolean): string[] {
  const missing = snapshots.filter(([, s]) => s.current() === undefined).map(([name]) => name);
  const lines = [
    ...(deferred.includes("tiles") ? ["  map tile archives: every map tile is rendered on request meanwhile"] : []),
    ...(deferred.includes("exports") ? ["  drought exports (GeoParquet, CSV): 503 until they are published"] : []),
    ...(missing.length ? [`  snapshots ${missing.join(", ")}: their answers are 503 until each is published`] : []),
    ...(sourcesLoaded ? [] : ['  sources status: /api/status lists no sources and answers carry "stale": null until it is published']),
  ];
  if (lines.length === 0) return [];
  const where = env.SERVE_BACKGROUND_LOG ? ` (being built in the background, log: ${env.SERVE_BACKGROUND_LOG}; the server takes each up once published)` : "";
  return [`Not served yet${where}:`, ...lines];
}

function listenAddress(env: NodeJS.ProcessEnv): ListenAddress {
  return { port: intSetting(env, "PORT", 8080), host: env.HOST || "0.0.0.0" };
}

async function main(env: NodeJS.ProcessEnv): Promise<void> {
  const workers = workerCount(env);
  if (workers > 1 && cluster.isPrimary) {
    superviseWorkers(workers, listenAddress(env), log);
    const health = healthFromEnv(env);
    if (health.port !== undefined) {
      const started = await startClusterHealth({ ...health, port: health.port, timeouts: httpTimeoutsFromEnv(env) });
      log.info({ host: health.host, port: started.port }, "health listener (GET /healthz) in the primary, fed by the workers' heartbeats");
    }
    return;
  }
  await runWorker(env);
}

main(process.env).catch((err: unknown) => exitOnStartFailure(err, listenAddress(process.env), log));
