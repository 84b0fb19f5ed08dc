// `pipeline nightly` (what `make nightly` runs) on a data directory holding only the inputs without a public origin
// (the boundaries and alias lists, the AIS sample, the PortWatch tanker table, the chokepoints' coordinates), every SOURCE_URL_* pointing at a
// local replay of the origins. The replay serves the mirror's files where the mirror holds the origin's own layout
// (GHCN-Daily with NOAA's station list, GDACS events, FIRMS, IBTrACS active, PSMSL, OWID temperatures, WPI, UN/LOCODE
// with its repository listing, WHO DON with its release listing, GHCN-CAMS), the mirror's rows written in today's
// origin layout where the values are the same (PortWatch's port list, daily series and chokepoint transits as ArcGIS query pages; NASA's
// GISTEMP table from the mirror's GISTEMP rows; OWID's COVID-19 catalog table from the mirror's Thai rows — each
// layout's provider documentation is cited where it is written) and a 404 elsewhere (the mirror has only derived
// copies of those: DFO's workbook, the IBTrACS native lists, OpenDengue's ZIPs, the WHO GHO, FluNet and World Bank APIs). Checked: the drought grid, the heatwave, wildfire and sea-level snapshots and the ports snapshot's
// port table are byte for byte the ones built from the full data directory, and so are the daily series of
// Thailand's ports; the snapshots whose inputs the replay cannot give are not published and each says why; every
// source's status says where its copy came from.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir, PROJECT_ROOT } from "../../lib/config.ts";
import { GHCND_SUBDIR } from "../../pipeline/inputs/ghcnd/stations.ts";
import { overrideVariable } from "../../pipeline/sources/settings.ts";
import { SOURCES } from "../../pipeline/sources/registry.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { readDaySeries } from "../../formats/day-series.ts";
import { arcgisPage, gistempTable, mirrorStationList, owidCovidCatalog, startReplay, type Replay } from "../sources/origin-replay.ts";

const mirror = dataDir();
// The chokepoints' coordinates are a derived list (PortWatch's transits come from the replay of its layer).
const WITHOUT_ORIGIN = ["boundaries", "ports/ais/ais_sample.csv", "ports/portwatch/portwatch_tanker_daily_by_country.csv", "ports/portwatch/chokepoints/chokepoints_list.csv", "feeds/firms-archive", "feeds/flood-footprints"];
const emptyDataDir = mkdtempSync(join(tmpdir(), "nightly-data-"));
for (const rel of WITHOUT_ORIGIN) {
  mkdirSync(dirname(join(emptyDataDir, rel)), { recursive: true });
  symlinkSync(join(mirror, rel), join(emptyDataDir, rel));
}
const artifacts = mkdtempSync(join(tmpdir(), "nightly-art-"));
const DON = readdirSync(join(mirror, "health/who-don")).find((f) => /^outbreaks_\d{8}\.csv$/.test(f))!;

