// The real app over the feed snapshots of a directory (drought from the fake service of the server tests), with one
// free-plan key and a generous budget, listening on a loopback port: what the feed HTTP tests ask.
import { join } from "node:path";
import { createApp } from "../../server/app.ts";
import { FileKeyStore, generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { createRateLimiter } from "../../server/limits/rate-limit.ts";
import { listen, type RunningServer } from "../../server/serve.ts";
import { openFeedRiskService } from "../../server/services/feed-risk-service.ts";
import { ScoreService } from "../../server/services/score-service.ts";
import { FakeDroughtService } from "../server/fake-service.ts";
import { silent } from "../server/helpers.ts";

export interface FeedsApp {
  base: string;
  key: string;
  feeds: Awaited<ReturnType<typeof openFeedRiskService>>;
  running: RunningServer;
  stop(): Promise<void>;
}

/** `today` fixes the feed answers' clock (YYYY-MM-DD), as CLOCK_TODAY does for a server process. */
export async function startFeedsApp(artifacts: string, opts: { today?: string } = {}): Promise<FeedsApp> {
  const key = generateKey();
  const fixed = opts.today === undefined ? undefined : Date.parse(`${opts.today}T12:00:00Z`);
  const feeds = await openFeedRiskService(artifacts, silent, { watch: false, ...(fixed === undefined ? {} : { now: () => fixed }) });
  // One key file per app: apps on other clocks over the same snapshots must not replace each other's key.
  const keyFile = join(artifacts, `keys${opts.today === undefined ? "" : `-${opts.today}`}.json`);
  writeKeyFile(keyFile, { keys: [{ id: "k", hash: hashKey(key), plan: "free", status: "active", createdAt: "2024-01-01T00:00:00.000Z" }] });
  const app = createApp({
    drought: new ScoreService(new FakeDroughtService(), feeds.service),
    keys: new FileKeyStore(keyFile, { checkIntervalMs: 0 }),
    limiter: createRateLimiter({ plans: { free: { points: 10000, duration: 60 } } }),
    logger: silent,
    ready: () => true,
    feeds: feeds.service,
  });
  const running = await listen(app, { port: 0, host: "127.0.0.1", logger: silent });
  return {
    base: `http://127.0.0.1:${running.port}`, key, feeds, running,
    stop: async () => {
      feeds.stop();
      await running.shutdown();
    },
  };
}
