// The source portwatch_chokepoints against a replay of PortWatch's Daily_Chokepoints_Data layer: the whole record
// page by page on a first refresh, then the last 30 days before the copy's last day merged by chokepoint and day; a
// download with a missing day or a negative count refused with the previous copy kept; the ports snapshot's reader
// taking each chokepoint's newest series from the inputs tree (the download beside the data directory's export).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshSources } from "../../pipeline/refresh.ts";
import { CHOKEPOINTS_FILE, CHOKEPOINTS_FOLDER, PORTWATCH_CHOKEPOINT_COLUMNS } from "../../pipeline/sources/catalog/portwatch-chokepoints.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { currentRawDir, readSourceState } from "../../pipeline/sources/raw-cache.ts";
import { readChokepoints } from "../../pipeline/snapshots/ports.ts";
import { dayOf, isoOfDay } from "../../lib/days.ts";
import { arcgisPage, startReplay, type Replay } from "./origin-replay.ts";

const CHOKEPOINTS = [
  ["chokepoint1", "Suez Canal"],
  ["chokepoint4", "Bab el-Mandeb Strait"],
] as const;
const FIRST = dayOf("2024-01-01");

/** One export row (the layer's 21 columns); `date` as given. */
function row(date: string, day: number, [id, name]: readonly [string, string], total: number, object: number): string {
  const d = new Date(day * 86_400_000);
  const cells: Record<string, string | number> = { date, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), portid: id, portname: name, n_total: total, ObjectId: object };
  return PORTWATCH_CHOKEPOINT_COLUMNS.map((c) => cells[c] ?? (c.startsWith("n_") ? Math.round(total / 6) : c.startsWith("capacity") ? 1000 : "")).join(",");
}

/** The origin's rows: each chokepoint from FIRST for `days` days, transits `total(chokepoint, day)`; dates YYYY-MM-DD. */
function origin(days: number, total: (c: number, day: number) => number): string {
  const lines = [PORTWATCH_CHOKEPOINT_COLUMNS.join(",")];
  let object = 1;
  CHOKEPOINTS.forEach((c, ci) => {
    for (let d = FIRST; d < FIRST + days; d++) lines.push(row(isoOfDay(d), d, c, total(ci, d), object++));
  });
  return lines.join("\n") + "\n";
}

const dataDir = mkdtempSync(join(tmpdir(), "chokepoints-data-"));
const artifactsDir = mkdtempSync(join(tmpdir(), "chokepoints-art-"));
// The data directory's dated export (slashed dates, gzip): 100 days from FIRST at 70 a day, and the coordinates list.
const MIRROR_EXPORT = "Daily_Chokepoints_Data_2024-01-01_2024-04-09.csv.gz";
mkdirSync(join(dataDir, CHOKEPOINTS_FOLDER), { recursive: true });
{
  const lines = [PORTWATCH_CHOKEPOINT_COLUMNS.join(",")];
  CHOKEPOINTS.forEach((c) => {
    for (let d = FIRST; d < FIRST + 100; d++) lines.push(row(`${isoOfDay(d).replaceAll("-", "/")} 00:00:00+00`, d, c, 70, 1));
  });
  writeFileSync(join(dataDir, CHOKEPOINTS_FOLDER, MIRROR_EXPORT), gzipSync(lines.join("\n") + "\n"));
  writeFileSync(join(dataDir, CHOKEPOINTS_FOLDER, "chokepoints_list.csv"), "portname,lat,lon\nSuez Canal,30.6,32.3\nBab el-Mandeb Strait,12.6,43.3\n");
}

let served = "";
let replay: Replay;
beforeAll(async () => {
  replay = await startReplay((path) => {
    if (!path.startsWith("/o/query?")) return undefined;
    const search = new URL(path, replay.base).searchParams;
    // The layer's own filter: date >= TIMESTAMP 'YYYY-MM-DD 00:00:00'.
    const from = /date >= TIMESTAMP '(\d{4}-\d{2}-\d{2}) 00:00:00'/.exec(search.get("where") ?? "")?.[1] ?? "0000";
    const [head, ...rows] = served.trim().split("\n");
    return arcgisPage([head, ...rows.filter((r) => r.slice(0, 10) >= from)].join("\n") + "\n", search, ["date"]);
  });
});
afterAll(() => replay.close());

const silent = { start() {}, source() {} };
async function refresh() {
  replay.asked.length = 0;
  const env = { SOURCE_URL_PORTWATCH_CHOKEPOINTS: `${replay.base}/o`, SOURCES_TIMEOUT_MS: "5000", SOURCES_RETRIES: "1", SOURCES_BACKOFF_MS: "5" };
  const [r] = await refreshSources({ dataDir, artifactsDir, env, only: ["portwatch_chokepoints"], progress: silent });
  return r;
}
const copy = () => readFileSync(join(currentRawDir(artifactsDir, "portwatch_chokepoints")!, CHOKEPOINTS_FILE), "utf8");
const dataRows = (text: string) => text.trim().split("\n").slice(1);

