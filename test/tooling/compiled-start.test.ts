// The production start runs compiled JavaScript: `npm run build` emits dist/ (esbuild file by file, scripts/build.mjs;
// .ts imports rewritten to .js)
// and `node dist/server/main.js` serves the real artifacts — the map page's files and the data directory's
// defaults found from dist/ as from the sources.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { privateArtifacts } from "../e2e/real-server.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";

describe("compiled production start", () => {
  it("npm run build emits dist/ and node dist/server/main.js answers", async () => {
    const build = spawnSync("npm", ["run", "-s", "build"], { cwd: PROJECT_ROOT, encoding: "utf8" });
    expect(build.status, build.stdout + build.stderr).toBe(0);
    expect(existsSync(join(PROJECT_ROOT, "dist", "server", "main.js"))).toBe(true);
    const keyDir = mkdtempSync(join(tmpdir(), "compiled-keys-"));
    const key = generateKey();
    writeKeyFile(join(keyDir, "keys.json"), { keys: [{ id: "key_c", hash: hashKey(key), plan: "enterprise", status: "active", createdAt: "2026-01-01T00:00:00.000Z" }] });
    const port = 20000 + Math.floor(Math.random() * 20000);
    const proc = spawn(process.execPath, [join(PROJECT_ROOT, "dist", "server", "main.js")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ARTIFACTS_DIR: privateArtifacts(inject("artifactsDir")).dir, API_KEYS_FILE: join(keyDir, "keys.json"), PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
      stdio: "ignore",
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 20_000;
      for (;;) {
        const ok = await fetch(base + "/readyz").then((r) => r.status === 200, () => false);
        if (ok) break;
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`compiled server not ready (exit ${proc.exitCode})`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const d = await fetch(base + "/api/risk-map/drought?lat=13.75&lng=100.5", { headers: { "X-API-Key": key } });
      expect(d.status).toBe(200);
      expect(((await d.json()) as { data: { location: { gridId: string } } }).data.location.gridId).toMatch(/^SEA100-\d+$/);
      const page = await fetch(base + "/");
      expect([page.status, (await page.text()).includes("<html")]).toEqual([200, true]);
    } finally {
      proc.kill("SIGTERM");
    }
  }, 90_000);
});
