// The `ghcnm` source against a loopback origin serving a release written here in NOAA's layout (a .tar.gz of
// ghcnm.v4.0.1.<date>/ghcnm.tavg.v4.0.1.<date>.qcf.dat and .inv): one download makes both kept files, cut to the
// mirror's box, in the mirror's names, read by the regional grid's reader through the inputs tree. A release cut
// short, one with too few stations and one with a broken line are refused and the previous copy stays.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthIndex } from "../../lib/months.ts";
import { GHCNM_DATA_DIR_FILES } from "../../pipeline/grid/grid-source.ts";
import { readGhcnmStations } from "../../pipeline/inputs/ghcnm/stations.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { cutGhcnmRelease, GHCNM_MIN_STATIONS } from "../../pipeline/sources/catalog/ghcnm.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { currentRawDir, readSourceState } from "../../pipeline/sources/raw-cache.ts";
import { startReplay, type Replay } from "./origin-replay.ts";
import { ustar } from "./tar-fixture.ts";

/** NOAA's .dat line: ID, YEAR, TAVG, 12 × (value in hundredths of °C, DMFLAG, QCFLAG, DSFLAG). */
const datLine = (id: string, year: number, values: number[]) => `${id}${year}TAVG` + values.map((v) => `${String(v).padStart(5)}   `).join("");
const invLine = (id: string, lat: number, lng: number, name: string) =>
  `${id} ${lat.toFixed(4).padStart(8)} ${lng.toFixed(4).padStart(9)} ${(12).toFixed(1).padStart(6)} ${name.padEnd(30)}`;

/** Station k of the box: spread over 95..134 °E, −5..24 °N; 2025 whole, 2026 to October (November not yet in). */
const boxId = (k: number) => `TH${String(k).padStart(9, "0")}`;
const value = (k: number, year: number, m: number) => (year === 2026 && m >= 10 ? -9999 : 2500 + k + m * 10 + (year - 2025));
function release(boxStations: number, mangle?: (dat: string) => string): Uint8Array {
  const inv: string[] = [];
  const dat: string[] = [];
  for (let k = 0; k < boxStations; k++) {
    inv.push(invLine(boxId(k), -5 + (k % 30), 95 + (k % 40), `STATION_${k}`));
    for (const y of [2025, 2026]) dat.push(datLine(boxId(k), y, Array.from({ length: 12 }, (_, m) => value(k, y, m))));
  }
  // Outside the box (Canberra; Denver), and a station of the box without data: none is kept.
  inv.push(invLine("ASN00070351", -35.3, 149.2, "CANBERRA"), invLine("USW00023062", 39.8, -104.9, "DENVER"), invLine("TH999999999", 13, 100, "NO_DATA"));
  dat.push(datLine("ASN00070351", 2025, Array(12).fill(1200)), datLine("USW00023062", 2025, Array(12).fill(1000)));
  const datText = dat.join("\n") + "\n";
  return gzipSync(ustar([
    ["ghcnm.v4.0.1.20261127/ghcnm.tavg.v4.0.1.20261127.qcf.dat", mangle ? mangle(datText) : datText],
    ["ghcnm.v4.0.1.20261127/ghcnm.tavg.v4.0.1.20261127.qcf.inv", inv.join("\n") + "\n"],
  ]));
}

const good = release(GHCNM_MIN_STATIONS);
let body: Uint8Array = good;
let replay: Replay;
const dataDir = mkdtempSync(join(tmpdir(), "ghcnm-data-"));
const artifactsDir = mkdtempSync(join(tmpdir(), "ghcnm-refresh-"));
beforeAll(async () => {
  replay = await startReplay((path) => (path === "/pub/data/ghcn/v4/ghcnm.tavg.latest.qcf.tar.gz" ? Buffer.from(body) : undefined));
});
afterAll(() => replay.close());

const silent = { start() {}, source() {} };
const refresh = async (served: Uint8Array) => {
  body = served;
  replay.asked.length = 0;
  const env = { SOURCE_URL_GHCNM: `${replay.base}/pub/data/ghcn/v4/ghcnm.tavg.latest.qcf.tar.gz`, SOURCES_RETRIES: "0" };
  return (await refreshSources({ dataDir, artifactsDir, env, only: ["ghcnm"], progress: silent, now: new Date("2026-11-28T00:00:00Z") }))[0];
};
const DAT = "ghcnm.tavg.v4.qcf.seasia.dat.gz";
const INV = "ghcnm.tavg.v4.qcf.seasia.inv";
const cached = (f: string) => readFileSync(join(currentRawDir(artifactsDir, "ghcnm")!, f));

