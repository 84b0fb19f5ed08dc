// Starts the real app on 127.0.0.1:0 with an outbreak service (or none), a temp key file and an in-memory limiter.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../server/app.ts";
import { FileKeyStore, generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { createRateLimiter } from "../../server/limits/rate-limit.ts";
import { listen } from "../../server/serve.ts";
import type { OutbreakService } from "../../server/services/outbreak-service.ts";
import { FakeDroughtService } from "../server/fake-service.ts";
import { silent } from "../server/helpers.ts";

export async function startOutbreakServer(outbreak: OutbreakService | undefined) {
  const dir = mkdtempSync(join(tmpdir(), "outbreak-http-"));
  const keyFile = join(dir, "keys.json");
  const key = generateKey();
  writeKeyFile(keyFile, { keys: [{ id: "key_test", hash: hashKey(key), plan: "free", status: "active", createdAt: "2024-01-01T00:00:00.000Z" }] });
  const app = createApp({
    drought: new FakeDroughtService(),
    keys: new FileKeyStore(keyFile, { checkIntervalMs: 0 }),
    limiter: createRateLimiter({ plans: { free: { points: 10_000, duration: 60 } } }),
    logger: silent,
    ready: () => true,
    outbreak,
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
