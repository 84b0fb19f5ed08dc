// The compiled server (dist/, as `npm start` runs it) over an artifacts directory, with one key of an unlimited
// "bench" plan; resolves once /readyz answers 200. Shared by the benches that load a real server over loopback.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../lib/config.ts";
import { generateKey, hashKey, writeKeyFile } from "../server/auth/key-store.ts";

export interface Started {
  base: string;
  key: string;
  pid: number;
  readyMs: number;
  stop(): Promise<void>;
}

export async function startServer(artifacts: string, env: Record<string, string> = {}): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), "bench-keys-"));
  const key = generateKey();
  writeKeyFile(join(dir, "keys.json"), { keys: [{ id: "key_bench", hash: hashKey(key), plan: "bench", status: "active", createdAt: new Date().toISOString() }] });
  const port = 30000 + Math.floor(Math.random() * 20000);
  const t0 = performance.now();
  // The compiled server, as `npm start` runs it in production (main() builds it first when stale).
  const proc = spawn(process.execPath, [join(PROJECT_ROOT, "dist/server/main.js")], {
    env: {
      ...process.env,
      ARTIFACTS_DIR: artifacts,
      API_KEYS_FILE: join(dir, "keys.json"),
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      RATE_LIMITS: JSON.stringify({ bench: { points: 1e9, duration: 60 } }),
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(base + "/readyz")).status === 200) break;
    } catch {
      // starting
    }
    if (performance.now() - t0 > 120_000) throw new Error("server did not become ready");
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyMs = performance.now() - t0;
  return {
    base,
    key,
    pid: proc.pid!,
    readyMs,
    stop: () => new Promise((res) => (proc.once("exit", () => res()), proc.kill("SIGTERM"))),
  };
}
