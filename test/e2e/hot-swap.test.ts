// Hot swap: a new version published under load is taken up with zero failed requests; in-flight requests finish
// on their version; a version that fails verification is refused and the previous one keeps serving.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { privateArtifacts, publishCopy, startRealServer, type RealServer } from "./real-server.ts";

let server: RealServer;
let first: string;

beforeAll(async () => {
  const art = privateArtifacts(inject("artifactsDir"));
  first = art.version;
  server = await startRealServer(art.dir);
}, 60_000);

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

async function hammer(until: () => boolean): Promise<{ ok: number; failed: number; versions: Set<string> }> {
  let ok = 0;
  let failed = 0;
  const versions = new Set<string>();
  const worker = async () => {
    while (!until()) {
      try {
        const res = await fetch(`${server.base}/api/risk-map/drought?lat=15.2&lng=104.8`, { headers: { "x-api-key": server.key } });
        const body = await res.json();
        if (res.status === 200 && body.success) {
          ok++;
          versions.add(res.headers.get("x-data-version")!);
        } else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return { ok, failed, versions };
}

describe("hot swap of artifact versions", () => {
  it("takes up a new version under concurrent load with zero failed requests", async () => {
    const second = `${first}-b`;
    let done = false;
    const load = hammer(() => done);
    await new Promise((r) => setTimeout(r, 300));
    publishCopy(server.artifactsDir, first, second);
    // The store polls every 2 s and watches the folder; wait until the new version answers.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${server.base}/readyz`);
      if ((await res.json()).data.dataVersion === second) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    done = true;
    const { ok, failed, versions } = await load;
    expect(failed).toBe(0);
    expect(ok).toBeGreaterThan(100);
    expect([...versions].sort()).toEqual([first, second].sort());
  });

  it("refuses a version whose checksums fail and keeps serving the previous one", async () => {
    const before = (await (await fetch(`${server.base}/readyz`)).json()).data.dataVersion;
    publishCopy(server.artifactsDir, before, `${first}-broken`, true);
    await new Promise((r) => setTimeout(r, 3000));
    const res = await fetch(`${server.base}/api/risk-map/drought?lat=15.2&lng=104.8`, { headers: { "x-api-key": server.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-data-version")).toBe(before);
    const refused = server.logs.join("").split("\n").filter((l) => l.includes("artifact version refused"));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]).toContain("drought-grid.bin: sha256");
    expect(readdirSync(join(server.artifactsDir, "versions"))).toContain(`${first}-broken`);
  });
});
