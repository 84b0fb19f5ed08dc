// The worldwide heat network (source ghcnd_heat): a loopback origin serves a synthetic ghcnd-inventory.txt, one
// station's access CSV (Phoenix, 1981 to mid-2025) and NOAA's yearly files (by_year/<YEAR>.csv.gz, the rest of
// 2025 with a heatwave in August). The refresh picks the network from the inventory, keeps the network's TMAX rows
// of the yearly files, and the heatwave snapshot built from the inputs tree answers Phoenix from the station (the
// mirror alone answers it with the national monthly fallback, confidence 0.2) through a real server.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { heatNetwork, keptByYearLine, parseTmaxInventory } from "../../pipeline/inputs/ghcnd/heat-network.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { effectiveDataDir, writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { startReplay, type Replay } from "../sources/origin-replay.ts";
import { privateArtifacts, startRealServer, type RealServer } from "../e2e/real-server.ts";

const PHOENIX = "USW00023183";
/** ghcnd-inventory.txt: ID 1–11, LATITUDE 13–20, LONGITUDE 22–30, ELEMENT 32–35, FIRSTYEAR 37–40, LASTYEAR 42–45. */
const inv = (id: string, lat: number, lon: number, element: string, first: number, last: number) =>
  `${id} ${lat.toFixed(4).padStart(8)} ${lon.toFixed(4).padStart(9)} ${element} ${first} ${last}`;
const INVENTORY = [
  inv(PHOENIX, 33.4278, -112.0037, "PRCP", 1933, 2025),
  inv(PHOENIX, 33.4278, -112.0037, "TMAX", 1933, 2025),
  // Same 1° cell, shorter record: not chosen.
  inv("USC00020000", 33.5, -112.5, "TMAX", 1950, 2025),
  // Stopped reporting in 2010; starts after the base: neither qualifies.
  inv("SP000003195", 40.4117, -3.6781, "TMAX", 1920, 2010),
  inv("AS000000001", -35.3, 149.2, "TMAX", 1995, 2025),
].join("\n") + "\n";

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
/** A seasonal cycle with a deterministic wobble, °C; 8 °C more on 2025-08-01..07. */
function tmax(t: number): number {
  const doy = (t - Date.UTC(new Date(t).getUTCFullYear(), 0, 1)) / DAY;
  const wobble = (((t / DAY) * 7919) % 23) / 10 - 1.1;
  const spell = t >= Date.UTC(2025, 7, 1) && t <= Date.UTC(2025, 7, 7) ? 8 : 0;
  return Math.round((30 + 10 * Math.sin((2 * Math.PI * (doy - 105)) / 365) + wobble + spell) * 10) / 10;
}

function accessCsv(): string {
  const rows = ['"STATION","DATE","LATITUDE","LONGITUDE","ELEVATION","NAME","PRCP","PRCP_ATTRIBUTES","TMAX","TMAX_ATTRIBUTES"'];
  for (let t = Date.UTC(1981, 0, 1); t <= Date.UTC(2025, 5, 30); t += DAY) rows.push(`"${PHOENIX}","${iso(t)}","33.4278","-112.0037","337.4","PHOENIX AIRPORT, AZ US","0",",,W","${Math.round(tmax(t) * 10)}",",,W"`);
  return rows.join("\n") + "\n";
}

/** NOAA's by_year layout (no header): ID,YYYYMMDD,ELEMENT,DATA_VALUE,M_FLAG,Q_FLAG,S_FLAG,OBS_TIME. */
function byYear2025(): Buffer {
  const rows: string[] = [];
  for (let t = Date.UTC(2025, 5, 20); t <= Date.UTC(2025, 11, 30); t += DAY) {
    const d = iso(t).replace(/-/g, "");
    rows.push(`${PHOENIX},${d},PRCP,0,,,W,`, `USC00020000,${d},TMAX,${Math.round(tmax(t) * 10) + 50},,,7,0700`);
    // A value that failed NOAA's QC: left out, not read as 99.9 °C.
    rows.push(d === "20250901" ? `${PHOENIX},${d},TMAX,999,,X,W,` : `${PHOENIX},${d},TMAX,${Math.round(tmax(t) * 10)},,,W,`);
  }
  return gzipSync(rows.join("\n") + "\n");
}

