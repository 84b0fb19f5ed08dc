// Starts the real app on 127.0.0.1:0 with the fake service, a temp key file and an in-memory rate limiter.
import { Agent, fetch as undiciFetch } from "undici";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { createApp } from "../../server/app.ts";
import type { AdmissionLimits } from "../../server/http/admission.ts";
import { FileKeyStore, generateKey, hashKey, writeKeyFile, type ApiKeyRecord } from "../../server/auth/key-store.ts";
import { createRateLimiter, type PlanLimit, type RateLimiter } from "../../server/limits/rate-limit.ts";
import { listen, type HttpTimeouts, type RunningServer } from "../../server/serve.ts";
import { FakeDroughtService } from "./fake-service.ts";
import type { DroughtService } from "../../server/services/types.ts";
import type { OutbreakService } from "../../server/services/outbreak-service.ts";

export const silent = pino({ level: "silent" });

export interface TestServer {
  base: string;
  running: RunningServer;
  dir: string;
  keyFile: string;
  /** Active "free" key. */
  key: string;
  keys: Record<"active" | "revoked" | "expired" | "tight", string>;
  service: FakeDroughtService;
  ready: { value: boolean };
  close(): Promise<void>;
}

export interface TestServerOptions {
  plans?: Record<string, PlanLimit>;
  bodyLimit?: number;
  logger?: typeof silent;
  /** HTTP server timeouts (server/serve.ts); Node's own defaults are not used. */
  timeouts?: Partial<HttpTimeouts>;
  /** Admission limits of heavy requests (server/http/admission.ts). */
  admission?: AdmissionLimits;
  /** Wraps the in-memory rate limiter (e.g. to make a charge slow). */
  wrapLimiter?: (limiter: RateLimiter) => RateLimiter;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "server-test-"));
  const keyFile = join(dir, "keys.json");
  const keys = { active: generateKey(), revoked: generateKey(), expired: generateKey(), tight: generateKey() };
  const rec = (id: string, key: string, extra: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
    id,
    hash: hashKey(key),
    plan: "free",
    status: "active",
    createdAt: "2024-01-01T00:00:00.000Z",
    ...extra,
  });
  writeKeyFile(keyFile, {
    keys: [
      rec("key_active", keys.active),
      rec("key_revoked", keys.revoked, { status: "revoked" }),
      rec("key_expired", keys.expired, { expiresAt: "2020-01-01T00:00:00.000Z" }),
      rec("key_tight", keys.tight, { plan: "tight" }),
    ],
  });
  const service = new FakeDroughtService();
  const ready = { value: true };
  const plans = opts.plans ?? { free: { points: 1000, duration: 60 }, tight: { points: 3, duration: 60 } };
  const app = createApp({
    drought: service,
    keys: new FileKeyStore(keyFile, { checkIntervalMs: 0 }),
    limiter: (opts.wrapLimiter ?? ((l) => l))(createRateLimiter({ plans })),
    logger: opts.logger ?? silent,
    ready: () => ready.value,
    bodyLimit: opts.bodyLimit,
    admission: opts.admission,
  });
  const running = await listen(app, { port: 0, host: "127.0.0.1", logger: opts.logger ?? silent, timeouts: opts.timeouts });
  return {
    base: `http://127.0.0.1:${running.port}`,
    running,
    dir,
    keyFile,
    key: keys.active,
    keys,
    service,
    ready,
    async close() {
      await running.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A connection per request: several suites build snapshots in the test process between requests, which blocks the
 * event loop past the server's keep-alive timeout, and a pooled connection then raced the server closing it
 * (ECONNRESET: the flaky hot-reload and outbreak tests of issue 25).
 */
const noKeepAlive = new Agent({ pipelining: 0 });

export function postJson(base: string, path: string, body: unknown, key: string | undefined, headers: Record<string, string> = {}): Promise<Response> {
  return undiciFetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key === undefined ? {} : { "x-api-key": key }), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    dispatcher: noKeepAlive,
  }) as unknown as Promise<Response>;
}

export function get(base: string, path: string, key: string | undefined, headers: Record<string, string> = {}) {
  return undiciFetch(base + path, { headers: { ...(key === undefined ? {} : { "x-api-key": key }), ...headers }, dispatcher: noKeepAlive }) as unknown as Promise<Response>;
}

/**
 * The real app over the given services (drought: the fake unless given), one active key on a plan of `points` a minute,
 * on a free loopback port.
 */
export async function startAppOver(services: { drought?: DroughtService; outbreak?: OutbreakService }, points = 10_000): Promise<{ base: string; key: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "app-over-"));
  const key = generateKey();
  writeKeyFile(join(dir, "keys.json"), { keys: [{ id: "key_test", hash: hashKey(key), plan: "free", status: "active", createdAt: "2024-01-01T00:00:00.000Z" }] });
  const app = createApp({
    drought: services.drought ?? new FakeDroughtService(),
    outbreak: services.outbreak,
    keys: new FileKeyStore(join(dir, "keys.json"), { checkIntervalMs: 0 }),
    limiter: createRateLimiter({ plans: { free: { points, duration: 60 } } }),
    logger: silent,
    ready: () => true,
  });
  const running = await listen(app, { port: 0, host: "127.0.0.1", logger: silent });
  return {
    base: `http://127.0.0.1:${running.port}`,
    key,
    async close() {
      await running.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