/** Origin-shaped path → mirror file. */
const FILES: Record<string, string> = {
  "/o/gdacs_events": "feeds/gdacs/gdacs_20260530T1858Z.geojson",
  // The area API's MODIS answer; its VIIRS products answer 404 (the mirror has no VIIRS area file): a failure of those files.
  "/o/firms/MODIS_NRT/92,5,110,24/5": "feeds/firms/MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv",
  "/o/ibtracs_active": "feeds/ibtracs/ibtracs.ACTIVE.list.v04r01.csv",
  "/o/psmsl/filelist.txt": "feeds/psmsl/filelist.txt",
  "/o/owid_temperature": "feeds/temperature/monthly-temperature-anomalies.csv",
  "/o/wpi": "ports/wpi/WPI.csv",
  "/o/ghcn_cams": "climate/ghcn-cams-sample/air.mon.mean.nc",
  [`/o/who_don/${DON}`]: `health/who-don/${DON}`,
};
const portwatchPorts = readFileSync(join(mirror, "ports/portwatch/PortWatch_ports_database.csv"), "utf8");
// PortWatch's daily service, answered from the mirror's daily files: the ports of the asked countries, then a port's rows.
const DAILY_DIR = join(mirror, "ports/portwatch/daily");
const daily = readdirSync(DAILY_DIR).map((f) => {
  const text = readFileSync(join(DAILY_DIR, f), "utf8");
  const row = text.split("\n")[1].split(",");
  return { file: f, text, portid: row[4], iso3: row[7] };
});
const THAI_DAILY = daily.filter((d) => d.iso3 === "THA");
function portwatchDailyAnswer(search: URLSearchParams): Buffer | undefined {
  const where = search.get("where") ?? "";
  if (search.get("returnDistinctValues") === "true") {
    const countries = [...where.matchAll(/'([A-Z]{3})'/g)].map((m) => m[1]);
    return Buffer.from(JSON.stringify({ features: daily.filter((d) => countries.includes(d.iso3)).map((d) => ({ attributes: { portid: d.portid } })) }));
  }
  const port = daily.find((d) => where === `portid='${d.portid}'`);
  return port ? arcgisPage(port.text, search, ["date"]) : undefined;
}
// PortWatch's Daily_Chokepoints_Data layer, answered from the mirror's export (its slashed dates as the layer's days).
const CHOKEPOINT_EXPORT = readdirSync(join(mirror, "ports/portwatch/chokepoints")).find((f) => /^Daily_Chokepoints_Data_.*\.csv\.gz$/.test(f))!;
const CHOKEPOINTS = gunzipSync(readFileSync(join(mirror, "ports/portwatch/chokepoints", CHOKEPOINT_EXPORT))).toString("utf8").replace(/^(\uFEFF?)?(\d{4})\/(\d{2})\/(\d{2}) 00:00:00\+00,/gm, "$1$2-$3-$4,");
// NASA's GLB.Ts+dSST.csv (layout: test/sources/origin-replay.ts gistempTable) holding the mirror's GISTEMP months.
const GISTEMP_TABLE = Buffer.from(gistempTable(readFileSync(join(mirror, "feeds/temperature/global-monthly-gistemp-gcag.csv"), "utf8")));
// OWID's catalog table (layout: origin-replay.ts owidCovidCatalog) holding the mirror's Thai rows.
const COVID_CATALOG = Buffer.from(owidCovidCatalog(readFileSync(join(mirror, "health/owid-covid/THA_covid_data.csv"), "utf8"), "THA"));
const COVID_LAST_DAY = readFileSync(join(mirror, "health/owid-covid/THA_covid_data.csv"), "utf8").trim().split("\n").at(-1)!.split(",")[2];
const UNLOCODE = readdirSync(join(mirror, "ports/unlocode")).filter((f) => /^[A-Z]{2}\.csv$/.test(f));

let replay: Replay;
let stationCount = 0;
let run: { code: number | null; out: { exitCode: number; result: string; published: string[]; failed: string[]; frozen: string[]; sources: { name: string; status: string; from: string; dataAsOf: string | null; reason?: string }[] }; warnings: string[] };

function pipelineCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "pipeline", "cli.ts"), ...args], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A failed assertion's message: what went wrong beyond the replay's expected 404s (CI shows only the first line of a
 * failure, cut at 400 characters), then what was published.
 */
const EXPECTED = /HTTP 404|no previous copy and no data-directory copy|no copy \(neither downloaded nor in the data directory\)/;
const why = () => {
  // A source's failure lists each file's reason after "; ": each reason on its own.
  const unexpected = [...run.out.failed.flatMap((f) => f.split("; ")), ...run.warnings].filter((line) => !EXPECTED.test(line));
  return `${unexpected.length ? `unexpected: ${unexpected.join(" | ")}` : "no failure beyond the replay's 404s"} · published: ${run.out.published.join(", ")}`;
};