describe("ghcnm source", () => {
  it("cuts the release to the box's stations with data, as NOAA wrote their lines", () => {
    const cut = cutGhcnmRelease(release(3), "r.tgz", 3);
    expect(cut.stations).toBe(3);
    expect(cut.inv).toBe([0, 1, 2].map((k) => invLine(boxId(k), -5 + k, 95 + k, `STATION_${k}`)).join("\n") + "\n");
    expect(cut.dat.split("\n")[1]).toBe(datLine(boxId(0), 2026, Array.from({ length: 12 }, (_, m) => value(0, 2026, m))));
    expect(cut.dat.trim().split("\n")).toHaveLength(6);
    expect(() => cutGhcnmRelease(release(3), "r.tgz", 4)).toThrow("r.tgz: 3 stations with data in the box 90..145 °E, -12..30 °N, fewer than the 4 expected");
  });

  it("downloads the release once and keeps its two files in the mirror's names, read through the inputs tree", async () => {
    const r = await refresh(good);
    expect(r).toMatchObject({ source: "ghcnm", outcome: "updated", changed: 2, failed: 0, dataAsOf: "2026-10-31" });
    expect(replay.asked).toEqual(["/pub/data/ghcn/v4/ghcnm.tavg.latest.qcf.tar.gz"]);
    expect(r.bytes).toBe(good.length);
    const state = readSourceState(artifactsDir, "ghcnm")!;
    expect(state.files[INV]).toMatchObject({ rows: 300, from: "download", linkAs: GHCNM_DATA_DIR_FILES.inv });
    expect(state.files[DAT]).toMatchObject({ rows: 600, from: "download", dataAsOf: "2026-10-31", linkAs: GHCNM_DATA_DIR_FILES.dat });
    expect(gunzipSync(cached(DAT)).toString().split("\n")[0]).toBe(datLine(boxId(0), 2025, Array.from({ length: 12 }, (_, m) => value(0, 2025, m))));
    const { dir } = await writeInputOverlay(dataDir, artifactsDir, {});
    const read = readGhcnmStations(join(dir, GHCNM_DATA_DIR_FILES.dat), join(dir, GHCNM_DATA_DIR_FILES.inv), { west: 90, east: 145, south: -12, north: 30 });
    expect(read.stations).toHaveLength(300);
    const s7 = read.stations.find((s) => s.id === boxId(7))!;
    expect([s7.lat, s7.lng, s7.firstMonth, s7.tavg.length]).toEqual([2, 102, monthIndex(2025, 1), 24]);
    expect([s7.tavg[0], s7.tavg[13], s7.tavg[22]]).toEqual([25.07, 25.18, NaN]);
  });

  it("refuses a release cut short, one with too few stations, one with a broken line; the previous copy stays", async () => {
    const before = [cached(DAT), cached(INV)];
    const version = currentRawDir(artifactsDir, "ghcnm");
    const cut = await refresh(good.subarray(0, good.length >> 1));
    expect(cut.outcome).toBe("failed");
    expect(cut.reason).toMatch(/not a complete gzip file/);
    const few = await refresh(release(GHCNM_MIN_STATIONS - 1));
    expect(few.reason).toContain("299 stations with data in the box 90..145 °E, -12..30 °N, fewer than the 300 expected");
    // The last line (Denver, line 602) cut after its element: outside the box, still refused.
    const broken = await refresh(release(GHCNM_MIN_STATIONS, (dat) => dat.replace(/\n[^\n]*\n$/, "\nTH000000001202 TAVG\n")));
    expect(broken.outcome).toBe("failed");
    expect(broken.reason).toMatch(/ghcnm\.tavg\.v4\.0\.1\.20261127\.qcf\.dat:602: line of 19 characters, expected 115/);
    expect(currentRawDir(artifactsDir, "ghcnm")).toBe(version);
    expect([cached(DAT), cached(INV)]).toEqual(before);
    expect(readSourceState(artifactsDir, "ghcnm")!.files[DAT]).toMatchObject({ from: "kept", dataAsOf: "2026-10-31", error: expect.stringContaining("line of 19 characters") });
  });
});
