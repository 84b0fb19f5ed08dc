// FIRMS' yearly country files (source firms_country): a loopback origin serves synthetic MODIS year files of Malta
// (a small box, 35.8–36.1°N 14.2–14.6°E) that the test writes; a refresh as of June 2003 asks 2000–2002 and keeps them
// in the raw cache (2002 not published yet: a 404 left out, not a failure), a later refresh carries 2000, refuses a
// malformed 2001 and keeps its previous copy, and the wildfire builder joins the years into one MODIS record of Malta.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { chooseFireRecord } from "../../lib/feed-risk/wildfire.ts";
import type { EventRecord } from "../../formats/feed-snapshot.ts";
import { FIRMS_COUNTRY_DIR, firmsCountries } from "../../pipeline/feeds/firms-country.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { nightlyOutcome, outcomeText } from "../../pipeline/sources/nightly-outcome.ts";
import { currentRawDir, readSourceState } from "../../pipeline/sources/raw-cache.ts";
import { effectiveDataDir, writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { buildWildfire } from "../../pipeline/snapshots/feeds/wildfire.ts";
import { startReplay, type Replay } from "../sources/origin-replay.ts";

const HEADER = "latitude,longitude,brightness,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_t31,frp,daynight,type";
const VALLETTA = { lat: 35.9, lng: 14.51 };

/** A year of Malta: one vegetation fire a month (type 0) and a static source (type 2) the record must leave out. */
function modisYear(year: number, acqYear = year): string {
  const rows: string[] = [];
  for (let m = 1; m <= 12; m++) rows.push(`${(35.85 + m * 0.01).toFixed(2)},${(14.3 + m * 0.02).toFixed(2)},320.5,1.0,1.0,${acqYear}-${String(m).padStart(2, "0")}-15,1030,T,MODIS,70,6.03,295.0,${10 + m},D,0`);
  rows.push(`35.88,14.55,330.0,1.0,1.0,${acqYear}-07-01,1100,A,MODIS,90,6.03,300.0,50.0,D,2`);
  return [HEADER, ...rows].join("\n") + "\n";
}

const path = (year: number) => `/data/country/modis/${year}/modis_${year}_Malta.csv`;

const VIIRS_HEADER = "latitude,longitude,bright_ti4,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_ti5,frp,daynight,type";

/** A VIIRS S-NPP year of Malta: two vegetation fires a month. */
function viirsYear(year: number): string {
  const rows: string[] = [];
  for (let m = 1; m <= 12; m++) for (const t of ["0130", "1245"]) rows.push(`${(35.86 + m * 0.01).toFixed(2)},${(14.31 + m * 0.02).toFixed(2)},330.1,0.4,0.4,${year}-${String(m).padStart(2, "0")}-16,${t},N,VIIRS,n,2,290.0,${3 + m},D,0`);
  return [VIIRS_HEADER, ...rows].join("\n") + "\n";
}

describe("FIRMS yearly country files", () => {
  let replay: Replay;
  const bodies = new Map<string, string>();
  const artifactsDir = mkdtempSync(join(tmpdir(), "firms-country-"));
  const env = { SOURCE_URL_FIRMS_COUNTRY: "", FIRMS_COUNTRIES: "Malta", SOURCES_RETRIES: "1", SOURCES_BACKOFF_MS: "5" };
  const refresh = async (now: string, dir = artifactsDir) => (await refreshSources({ dataDir: dataDir(), artifactsDir: dir, env, now: new Date(now), only: ["firms_country"], progress: { start() {}, source() {} } }))[0];
  const build = async (dir = artifactsDir) => {
    const artifactsDir = dir;
    await writeInputOverlay(dataDir(), artifactsDir, env);
    const built = await buildWildfire({ dataDir: effectiveDataDir(dataDir(), artifactsDir), env: {}, now: new Date() });
    return built.qc as { records: EventRecord[]; countryFiles?: { records: { id: string; years: string; leftOut: number[] }[] } };
  };

  beforeAll(async () => {
    replay = await startReplay((p) => (bodies.has(p) ? Buffer.from(bodies.get(p)!) : undefined));
    env.SOURCE_URL_FIRMS_COUNTRY = `${replay.base}/data/country`;
  });
  afterAll(async () => {
    await replay.close();
  });

  it("reads FIRMS_COUNTRIES as FIRMS' names with their ISO codes, and refuses a name that is not a country", () => {
    expect(firmsCountries({})).toEqual([{ name: "Greece", iso3: "GRC" }]);
    expect(firmsCountries({ FIRMS_COUNTRIES: "United_States, Greece,Greece" })).toEqual([{ name: "United_States", iso3: "USA" }, { name: "Greece", iso3: "GRC" }]);
    expect(() => firmsCountries({ FIRMS_COUNTRIES: "Greece,Atlantis" })).toThrow(/"Atlantis" is not a country name/);
  });

  it("refresh → raw cache → inputs tree → one multi-year MODIS record of Malta; a year not yet published and a malformed year", async () => {
    bodies.set(path(2000), modisYear(2000));
    bodies.set(path(2001), modisYear(2001));
    // June 2003: MODIS 2000..2002 (VIIRS starts in 2012); 2002 is not published yet.
    const first = await refresh("2003-06-01T00:00:00Z");
    expect(first).toMatchObject({ source: "firms_country", outcome: "updated", changed: 2, failed: 0, files: 3, dataAsOf: "2001-12-15" });
    // Not published yet, and worded so: not an ended product.
    expect(first.ended).toBeUndefined();
    expect(first.unpublished).toEqual([expect.stringMatching(/^modis_2002_Malta\.csv is not published yet \(.*HTTP 404.*\): FIRMS publishes a country's 2002 file months after the year ends.*; left out until it is/)]);
    expect(readSourceState(artifactsDir, "firms_country")).toMatchObject({ unpublished: first.unpublished });
    expect(readSourceState(artifactsDir, "firms_country")!.ended).toBeUndefined();
    const night = nightlyOutcome([first], [{ name: "wildfire", status: "published" }], []);
    expect(night).toMatchObject({ exitCode: 0, failed: [], ended: [] });
    const text = outcomeText(night);
    expect(text).toMatch(/not published yet, left out \(1\):\n {2}source firms_country: modis_2002_Malta\.csv is not published yet/);
    expect(text).not.toMatch(/ended|is gone/);
    expect([...replay.asked].sort()).toEqual([path(2000), path(2001), path(2002)]);
    const state = readSourceState(artifactsDir, "firms_country")!;
    expect(Object.keys(state.files).sort()).toEqual(["modis_2000_Malta.csv", "modis_2001_Malta.csv"]);
    expect(state.files["modis_2000_Malta.csv"]).toMatchObject({ from: "download", rows: 13, linkAs: join(FIRMS_COUNTRY_DIR, "Malta", "modis_2000_Malta.csv") });
    const cached2001 = readFileSync(join(currentRawDir(artifactsDir, "firms_country")!, "modis_2001_Malta.csv"), "utf8");
    expect(cached2001).toBe(modisYear(2001));

    const qc1 = await build();
    const malta1 = qc1.records.find((r) => r.id === "firms-country-malta-modis");
    // 12 vegetation fires a year; the type 2 static source is left out.
    expect(malta1).toMatchObject({ country: "MLT", start: "2000-01-15", end: "2001-12-15", sensors: { MODIS: { start: "2000-01-15", end: "2001-12-15", detections: 24 } } });
    expect(Object.keys(malta1!.sensors!)).toEqual(["MODIS"]);
    expect(qc1.countryFiles?.records).toEqual([{ id: "firms-country-malta-modis", years: "2000..2001", leftOut: [] }]);

    // A day later 2002 is out and 2001 comes back as another year's detections: 2000 is carried without a request
    // (a past year), 2001 is refused and its copy kept, 2002 joins.
    replay.asked.length = 0;
    bodies.set(path(2002), modisYear(2002));
    bodies.set(path(2001), modisYear(2001, 2005));
    const second = await refresh("2003-06-02T00:00:00Z");
    expect([...replay.asked].sort()).toEqual([path(2001), path(2002)]);
    expect(second).toMatchObject({ outcome: "partial", changed: 1, failed: 1, dataAsOf: "2002-12-15" });
    expect(second.ended).toBeUndefined();
    expect(second.unpublished).toBeUndefined();
    expect(second.reason).toMatch(/modis_2001_Malta\.csv: line 2: acq_date 2005-01-15 is not in 2001, the file's year/);
    const state2 = readSourceState(artifactsDir, "firms_country")!;
    expect(state2.files["modis_2000_Malta.csv"].from).toBe("carried");
    expect(state2.files["modis_2001_Malta.csv"]).toMatchObject({ from: "kept", error: expect.stringMatching(/not in 2001/) });
    expect(readFileSync(join(currentRawDir(artifactsDir, "firms_country")!, "modis_2001_Malta.csv"), "utf8")).toBe(modisYear(2001));

    const qc2 = await build();
    const malta2 = qc2.records.find((r) => r.id === "firms-country-malta-modis")!;
    expect(malta2).toMatchObject({ country: "MLT", start: "2000-01-15", end: "2002-12-15", sensors: { MODIS: { detections: 36 } } });
    expect(malta2.years).toBeCloseTo((Date.UTC(2002, 11, 15, 10, 30) - Date.UTC(2000, 0, 15, 10, 30)) / (365.2425 * 86_400_000), 3);
    // A setting the listing refuses does not take the downloaded years out of the inputs tree (the state links them).
    await writeInputOverlay(dataDir(), artifactsDir, { ...env, FIRMS_COUNTRIES: "Atlantis" });
    expect(readFileSync(join(effectiveDataDir(dataDir(), artifactsDir), FIRMS_COUNTRY_DIR, "Malta", "modis_2002_Malta.csv"), "utf8")).toBe(modisYear(2002));
    // Valletta is answered from Malta's record; the same box read as Italy is not.
    expect(chooseFireRecord(qc2.records, VALLETTA.lat, VALLETTA.lng, "MLT")?.id).toBe("firms-country-malta-modis");
    expect(chooseFireRecord(qc2.records, VALLETTA.lat, VALLETTA.lng, "ITA")?.id).not.toBe("firms-country-malta-modis");
    // The refresh itself says so, and asks nothing.
    replay.asked.length = 0;
    const refused = (await refreshSources({ dataDir: dataDir(), artifactsDir, env: { ...env, FIRMS_COUNTRIES: "Malta,Atlantis" }, now: new Date("2003-06-03T00:00:00Z"), only: ["firms_country"], progress: { start() {}, source() {} } }))[0];
    expect(refused).toMatchObject({ outcome: "failed", reason: expect.stringMatching(/^listing the files failed: FIRMS_COUNTRIES: "Atlantis" is not a country name/) });
    expect(replay.asked).toEqual([]);
  }, 180_000);

  it("one record per sensor: MODIS and VIIRS S-NPP years of a country apart; a missing past year fails and cuts the record after it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "firms-country-viirs-"));
    bodies.clear();
    replay.asked.length = 0;
    // June 2013: MODIS 2000..2012 and VIIRS 2012; the origin lacks MODIS 2005.
    for (let y = 2000; y <= 2012; y++) if (y !== 2005) bodies.set(path(y), modisYear(y));
    bodies.set("/data/country/viirs-snpp/2012/viirs-snpp_2012_Malta.csv", viirsYear(2012));
    const r = await refresh("2013-06-01T00:00:00Z", dir);
    expect(replay.asked).toHaveLength(14);
    expect(replay.asked).toContain("/data/country/viirs-snpp/2012/viirs-snpp_2012_Malta.csv");
    // 2005 is a past year: its 404 is a failure of that file (no copy to keep), not an unpublished year.
    expect(r).toMatchObject({ outcome: "partial", changed: 13, failed: 1, files: 14 });
    expect(r.ended).toBeUndefined();
    expect(r.unpublished).toBeUndefined();
    expect(r.reason).toMatch(/modis_2005_Malta\.csv: .*HTTP 404/);

    const qc = await build(dir);
    const modis = qc.records.find((x) => x.id === "firms-country-malta-modis")!;
    const viirs = qc.records.find((x) => x.id === "firms-country-malta-viirs-snpp")!;
    // The MODIS record holds the consecutive years up to the latest: 2006..2012, not 2000 with a hole in 2005.
    expect(modis).toMatchObject({ country: "MLT", start: "2006-01-15", end: "2012-12-15", sensors: { MODIS: { detections: 84 } } });
    expect(Object.keys(modis.sensors!)).toEqual(["MODIS"]);
    expect(viirs).toMatchObject({ country: "MLT", start: "2012-01-16", end: "2012-12-16", sensors: { VIIRS: { detections: 24 } } });
    expect(Object.keys(viirs.sensors!)).toEqual(["VIIRS"]);
    expect(qc.countryFiles?.records).toEqual([
      { id: "firms-country-malta-modis", years: "2006..2012", leftOut: [2000, 2001, 2002, 2003, 2004] },
      { id: "firms-country-malta-viirs-snpp", years: "2012..2012", leftOut: [] },
    ]);
    // The longer record answers Valletta.
    expect(chooseFireRecord(qc.records, VALLETTA.lat, VALLETTA.lng, "MLT")?.id).toBe("firms-country-malta-modis");
  }, 180_000);
});