beforeAll(async () => {
  const stations = await mirrorStationList(join(mirror, GHCND_SUBDIR));
  const list = Buffer.from(stations.lines.join("\n") + "\n");
  stationCount = stations.files.size;
  replay = await startReplay((path) => {
    if (path === "/pub/data/ghcn/daily/ghcnd-stations.txt") return list;
    const station = /^\/access\/([A-Z0-9]{11})\.csv$/.exec(path)?.[1];
    if (station) return stations.files.has(station) ? readFileSync(stations.files.get(station)!) : undefined;
    const gauge = /^\/o\/psmsl\/(\d+)\.rlrdata$/.exec(path)?.[1];
    if (gauge) return readFileSync(join(mirror, "feeds/psmsl/data", `${gauge}.rlrdata`));
    if (path === "/o/who_don") return Buffer.from(JSON.stringify([{ name: DON, download_url: `${replay.base}/o/who_don/${DON}` }, { name: "README.md", download_url: `${replay.base}/x` }]));
    if (path === "/unlocode-listing") return Buffer.from(JSON.stringify(UNLOCODE.map((name) => ({ name, type: "file" }))));
    const country = /^\/o\/unlocode\/([A-Z]{2}\.csv)$/.exec(path)?.[1];
    if (country && UNLOCODE.includes(country)) return readFileSync(join(mirror, "ports/unlocode", country));
    if (path === "/o/gistemp") return GISTEMP_TABLE;
    if (path === "/o/owid_covid") return COVID_CATALOG;
    if (path.startsWith("/o/portwatch_ports/query?")) return arcgisPage(portwatchPorts, new URL(path, replay.base).searchParams);
    if (path.startsWith("/o/portwatch_daily/query?")) return portwatchDailyAnswer(new URL(path, replay.base).searchParams);
    if (path.startsWith("/o/portwatch_chokepoints/query?")) return arcgisPage(CHOKEPOINTS, new URL(path, replay.base).searchParams, ["date"]);
    return FILES[path] ? readFileSync(join(mirror, FILES[path])) : undefined;
  });
  // Every origin the pipeline could reach points at the replay; ERA5 stays without its key (skipped).
  const overrides: Record<string, string> = {};
  for (const s of SOURCES) if (s.refresh === "http") overrides[overrideVariable(s.name)] = `${replay.base}/o/${s.name}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...overrides,
    SOURCE_URL_GHCND: `${replay.base}/access`,
    SOURCE_URL_GHCND_STATIONS: `${replay.base}/pub/data/ghcn/daily/ghcnd-stations.txt`,
    SOURCE_URL_UNLOCODE_LISTING: `${replay.base}/unlocode-listing`,
    DATA_DIR: emptyDataDir,
    ARTIFACTS_DIR: artifacts,
    // The production retries and a long timeout: a slow, loaded machine must not turn a replayed download into a
    // failure (the pipeline's event loop stops for seconds at a time while it checks what it downloaded).
    SOURCES_RETRIES: "3",
    SOURCES_BACKOFF_MS: "5",
    SOURCES_TIMEOUT_MS: "60000",
    TILE_MONTHS: "1",
    TILE_MAX_ZOOM: "4",
  };
  delete env.CDSAPI_KEY;
  delete env.SOURCES_OFFLINE;
  // The replay is on loopback: a machine's outbound proxy (pipeline/sources/proxy.ts) must not carry its requests.
  for (const v of ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy"]) delete env[v];
  const r = await pipelineCli(["nightly"], env);
  // stdout holds one JSON document (logs go to stderr, one JSON line each: the warnings and errors are kept for the
  // failure messages).
  const warnings = r.stderr.split("\n").filter((l) => /"level":(4|5|6)0/.test(l)).map((l) => l.replace(/"(time|pid|hostname|service)":[^,]*,/g, ""));
  run = { code: r.code, out: JSON.parse(r.stdout), warnings };
}, 600_000);
afterAll(() => replay?.close());

// What the nightly builds is compared with what the suite's global setup built from the data directory itself
// (test/global-setup.ts: the drought grid and every feed snapshot, offline).
const reference = () => inject("artifactsDir");
const snapshotFile = (root: string, name: string, file: string) => readFileSync(join(realpathSync(join(snapshotRoot(root, name), "current")), file));

describe("make nightly from the origins alone", () => {
  it("publishes what it can, and exits 1 naming each failed source (the replay has no answer for some origins)", () => {
    expect(run.code, why()).toBe(1);
    expect(run.out, why()).toMatchObject({ exitCode: 1, result: "failures" });
    const failedSources = run.out.failed.filter((f) => f.startsWith("source ")).map((f) => f.split(" ")[1]);
    expect(failedSources).toEqual(expect.arrayContaining(["dfo", "who_gho_malaria", "worldbank_population"]));
    // Each failure says why.
    expect(run.out.failed.find((f) => f.startsWith("source dfo "))).toContain("HTTP 404");
    expect(run.out.published, why()).toEqual(expect.arrayContaining([expect.stringMatching(/^drought published \S+ \(grid from stations\)$/), "heatwave published", "wildfire published", "sea_level_rise published", "ports published"]));
  });

  it("builds the data directory's station grid (from origins alone the CPC series of 1979–2023, a derived copy, is not there)", () => {
    const built = realpathSync(join(artifacts, "current"));
    const ref = realpathSync(join(inject("stationArtifactsDir"), "current"));
    for (const f of ["drought-grid.bin", "province-summaries.bin", "confidence.bin", "coverage-mask.bin"]) {
      expect(readFileSync(join(built, f)).equals(readFileSync(join(ref, f))), f).toBe(true);
    }
  });

  it("builds the heatwave, wildfire and sea-level snapshots of the data directory", () => {
    expect(run.out.published, why()).toEqual(expect.arrayContaining(["heatwave published", "wildfire published", "sea_level_rise published"]));
    const same = (name: string, f: string) => expect(snapshotFile(artifacts, name, f).equals(snapshotFile(reference(), name, f)), `${name} ${f} differs; ${why()}`).toBe(true);
    same("heatwave", "snapshot.json");
    for (const f of ["snapshot.json", "events.bin"]) same("sea_level_rise", f);
    for (const f of ["snapshot.json", "events.bin"]) same("wildfire", f);
  });

  it("builds the port table of the data directory: UN/LOCODE, WPI and PortWatch's ports read page by page", () => {
    // The hazards differ: the mirror's derived flood table and its older GDACS snapshot have no origin to come from.
    for (const f of ["ports.json", "ais.json"]) expect(snapshotFile(artifacts, "ports", f).equals(snapshotFile(reference(), "ports", f)), f).toBe(true);
  });

  it("fetches the daily series of Thailand's ports from PortWatch's service, page by page", () => {
    expect(THAI_DAILY.length).toBe(2);
    const raw = join(artifacts, "raw", "portwatch_daily", "current", "daily");
    for (const d of THAI_DAILY) expect(readFileSync(join(raw, `${d.portid}.csv`), "utf8"), d.file).toBe(d.text);
    expect(run.out.sources.find((s) => s.name === "portwatch_daily")).toMatchObject({ from: "cache", dataAsOf: "2026-08-14" });
  });

  it("fetches PortWatch's chokepoint transits page by page, and the ports snapshot's transit series are the data directory's", () => {
    expect(run.out.sources.find((s) => s.name === "portwatch_chokepoints")).toMatchObject({ from: "cache", dataAsOf: "2025-11-02" });
    const chokepoints = (root: string) => readDaySeries(new Uint8Array(snapshotFile(root, "ports", "port-calls.dseries"))).filter((s) => s.key.startsWith("chokepoint:"));
    const built = chokepoints(artifacts);
    expect(built.map((s) => s.key)).toEqual(chokepoints(reference()).map((s) => s.key));
    expect(built).toHaveLength(6);
    expect(built).toEqual(chokepoints(reference()));
  });

  it("says why the others are not published", () => {
    const noCopy = (rel: string) => `${rel}: no copy (neither downloaded nor in the data directory)`;
    expect(run.out.failed.filter((f) => !f.startsWith("source ")).sort(), why()).toEqual([
      `flood failed: ${noCopy("feeds/dfo/FloodArchive.csv")}`,
      `outbreaks failed: ${noCopy("health/opendengue/Spatial_extract_SEARO_V1_3.csv")}`,
      `storm failed: ${noCopy("feeds/ibtracs/ibtracs_last3years_clean.csv")}`,
    ]);
  });

  it("gives every source's status: downloaded, failed with the file and the reason, or offline", () => {
    const by = Object.fromEntries(run.out.sources.map((s) => [s.name, s]));
    // Downloads from the replay (data as of the mirror's files: stale by their cadence, or fresh).
    // The replay answers with 2019 data: the origin answers but its data stand still (frozen), named in the outcome.
    expect(by.ghcnd, why()).toMatchObject({ status: "frozen", from: "cache", dataAsOf: "2019-07-09" });
    expect(run.out.frozen).toEqual(expect.arrayContaining([expect.stringMatching(/^source ghcnd: the origin answers /)]));
    // PSMSL is yearly: its 2023-12-31 data are fresh for 3 × 366 days, then the origin answering makes them frozen.
    const psmslAgeDays = (Date.now() - Date.parse("2023-12-31T00:00:00Z")) / 86_400_000;
    expect(by.psmsl, why()).toMatchObject({ status: psmslAgeDays > 3 * 366 ? "frozen" : "fresh", from: "cache", dataAsOf: "2023-12-31" });
    expect(by.who_don, why()).toMatchObject({ from: "cache", dataAsOf: "2026-05-13" });
    expect(by.gistemp, why()).toMatchObject({ from: "cache", dataAsOf: "2023-12-31" });
    // The last day of the mirror's Thai COVID-19 rows.
    expect(by.owid_covid, why()).toMatchObject({ from: "cache", dataAsOf: COVID_LAST_DAY });
    for (const name of ["gdacs_events", "firms", "ibtracs_active", "owid_temperature", "gistemp", "unlocode", "wpi", "ghcn_cams"]) expect(by[name].from, `${name} ${by[name].status}: ${by[name].reason}`).toBe("cache");
    // What the replay cannot give: failed, naming the file and the answer.
    expect(by.dfo, why()).toMatchObject({ status: "failed", from: "none" });
    expect(by.dfo.reason).toContain("FloodArchive.xlsx: attempt 1: HTTP 404");
    expect(by.who_gho_malaria.reason).toContain("MALARIA_CONF_CASES.json: attempt 1: HTTP 404");
    expect(by.worldbank_population.reason).toContain("SP.POP.TOTL.json: attempt 1: HTTP 404");
    // No origin, or no key: served from the data directory, or nothing, and said so.
    expect(by.portwatch_tankers, why()).toMatchObject({ status: "offline", from: "data-dir" });
    expect(by.era5, why()).toMatchObject({ status: "offline", from: "none", reason: "CDSAPI_KEY is not set; no copy at all" });
    // Every station file and every country file was asked of the replay.
    expect(replay.asked.length).toBeGreaterThan(stationCount + UNLOCODE.length);
  });
});
