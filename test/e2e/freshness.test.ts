// Freshness in answers, through a running server: GET /api/status lists every source of the published sources
// snapshot with its age and status; an answer drawn from a source older than 3 × its cadence says stale: true and
// names it; the gauge source_data_age_seconds has each source's age; a new status is picked up without a restart
// and a broken one is refused while the previous keeps serving.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SOURCE_STATUS_FILE, SOURCES_SNAPSHOT, writeSourceStatus, type SourceStatusFile } from "../../formats/source-status.ts";
import { publishSnapshot } from "../../pipeline/snapshots/publish-snapshot.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

const DAY = 86_400_000;
const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);

function statusFile(ghcndAsOf: string): SourceStatusFile {
  const common = { licence: "test licence", attribution: "test", nonCommercial: null, credential: null, fetchedAt: null, from: "data-dir" as const };
  return {
    format: 1,
    generatedAt: new Date().toISOString(),
    offline: true,
    sources: [
      { ...common, name: "ghcnd", title: "GHCN-Daily", url: "https://example.invalid/ghcnd", cadence: "daily", cadenceDays: 1, usedBy: ["drought"], dataAsOf: ghcndAsOf, status: "offline", reason: "SOURCES_OFFLINE=1" },
      { ...common, name: "gdacs_events", title: "GDACS", url: null, cadence: "daily", cadenceDays: 1, usedBy: ["flood", "storm"], dataAsOf: day(DAY), status: "fresh", reason: "within 3 × the daily cadence",
        lastAttemptAt: "2026-11-25T02:00:00.000Z", lastOutcome: "failed", lastSuccessAt: "2026-11-23T02:00:00.000Z", consecutiveFailures: 2, failuresTotal: 5 },
      { ...common, name: "owid_covid", title: "OWID COVID-19", url: null, cadence: "daily", cadenceDays: 1, usedBy: ["outbreak"], dataAsOf: "2024-08-14", status: "frozen", reason: "the origin answers but its data end 2024-08-14",
        lastAttemptAt: "2026-11-25T02:00:00.000Z", lastOutcome: "unchanged", lastSuccessAt: "2026-11-25T02:00:00.000Z", consecutiveFailures: 0, failuresTotal: 0 },
      { ...common, name: "unlocode", title: "UN/LOCODE", url: null, cadence: "yearly", cadenceDays: 366, usedBy: ["supply_chain"], dataAsOf: null, status: "offline", reason: "no date inside" },
    ],
    lastNightly: { startedAt: "2026-11-25T02:00:00.000Z", finishedAt: "2026-11-25T02:41:00.000Z", exitCode: 1, failed: ["source gdacs_events failed: HTTP 503"], frozen: ["source owid_covid: the origin answers but its data end 2024-08-14"] },
  };
}

async function publishStatus(dir: string, files: Record<string, string>) {
  return publishSnapshot({ artifactsDir: dir, name: SOURCES_SNAPSHOT, files: { ...files, "report.json": "{}\n" }, asOf: new Date().toISOString(), sources: [], inputs: {}, qc: {}, report: "report.json" });
}

