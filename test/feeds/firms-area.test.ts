// FIRMS' area API (source firms, a MAP_KEY): a loopback origin answers the area route for mainland South-East Asia
// with small synthetic CSVs in FIRMS' MODIS and VIIRS layouts (S-NPP, NOAA-20, NOAA-21) around Chiang Mai. A refresh
// asks every product with the key in the path and never writes the key to its state, result or logs; the wildfire
// builder reads the VIIRS files into the South-East Asia record beside MODIS, on one scale (the sensor factor measured
// where both saw the same days). MODIS is ending: its answer gone (404) or empty leaves the source green on VIIRS and
// says so, as for the global files.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { log } from "../../lib/log.ts";
import type { EventRecord } from "../../formats/feed-snapshot.ts";
import { FIRMS_AREA_BOX, FIRMS_AREA_DAYS, FIRMS_AREA_DIR, FIRMS_AREA_PRODUCTS } from "../../pipeline/feeds/firms-area.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { nightlyOutcome, outcomeText } from "../../pipeline/sources/nightly-outcome.ts";
import { readSourceState } from "../../pipeline/sources/raw-cache.ts";
import { effectiveDataDir, writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { buildWildfire } from "../../pipeline/snapshots/feeds/wildfire.ts";
import { startReplay, type Replay } from "../sources/origin-replay.ts";

const KEY = "k3y0ftheTEST0000secret";
const MODIS_HEADER = "latitude,longitude,brightness,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_t31,frp,daynight";
const VIIRS_HEADER = "latitude,longitude,bright_ti4,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_ti5,frp,daynight";
const CHIANG_MAI = { lat: 18.79, lng: 98.98 };
const days = ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08"];

/** 15 detections a day around Chiang Mai, one file per product. */
function modisAnswer(): string {
  const rows = days.flatMap((d) => Array.from({ length: 15 }, (_, k) => `${(CHIANG_MAI.lat + k * 0.01).toFixed(2)},${(CHIANG_MAI.lng + 0.1).toFixed(2)},330.1,1.0,1.0,${d},0${340 + k},T,MODIS,80,6.1NRT,295.2,${20 + k},D`));
  return [MODIS_HEADER, ...rows].join("\n") + "\n";
}
function viirsAnswer(satellite: string): string {
  const rows = days.flatMap((d) => Array.from({ length: 15 }, (_, k) => `${(CHIANG_MAI.lat - k * 0.01).toFixed(3)},${(CHIANG_MAI.lng - 0.1).toFixed(3)},340.2,0.4,0.4,${d},${1800 + k},${satellite},VIIRS,n,2.0NRT,290.1,${5 + k},N`));
  return [VIIRS_HEADER, ...rows].join("\n") + "\n";
}

const route = (product: string) => `/api/area/csv/${KEY}/${product}/${FIRMS_AREA_BOX}/${FIRMS_AREA_DAYS}`;

describe("FIRMS area API, VIIRS and MODIS", () => {
  let replay: Replay;
  const bodies = new Map<string, string>();
  const env = { SOURCE_URL_FIRMS: "", FIRMS_MAP_KEY: KEY, SOURCES_RETRIES: "1", SOURCES_BACKOFF_MS: "5" };
  const logged: unknown[] = [];

  beforeAll(async () => {
    bodies.set(route("MODIS_NRT"), modisAnswer());
    bodies.set(route("VIIRS_SNPP_NRT"), viirsAnswer("N"));
    bodies.set(route("VIIRS_NOAA20_NRT"), viirsAnswer("N20"));
    bodies.set(route("VIIRS_NOAA21_NRT"), viirsAnswer("N21"));
    replay = await startReplay((p) => (bodies.has(p) ? Buffer.from(bodies.get(p)!) : undefined));
    // The origin keeps the key as a placeholder, as the registry's does; the refresh fills it in per request.
    env.SOURCE_URL_FIRMS = `${replay.base}/api/area/csv/{FIRMS_MAP_KEY}`;
    for (const level of ["info", "warn", "error"] as const) vi.spyOn(log, level).mockImplementation(((...args: unknown[]) => void logged.push(args)) as never);
  });
  afterEach(() => {
    // Never the key, in whatever was logged.
    expect(JSON.stringify(logged)).not.toContain(KEY);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await replay.close();
  });

  const refresh = async (artifactsDir: string) => (await refreshSources({ dataDir: dataDir(), artifactsDir, env, only: ["firms"], progress: { start() {}, source() {} } }))[0];
  const build = async (artifactsDir: string) => {
    await writeInputOverlay(dataDir(), artifactsDir, env);
    const built = await buildWildfire({ dataDir: effectiveDataDir(dataDir(), artifactsDir), env: {}, now: new Date() });
    return built.qc as { records: EventRecord[]; sensorFactor: { viirsPerModis: number; records: string[] } | string; areaViirsFiles?: string[] };
  };

  it("asks MODIS_NRT and the three VIIRS NRT products with the key, keeps it out of state and result, and the South-East Asia record holds both sensors on one scale", async () => {
    const artifactsDir = mkdtempSync(join(tmpdir(), "firms-area-"));
    const r = await refresh(artifactsDir);
    expect([...replay.asked].sort()).toEqual(FIRMS_AREA_PRODUCTS.map((p) => route(p.product)).sort());
    // Four downloads (the GeoJSON is carried).
    expect(r).toMatchObject({ source: "firms", outcome: "updated", changed: 4, failed: 0, dataAsOf: "2026-03-08" });
    expect(r.ended).toBeUndefined();
    const state = readSourceState(artifactsDir, "firms")!;
    expect(Object.keys(state.files).sort()).toEqual([...FIRMS_AREA_PRODUCTS.map((p) => p.file), "MODIS_C6_SouthEast_Asia_48h_20180525.geojson"].sort());
    expect(JSON.stringify(state) + JSON.stringify(r)).not.toContain(KEY);
    expect(state.files["VIIRS_NOAA21_NRT_SouthEast_Asia.csv"]).toMatchObject({ from: "download", rows: 120, url: expect.stringContaining("{FIRMS_MAP_KEY}/VIIRS_NOAA21_NRT/") });

    const qc = await build(artifactsDir);
    expect(qc.areaViirsFiles).toEqual(FIRMS_AREA_PRODUCTS.filter((p) => p.sensor === "VIIRS").map((p) => join(FIRMS_AREA_DIR, p.file)));
    const sea = qc.records.find((x) => x.id === "firms-sea-2018")!;
    expect(sea.name).toMatch(/VIIRS/);
    // 360 VIIRS detections (three satellites' own ids), the MODIS ones merged into the mirror's 2018 file.
    expect(sea.sensors).toMatchObject({ VIIRS: { start: "2026-03-01", end: "2026-03-08", detections: 360 }, MODIS: { start: "2018-05-23", end: "2026-03-08" } });
    // One scale: the factor is measured on this record (8 common days, 120 MODIS and 360 VIIRS detections).
    expect(qc.sensorFactor).toMatchObject({ records: ["firms-sea-2018"], modisDetections: 120, viirsDetections: 360 });
    expect((qc.sensorFactor as { viirsPerModis: number }).viirsPerModis).toBeGreaterThan(0);
  }, 180_000);

  it("MODIS is ending: its answer gone (404) or empty leaves the refresh green on VIIRS, and says so", async () => {
    const artifactsDir = mkdtempSync(join(tmpdir(), "firms-area-end-"));
    const modis = FIRMS_AREA_PRODUCTS[0];
    expect(modis.product).toBe("MODIS_NRT");
    expect((await refresh(artifactsDir))).toMatchObject({ outcome: "updated", changed: 4, failed: 0 });
    bodies.delete(route("MODIS_NRT"));
    const gone = await refresh(artifactsDir);
    expect(gone).toMatchObject({ outcome: "updated", failed: 0 });
    expect(gone.ended).toEqual([expect.stringMatching(/^MODIS_C6_SouthEast_Asia_20180523-25_reconstructed\.csv is gone \(.*HTTP 404.*\): MODIS is ending .* runs on VIIRS; left out/)]);
    expect(JSON.stringify(gone)).not.toContain(KEY);
    // The left-out file was logged (with its URL as the template), so the key check after each test has lines to read.
    expect(JSON.stringify(logged)).toContain("{FIRMS_MAP_KEY}/MODIS_NRT/");
    const outcome = nightlyOutcome([gone], [{ name: "wildfire", status: "published" }], []);
    expect(outcome).toMatchObject({ exitCode: 0, failed: [] });
    expect(outcomeText(outcome)).toMatch(/ended products left out \(1\):\n {2}source firms: MODIS_C6_SouthEast_Asia_20180523-25_reconstructed\.csv is gone/);
    // The version holds the VIIRS files, not MODIS; the inputs tree falls back to the data directory's MODIS sample.
    expect(Object.keys(readSourceState(artifactsDir, "firms")!.files)).not.toContain(modis.file);
    await writeInputOverlay(dataDir(), artifactsDir, env);
    const inputs = effectiveDataDir(dataDir(), artifactsDir);
    expect(realpathSync(join(inputs, FIRMS_AREA_DIR, modis.file))).toBe(realpathSync(join(dataDir(), FIRMS_AREA_DIR, modis.file)));
    expect(existsSync(join(inputs, FIRMS_AREA_DIR, "VIIRS_SNPP_NRT_SouthEast_Asia.csv"))).toBe(true);
    const qc = await build(artifactsDir);
    expect(qc.records.find((x) => x.id === "firms-sea-2018")!.sensors).toMatchObject({ VIIRS: { detections: 360 }, MODIS: { end: "2018-05-25" } });
    // An empty MODIS answer (the header alone) is the same.
    bodies.set(route("MODIS_NRT"), `${MODIS_HEADER}\n`);
    const empty = await refresh(artifactsDir);
    expect(empty).toMatchObject({ failed: 0 });
    expect(empty.outcome).not.toBe("partial");
    expect(empty.ended).toEqual([expect.stringMatching(/^MODIS_C6_SouthEast_Asia_20180523-25_reconstructed\.csv has no rows/)]);
    bodies.set(route("MODIS_NRT"), modisAnswer());
    expect(readFileSync(join(inputs, FIRMS_AREA_DIR, "VIIRS_NOAA20_NRT_SouthEast_Asia.csv"), "utf8")).toContain(",N20,VIIRS,");
  }, 180_000);
});