describe("portwatch_chokepoints refresh", () => {
  it("fetches the whole record page by page on a first refresh and leaves the data directory's export out of the version", async () => {
    // 2 chokepoints × 600 days = 1,200 rows: two pages of 1,000.
    served = origin(600, (c) => (c === 0 ? 60 : 30));
    const r = await refresh();
    expect(r, r.reason).toMatchObject({ outcome: "updated", failed: 0 });
    expect(replay.asked).toHaveLength(2);
    expect(decodeURIComponent(replay.asked[0])).toContain("date >= TIMESTAMP '2019-01-01 00:00:00'");
    expect(replay.asked.map((a) => new URL(a, replay.base).searchParams.get("resultOffset"))).toEqual(["0", "1000"]);
    const rows = dataRows(copy());
    expect(rows).toHaveLength(1200);
    // Dates as YYYY-MM-DD, the export's columns in order; sorted by chokepoint, then day.
    expect(copy().split("\n")[0]).toBe(PORTWATCH_CHOKEPOINT_COLUMNS.join(","));
    expect(rows[0].startsWith("2024-01-01,2024,1,1,chokepoint1,Suez Canal,")).toBe(true);
    const state = readSourceState(artifactsDir, "portwatch_chokepoints")!;
    expect(state.files[CHOKEPOINTS_FILE]).toMatchObject({ from: "download", rows: 1200, dataAsOf: isoOfDay(FIRST + 599) });
    expect(Object.keys(state.files).sort()).toEqual([CHOKEPOINTS_FILE, "chokepoints_list.csv"]);
  });

  it("asks again from 30 days before the copy's last day and merges by chokepoint and day", async () => {
    // Ten more days; the last 30 days of the copy revised from 30 to 31 for Bab el-Mandeb.
    served = origin(610, (c, d) => (c === 0 ? 60 : d >= FIRST + 570 ? 31 : 30));
    const r = await refresh();
    expect(r, r.reason).toMatchObject({ outcome: "updated", failed: 0 });
    expect(decodeURIComponent(replay.asked[0])).toContain(`date >= TIMESTAMP '${isoOfDay(FIRST + 599 - 30)} 00:00:00'`);
    // 2 × 41 rows asked: one page.
    expect(replay.asked).toHaveLength(1);
    const rows = dataRows(copy());
    expect(rows).toHaveLength(1220);
    const bab = rows.filter((l) => l.includes(",chokepoint4,"));
    expect(bab.at(-1)!.startsWith(isoOfDay(FIRST + 609))).toBe(true);
    const total = (l: string) => Number(l.split(",")[PORTWATCH_CHOKEPOINT_COLUMNS.indexOf("n_total")]);
    expect(total(bab[569])).toBe(30);
    expect(total(bab[570])).toBe(31);
  });

  it("refuses a download with a missing day and keeps the previous copy", async () => {
    const before = copy();
    const full = origin(620, (c) => (c === 0 ? 60 : 31));
    const gap = isoOfDay(FIRST + 612);
    served = full.split("\n").filter((l) => !(l.startsWith(gap) && l.includes(",chokepoint4,"))).join("\n");
    const r = await refresh();
    expect(r.outcome).toBe("failed");
    expect(r.reason).toContain(`Bab el-Mandeb Strait (chokepoint4) has no row for 1 day(s) from ${gap}`);
    expect(copy()).toBe(before);
  });

  it("refuses a download with a negative count and keeps the previous copy", async () => {
    const before = copy();
    served = origin(620, (c, d) => (c === 0 && d === FIRST + 615 ? -3 : c === 0 ? 60 : 31));
    const r = await refresh();
    expect(r.outcome).toBe("failed");
    expect(r.reason).toContain(`Suez Canal (chokepoint1) ${isoOfDay(FIRST + 615)}: negative n_total -3`);
    expect(copy()).toBe(before);
  });

  it("gives the snapshot each chokepoint's newest series: the download's, beside the data directory's export", async () => {
    const { dir } = await writeInputOverlay(dataDir, artifactsDir, { SOURCE_URL_PORTWATCH_CHOKEPOINTS: `${replay.base}/o` });
    const read = (p: string) => readFileSync(p);
    const { series, list, lastDay } = readChokepoints(join(dir, CHOKEPOINTS_FOLDER), dir, read, []);
    expect(lastDay).toBe(isoOfDay(FIRST + 609));
    expect(list).toEqual([
      { portid: "chokepoint1", name: "Suez Canal", lat: 30.6, lng: 32.3 },
      { portid: "chokepoint4", name: "Bab el-Mandeb Strait", lat: 12.6, lng: 43.3 },
    ]);
    const bab = series.find((s) => s.key === "chokepoint:chokepoint4")!;
    expect(bab.columns.n_total.length).toBe(610);
    expect(bab.columns.n_total[0]).toBe(30);
    expect(bab.columns.n_total[609]).toBe(31);
  });
});