let server: RealServer;
let artifacts: string;
beforeAll(async () => {
  // The station grid, built from ghcnd: its answers follow ghcnd's age (the regional grid's follow cpc_precip's and
  // ghcnm's, by the same rule: lib/drought/grid-sources.ts).
  artifacts = privateArtifacts(inject("stationArtifactsDir")).dir;
  await publishStatus(artifacts, { [SOURCE_STATUS_FILE]: writeSourceStatus(statusFile("2019-07-09")) });
  server = await startRealServer(artifacts);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const get = (path: string, key = true) => fetch(server.base + path, { headers: key ? { "X-API-Key": server.key } : {} });
const droughtAnswer = async () => ((await (await get("/api/risk-map/drought?lat=13.75&lng=100.5")).json()) as { data: Record<string, unknown> }).data;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within 15 s: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("freshness", () => {
  it("GET /api/status needs no key and lists every source with its age", async () => {
    const r = await get("/api/status", false);
    expect(r.status).toBe(200);
    const { data } = (await r.json()) as { data: { sources: Record<string, unknown>[]; published: { drought: string; snapshots: Record<string, unknown> }; offline: boolean } };
    expect(data.offline).toBe(true);
    expect(data.sources.map((s) => s.name)).toEqual(["ghcnd", "gdacs_events", "owid_covid", "unlocode"]);
    const ghcnd = data.sources[0];
    const ageDays = Math.floor((Date.now() - Date.parse("2019-07-10T00:00:00Z")) / DAY);
    expect(ghcnd).toMatchObject({ status: "offline", dataAsOf: "2019-07-09", stale: true, cadence: "daily", usedBy: ["drought"] });
    expect(Math.abs((ghcnd.ageDays as number) - ageDays)).toBeLessThanOrEqual(1);
    expect(data.sources[1]).toMatchObject({ name: "gdacs_events", stale: false });
    expect(data.sources[3]).toMatchObject({ name: "unlocode", ageSeconds: null, stale: false });
    expect(data.published.drought).toBe(r.headers.get("x-data-version"));
    expect(data.published.snapshots.sources).toMatchObject({ version: expect.any(String) });
    expect(data.published.snapshots.flood).toBeNull();
    expect(JSON.stringify(data)).not.toMatch(/api[_-]?key|secret/i);
  });

  it("a drought answer names its stale source; the flood score does not", async () => {
    const d = await droughtAnswer();
    expect(d.stale).toBe(true);
    expect(d.staleSources).toEqual([{ name: "ghcnd", title: "GHCN-Daily", dataAsOf: "2019-07-09", ageDays: expect.any(Number), cadence: "daily" }]);
    const batch = await fetch(server.base + "/api/risk-map/batch", {
      method: "POST",
      headers: { "X-API-Key": server.key, "Content-Type": "application/json" },
      body: JSON.stringify({ riskType: "drought", locations: [{ lat: 13.75, lng: 100.5 }] }),
    });
    expect(((await batch.json()) as { data: { stale: boolean } }).data.stale).toBe(true);
  });

  it("the gauge source_data_age_seconds carries each dated source's age", async () => {
    const text = await (await get("/metrics", false)).text();
    const m = text.match(/^source_data_age_seconds\{source="ghcnd"\} (\d+)$/m);
    expect(m).not.toBeNull();
    const expected = (Date.now() - Date.parse("2019-07-10T00:00:00Z")) / 1000;
    expect(Math.abs(Number(m![1]) - expected)).toBeLessThan(120);
    expect(text).toMatch(/^source_data_age_seconds\{source="gdacs_events"\} \d+$/m);
    expect(text).not.toMatch(/source_data_age_seconds\{source="unlocode"\}/);
  });

  it("the refresh history and the last nightly reach Prometheus: failures, last success, frozen status, exit code; promtool check metrics is clean", async () => {
    const text = await (await get("/metrics", false)).text();
    expect(text).toMatch(/^source_refresh_last_success_timestamp_seconds\{source="gdacs_events"\} 1795399200$/m);
    expect(text).toMatch(/^source_refresh_last_attempt_timestamp_seconds\{source="gdacs_events"\} 1795572000$/m);
    expect(text).toMatch(/^source_refresh_consecutive_failures\{source="gdacs_events"\} 2$/m);
    expect(text).toMatch(/^source_refresh_failures_total\{source="gdacs_events"\} 5$/m);
    expect(text).toMatch(/^source_status\{source="owid_covid",status="frozen"\} 1$/m);
    expect(text).toMatch(/^source_status\{source="owid_covid",status="fresh"\} 0$/m);
    expect(text).toMatch(/^nightly_last_run_exit_code 1$/m);
    expect(text).toMatch(/^nightly_last_run_failures 1$/m);
    expect(text).toMatch(/^nightly_last_run_timestamp_seconds 1795574460$/m);
    const status = (await (await get("/api/status", false)).json()).data;
    expect(status.lastNightly).toMatchObject({ exitCode: 1, failed: ["source gdacs_events failed: HTTP 503"] });
    expect(status.sources.find((s: { name: string }) => s.name === "owid_covid")).toMatchObject({ status: "frozen", lastOutcome: "unchanged" });
    const promtool = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(promtool.error, "promtool is installed by .ci/install-test-deps.sh (Debian package prometheus)").toBeUndefined();
    expect([promtool.status, promtool.stdout + promtool.stderr]).toEqual([0, ""]);
  });

  it("a new status is served without a restart; a broken one is refused and the previous kept", async () => {
    await publishStatus(artifacts, { [SOURCE_STATUS_FILE]: writeSourceStatus(statusFile(day(0))) });
    await until(async () => (await droughtAnswer()).stale === false, "fresh ghcnd picked up");
    expect((await droughtAnswer()).staleSources).toEqual([]);
    await publishStatus(artifacts, { [SOURCE_STATUS_FILE]: '{"format": 1, "sources": "not a list"}' });
    await new Promise((r) => setTimeout(r, 3_000)); // more than one poll
    expect(server.logs.join("")).toMatch(/"label":"sources status"[^\n]*"msg":"artifact version refused; previous version keeps serving"/);
    expect((await droughtAnswer()).stale).toBe(false);
    expect((await (await get("/api/status", false)).json()).data.sources[0].dataAsOf).toBe(day(0));
  }, 30_000);
});
