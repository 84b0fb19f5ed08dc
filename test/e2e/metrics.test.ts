// /metrics passes Prometheus's own checker (promtool check metrics, from Debian's prometheus package, installed by
// .ci/install-test-deps.sh), and the same naming rules hold by this test's own reading; tile requests are counted
// per tileset.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer(privateArtifacts(inject("artifactsDir")).dir);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe("/metrics", () => {
  it("counts tile requests per tileset and passes promtool check metrics", async () => {
    const key = { "X-API-Key": server.key };
    for (const path of ["/tiles/provinces/5/24/14.mvt", "/tiles/drought-spei1/5/24/14.png", "/tiles/drought-spei1.json", "/tiles/nonsense/1/0/0.png"]) {
      await (await fetch(server.base + path, { headers: key })).arrayBuffer();
    }
    const text = await (await fetch(server.base + "/metrics")).text();
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/tiles\/provinces\/\{z\}\/\{x\}\/\{y\}",status="200"\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/tiles\/drought-spei1\/\{z\}\/\{x\}\/\{y\}",status="200"\} 1$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/tiles\/drought-spei1\.json",status="200"\} 1$/m);
    // An unknown tileset is not a label of its own (bounded label values).
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/tiles",status="404"\} 1$/m);

    // The naming rules promtool applies: counters end in _total, nothing else does; every metric has HELP and TYPE.
    const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
    const helps = new Set([...text.matchAll(/^# HELP (\S+) /gm)].map((m) => m[1]));
    expect(types.size).toBeGreaterThan(10);
    for (const [name, type] of types) {
      expect(helps.has(name), name).toBe(true);
      expect(name.endsWith("_total"), `${name} (${type})`).toBe(type === "counter");
    }
    const promtool = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(promtool.error, "promtool is installed by .ci/install-test-deps.sh (Debian package prometheus)").toBeUndefined();
    expect([promtool.status, promtool.stdout + promtool.stderr]).toEqual([0, ""]);
  });
});