describe("GHCN-Daily worldwide heat network", () => {
  let replay: Replay;
  let server: RealServer | undefined;
  const access = accessCsv();
  beforeAll(async () => {
    const routes: Record<string, Buffer> = {
      "/pub/data/ghcn/daily/ghcnd-inventory.txt": Buffer.from(INVENTORY),
      [`/access/${PHOENIX}.csv`]: Buffer.from(access),
      "/pub/data/ghcn/daily/by_year/2025.csv.gz": byYear2025(),
      "/pub/data/ghcn/daily/by_year/2024.csv.gz": gzipSync(`${PHOENIX},20241231,PRCP,0,,,W,\n`),
    };
    replay = await startReplay((path) => routes[path]);
  });
  afterAll(async () => {
    await server?.stop();
    await replay.close();
  });

  it("picks one station per cell with TMAX over the base and still reporting; keeps TMAX rows without a quality flag", () => {
    const net = heatNetwork(parseTmaxInventory(INVENTORY, "ghcnd-inventory.txt"), { cellDeg: 1, maxStations: 10, lastYear: 2024 });
    expect(net.map((s) => s.id)).toEqual([PHOENIX]);
    const spread = heatNetwork(Array.from({ length: 10 }, (_, i) => ({ id: `ZZ${String(i).padStart(9, "0")}`, lat: `${i * 10 - 45}`, lon: "0", first: 1950, last: 2025 })), { cellDeg: 1, maxStations: 3, lastYear: 2024 });
    // Evenly spaced over the latitude bands (north first), not the first three.
    expect(spread.map((s) => s.lat)).toEqual(["45", "15", "-15"]);
    expect(() => parseTmaxInventory("<!DOCTYPE html>\n", "ghcnd-inventory.txt")).toThrow(/not a ghcnd-inventory.txt line/);
    const ids = new Set([PHOENIX]);
    expect(keptByYearLine(`${PHOENIX},20250701,TMAX,412,,,W,`, ids)).toBe(true);
    expect(keptByYearLine(`${PHOENIX},20250701,TMAX,999,,X,W,`, ids)).toBe(false);
    expect(keptByYearLine(`${PHOENIX},20250701,TMIN,212,,,W,`, ids)).toBe(false);
    expect(keptByYearLine(`USC00020000,20250701,TMAX,412,,,7,0700`, ids)).toBe(false);
  });

  it("refresh → inputs tree → heatwave snapshot: Phoenix answers from its station, its latest year completed by the yearly file", async () => {
    const artifactsDir = mkdtempSync(join(tmpdir(), "ghcnd-heat-"));
    const env = { SOURCE_URL_GHCND_HEAT: `${replay.base}/pub/data/ghcn/daily`, SOURCE_URL_GHCND_HEAT_ACCESS: `${replay.base}/access`, SOURCES_RETRIES: "1", SOURCES_BACKOFF_MS: "5" };
    const progress = { start() {}, source() {} };
    const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir, env, only: ["ghcnd_heat"], progress, now: new Date("2025-12-31T12:00:00Z") });
    // The index, Phoenix's file and the two yearly files.
    expect(r).toMatchObject({ source: "ghcnd_heat", outcome: "updated", changed: 4, failed: 0, dataAsOf: "2025-12-30" });
    expect(replay.asked.filter((u) => u.startsWith("/access/"))).toEqual([`/access/${PHOENIX}.csv`]);

    // The next night: the station file (asked monthly) and the inventory are not asked again; the yearly files are.
    const asked = replay.asked.length;
    const [again] = await refreshSources({ dataDir: dataDir(), artifactsDir, env, only: ["ghcnd_heat"], progress, now: new Date("2026-01-01T03:00:00Z") });
    expect(replay.asked.slice(asked).sort()).toEqual(["/pub/data/ghcn/daily/by_year/2025.csv.gz", "/pub/data/ghcn/daily/by_year/2026.csv.gz"]);
    // 2026's file is not published yet (a 404 here): that file fails, the rest stands.
    expect(again).toMatchObject({ outcome: "partial", failed: 1 });
    expect(again.reason).toMatch(/by_year\/2026\.csv: attempt 1: HTTP 404/);
    await writeInputOverlay(dataDir(), artifactsDir, env);
    const inputs = effectiveDataDir(dataDir(), artifactsDir);

    const art = privateArtifacts(inject("artifactsDir"));
    const built = await buildSnapshots({ dataDir: inputs, artifactsDir: art.dir, only: ["heatwave"] });
    expect(built.heatwave.status).toBe("published");
    // The server's day: 2026-01-02, when the 365 days before it are the station's 2025 (its latest full year).
    server = await startRealServer(art.dir, { CLOCK_TODAY: "2026-01-02" });
    const res = await fetch(`${server.base}/api/risk-map/score`, {
      method: "POST",
      headers: { "x-api-key": server.key, "content-type": "application/json" },
      body: JSON.stringify({ lat: 33.45, lng: -112.07, riskType: "heatwave", timeframe: "1y" }),
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.details.heatwave).toMatchObject({ method: "daily", station: { id: PHOENIX, name: "PHOENIX AIRPORT, AZ US" } });
    // 181 days of the access file (to June 30) + 182 of the yearly file (July 1..December 30 less the flagged
    // September 1st): 2025 is a complete year, so it is the latest year rather than 2024.
    expect(data.details.heatwave.period).toEqual({ from: "2025-01-01", to: "2025-12-31", daysWithData: 363 });
    expect(data.details.heatwave.contributingEvents.map((e: { start: string }) => e.start)).toContain("2025-08-01");
    expect(data.details).toMatchObject({ period: { from: "2025-01-01", to: "2025-12-31" }, asOf: "2025-12-31", currency: { current: true, cadence: "yearly" } });
    expect(data.details.heatwave.recent).toMatchObject({ observed: "full", period: { from: "2025-01-02", to: "2026-01-02" } });
    expect(data.details.confidence).toBeGreaterThan(0.2);
    expect(data.details.confidenceBasis).toMatch(/GHCN-Daily station USW00023183/);
    expect(data.details.coverage.area).toMatch(/worldwide, 1 stations of NOAA's GHCN-Daily network/);
  }, 240_000);
});
