// FIRMS' keyless global near-real-time files (source firms_global): a loopback origin serves three small synthetic
// 7-day files in FIRMS' MODIS and VIIRS layouts; a refresh merges each into its rolling archive, the inputs tree links
// them in, and the wildfire snapshot built from it answers Los Angeles (404 offline) and Canberra (offline: the 2019
// Australia archive) from the global record, through a real server.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { FIRMS_GLOBAL_DIR, FIRMS_GLOBAL_FILES, FIRMS_GLOBAL_MIN_ROWS } from "../../pipeline/feeds/firms-global.ts";
import { nightlyOutcome, outcomeText } from "../../pipeline/sources/nightly-outcome.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { mergeCsv } from "../../pipeline/sources/merge.ts";
import { effectiveDataDir, writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { startReplay, type Replay } from "../sources/origin-replay.ts";
import { privateArtifacts, startRealServer, type RealServer } from "../e2e/real-server.ts";

const MODIS_HEADER = "latitude,longitude,brightness,scan,track,acq_date,acq_time,satellite,confidence,version,bright_t31,frp,daynight";
const VIIRS_HEADER = "latitude,longitude,bright_ti4,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_ti5,frp,daynight";
const LA = { lat: 34.05, lng: -118.25 };
const CANBERRA = { lat: -35.28, lng: 149.13 };
const days = ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"];

/** A 7-day file: detections near Los Angeles and Canberra (some days) and filler over the Sahel (FIRMS_GLOBAL_MIN_ROWS). */
function modisFile(): string {
  const rows: string[] = [];
  days.forEach((d, i) => {
    rows.push(`${LA.lat + 0.1},${LA.lng + 0.2},330.1,1.0,1.0,${d},0915,T,80,6.1NRT,295.2,${40 + i},D`);
    if (i >= 4) rows.push(`${CANBERRA.lat - 0.3},${CANBERRA.lng + 0.1},340.5,1.2,1.1,${d},0350,A,90,6.1NRT,300.0,120.5,D`);
  });
  for (let k = 0; rows.length < FIRMS_GLOBAL_MIN_ROWS + 10; k++) rows.push(`${(12 + (k % 50) * 0.01).toFixed(2)},${(5 + Math.floor(k / 50) * 0.01).toFixed(2)},320.0,1.0,1.0,${days[k % 7]},1200,A,60,6.1NRT,290.0,10.0,D`);
  return [MODIS_HEADER, ...rows].join("\n") + "\n";
}

function viirsFile(satellite: string): string {
  const rows = days.map((d, i) => `${LA.lat - 0.2},${LA.lng - 0.1},340.2,0.4,0.4,${d},2100,${satellite},VIIRS,n,2.0NRT,290.1,${5 + i},N`);
  for (let k = 0; rows.length < FIRMS_GLOBAL_MIN_ROWS + 5; k++) rows.push(`${(-10 - (k % 40) * 0.01).toFixed(2)},${(25 + Math.floor(k / 40) * 0.01).toFixed(2)},330.0,0.4,0.4,${days[k % 7]},1130,${satellite},VIIRS,h,2.0NRT,295.0,3.0,D`);
  return [VIIRS_HEADER, ...rows].join("\n") + "\n";
}

describe("FIRMS global near-real-time files", () => {
  let replay: Replay;
  let server: RealServer | undefined;
  const bodies = new Map<string, string>();

  beforeAll(async () => {
    bodies.set(`/data/active_fire/${FIRMS_GLOBAL_FILES[0].path}`, modisFile());
    bodies.set(`/data/active_fire/${FIRMS_GLOBAL_FILES[1].path}`, viirsFile("N"));
    bodies.set(`/data/active_fire/${FIRMS_GLOBAL_FILES[2].path}`, viirsFile("N20"));
    bodies.set(`/data/active_fire/${FIRMS_GLOBAL_FILES[3].path}`, viirsFile("N21"));
    replay = await startReplay((path) => (bodies.has(path) ? Buffer.from(bodies.get(path)!) : undefined));
  });
  afterAll(async () => {
    await server?.stop();
    await replay.close();
  });

  it("the merge keeps a rolling window of FIRMS_GLOBAL_DAYS before the latest acq_date", () => {
    const prev = `${MODIS_HEADER}\n1,2,300,1,1,2026-11-01,0100,T,50,6.1NRT,290,1,D\n1,2,300,1,1,2026-11-10,0100,T,50,6.1NRT,290,1,D\n`;
    const next = `${MODIS_HEADER}\n1,2,300,1,1,2026-11-24,0100,T,50,6.1NRT,290,2,D\n`;
    const m = mergeCsv(prev, next, { kind: "csv-rows", key: ["latitude", "longitude", "acq_date", "acq_time", "satellite"], keepDays: { column: "acq_date", days: 14 } }, "MODIS_C6_1_Global.csv");
    // 2026-11-10 is 14 days before 2026-11-24: kept; 2026-11-01 is 23 days before: dropped.
    expect(m.text.trim().split("\n").slice(1).map((l) => l.split(",")[5])).toEqual(["2026-11-10", "2026-11-24"]);
    expect(m.note).toMatch(/1 rows older than 14 days/);
  });

  it("refresh → inputs tree → wildfire snapshot: Los Angeles and Canberra answer from the global record", async () => {
    const artifactsDir = mkdtempSync(join(tmpdir(), "firms-global-"));
    const env = { SOURCE_URL_FIRMS_GLOBAL: `${replay.base}/data/active_fire`, SOURCES_RETRIES: "1", SOURCES_BACKOFF_MS: "5" };
    const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir, env, only: ["firms_global"], progress: { start() {}, source() {} } });
    expect(r).toMatchObject({ source: "firms_global", outcome: "updated", changed: 4, failed: 0, dataAsOf: "2026-11-26" });
    await writeInputOverlay(dataDir(), artifactsDir, env);
    const inputs = effectiveDataDir(dataDir(), artifactsDir);
    expect(inputs).toBe(join(artifactsDir, "inputs"));

    const art = privateArtifacts(inject("artifactsDir"));
    const built = await buildSnapshots({ dataDir: inputs, artifactsDir: art.dir, only: ["wildfire"] });
    expect(built.wildfire.status).toBe("published");
    // The server's day: the day after the synthetic files' last (the record covers the 7 days to it).
    server = await startRealServer(art.dir, { CLOCK_TODAY: "2026-11-27" });
    const score = async (p: { lat: number; lng: number }) => {
      const res = await fetch(`${server!.base}/api/risk-map/score`, {
        method: "POST",
        headers: { "x-api-key": server!.key, "content-type": "application/json" },
        body: JSON.stringify({ ...p, riskType: "wildfire", timeframe: "7d" }),
      });
      expect(res.status).toBe(200);
      return (await res.json()).data as { riskScore: number; details: Record<string, unknown> & { wildfire: Record<string, unknown>; coverage: { dataset: string } } };
    };
    const la = await score(LA);
    expect(la.details.coverage.dataset).toBe("NASA FIRMS global near-real-time fires (MODIS C6.1, VIIRS S-NPP, NOAA-20 and NOAA-21) 2026-11-20..2026-11-26");
    // 7 MODIS and 7 + 7 + 7 VIIRS detections within 100 km; a 7-day record gives no rate, and answers as the current
    // activity of the 7 days it covers to the server's day.
    expect(la.details.wildfire).toMatchObject({ eventsInRadius: 28, eventsPerYear: null, returnPeriodYears: null, fireRecord: { id: "firms-global-nrt", start: "2026-11-20", end: "2026-11-26" }, recent: { observed: "full", currentActivity: true } });
    expect(la.details).toMatchObject({ period: { from: "2026-11-20", to: "2026-11-26" }, asOf: "2026-11-26", currency: { current: true, ageDays: 1 } });
    expect(la.riskScore).toBeGreaterThan(0);
    const canberra = await score(CANBERRA);
    expect(canberra.details.wildfire).toMatchObject({ eventsInRadius: 3, fireRecord: { id: "firms-global-nrt", sensor: "MODIS+VIIRS" } });
    // Both sensors over the same 7 days worldwide: the factor is measured from them (weighted VIIRS / MODIS detections).
    const scale = la.details.wildfire.sensorScale as { viirsPerModis: number };
    expect(scale.viirsPerModis).toBeGreaterThan(0);
    // The Sahel filler lies 2,000 km from either: never counted.
    expect(replay.asked.filter((u) => u.startsWith("/data/active_fire/")).sort()).toEqual(FIRMS_GLOBAL_FILES.map((f) => `/data/active_fire/${f.path}`).sort());
  }, 180_000);

  it("MODIS is ending: its 7-day file gone (404) or empty leaves the refresh green on VIIRS alone, and says so", async () => {
    const artifactsDir = mkdtempSync(join(tmpdir(), "firms-global-end-"));
    const env = { SOURCE_URL_FIRMS_GLOBAL: `${replay.base}/data/active_fire`, SOURCES_RETRIES: "1", SOURCES_BACKOFF_MS: "5" };
    const refresh = async () => (await refreshSources({ dataDir: dataDir(), artifactsDir, env, only: ["firms_global"], progress: { start() {}, source() {} } }))[0];
    const modisPath = `/data/active_fire/${FIRMS_GLOBAL_FILES[0].path}`;
    const first = await refresh();
    expect(first).toMatchObject({ outcome: "updated", changed: 4, failed: 0 });
    expect(first.ended).toBeUndefined();
    // The origin drops the MODIS file: not a failure; a new version without it.
    bodies.delete(modisPath);
    const gone = await refresh();
    expect(gone).toMatchObject({ outcome: "updated", failed: 0 });
    expect(gone.ended).toEqual([expect.stringMatching(/^MODIS_C6_1_Global\.csv is gone \(.*HTTP 404.*\): MODIS is ending .* runs on VIIRS alone; left out/)]);
    const outcome = nightlyOutcome([gone], [{ name: "wildfire", status: "published" }], []);
    expect(outcome).toMatchObject({ exitCode: 0, failed: [] });
    expect(outcomeText(outcome)).toMatch(/ended products left out \(1\):\n {2}source firms_global: MODIS_C6_1_Global\.csv is gone/);
    await writeInputOverlay(dataDir(), artifactsDir, env);
    const inputs = effectiveDataDir(dataDir(), artifactsDir);
    expect(existsSync(join(inputs, FIRMS_GLOBAL_DIR, FIRMS_GLOBAL_FILES[0].file))).toBe(false);
    expect(existsSync(join(inputs, FIRMS_GLOBAL_DIR, FIRMS_GLOBAL_FILES[1].file))).toBe(true);
    // An empty MODIS file (the header alone) is the same.
    bodies.set(modisPath, `${MODIS_HEADER}\n`);
    const empty = await refresh();
    expect(empty).toMatchObject({ outcome: "unchanged", failed: 0 });
    expect(empty.ended).toEqual([expect.stringMatching(/^MODIS_C6_1_Global\.csv has no rows/)]);
    bodies.set(modisPath, modisFile());
  }, 120_000);
});
