// The ports snapshot built from the real mirror, published to a temp ARTIFACTS_DIR, followed by an ArtifactStore
// and served by the real app on 127.0.0.1:0. Shared by the HTTP test files of this folder.
import { Agent, fetch } from "undici";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataDir } from "../../lib/config.ts";
import { publishSnapshot } from "../../pipeline/snapshots/publish-snapshot.ts";
import { buildPortsFiles, PORTS_SNAPSHOT, PORTS_SOURCES, type PortsSnapshotFiles } from "../../pipeline/snapshots/ports.ts";
import { createApp } from "../../server/app.ts";
import { FileKeyStore, generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import type { ArtifactStore } from "../../server/data/artifact-store.ts";
import { createRateLimiter } from "../../server/limits/rate-limit.ts";
import { listen } from "../../server/serve.ts";
import { openSupplyChainService, type PortsSnapshot } from "../../server/services/supply-chain-service.ts";
import { FakeDroughtService } from "../server/fake-service.ts";
import { silent } from "../server/helpers.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read response JSON by path
export type Json = any;

export interface SupplyChainServer {
  dir: string;
  built: PortsSnapshotFiles;
  store: ArtifactStore<PortsSnapshot>;
  /** Publishes the built files again as a new version dated 2026-08-<day>. */
  publish(day: number): Promise<{ version: string; dir: string }>;
  query(body: unknown): Promise<{ status: number; json: { success: boolean; data: Json; error: { code: string; message: string; details: Json } } }>;
  /** GET with the key; the parsed JSON body and the content type. */
  get(path: string): Promise<{ status: number; type: string | null; json: Json }>;
  close(): Promise<void>;
}

/** The service clock of these tests (the day of issue 33): answers state their currency against it. */
export const TODAY = "2026-11-28";
export const atDay = (day: string) => () => new Date(`${day}T12:00:00Z`);

export async function startSupplyChainServer(): Promise<SupplyChainServer> {
  const dir = mkdtempSync(join(tmpdir(), "supply-chain-"));
  const built = buildPortsFiles(dataDir());
  const publish = (day: number) =>
    publishSnapshot({
      artifactsDir: join(dir, "artifacts"),
      name: PORTS_SNAPSHOT,
      files: built.files,
      asOf: built.asOf,
      sources: PORTS_SOURCES,
      inputs: built.inputs,
      qc: built.qc,
      report: "report.json",
      now: new Date(Date.UTC(2026, 7, day)),
    });
  await publish(15);
  const opened = await openSupplyChainService(join(dir, "artifacts"), silent, atDay(TODAY));
  opened.store.stop(); // the tests drive reloads themselves
  const key = generateKey();
  const keyFile = join(dir, "keys.json");
  writeKeyFile(keyFile, { keys: [{ id: "k1", hash: hashKey(key), plan: "free", status: "active", createdAt: "2024-01-01T00:00:00.000Z" }] });
  const app = createApp({
    drought: new FakeDroughtService(),
    keys: new FileKeyStore(keyFile, { checkIntervalMs: 0 }),
    limiter: createRateLimiter({ plans: { free: { points: 10000, duration: 60 } } }),
    logger: silent,
    ready: () => true,
    supplyChain: opened.service,
  });
  const running = await listen(app, { port: 0, host: "127.0.0.1", logger: silent });
  // A connection per request: publish() builds in this process and blocks its event loop for seconds, after which
  // the server's keep-alive timer and the client's next request on the pooled connection raced (ECONNRESET, the
  // flaky hot-reload test of issue 25).
  const noKeepAlive = new Agent({ pipelining: 0 });
  const base = `http://127.0.0.1:${running.port}`;
  return {
    dir,
    built,
    store: opened.store,
    publish,
    async query(body) {
      const res = await fetch(base + "/api/supply-chain/query", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-API-Key": key },
        body: JSON.stringify(body),
        dispatcher: noKeepAlive,
      });
      return { status: res.status, json: (await res.json()) as Awaited<ReturnType<SupplyChainServer["query"]>>["json"] };
    },
    async get(path) {
      const res = await fetch(base + path, { headers: { "X-API-Key": key }, dispatcher: noKeepAlive });
      return { status: res.status, type: res.headers.get("content-type"), json: await res.json() };
    },
    async close() {
      await running.shutdown();
      await noKeepAlive.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
