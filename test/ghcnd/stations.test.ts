import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { monthIndex } from "../../lib/months.ts";
import {
  FLAG_COMPLETE,
  FLAG_DRY_DAY_OMITTING_YEAR,
  FLAG_DRY_DAYS_ASSUMED,
  GHCND_SUBDIR,
  readGhcndStations,
  readStationIndex,
  readStationMonthly,
  summarizeGhcndQc,
} from "../../pipeline/inputs/ghcnd/stations.ts";

const HEADER = "STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,PRCP,TAVG,TMAX,TMIN";

function januaryFile(id: string, name: string, mm: number): string {
  const rows = [HEADER];
  for (let d = 1; d <= 31; d++) rows.push(`${id},"${name}",13.5,100.5,5.0,2000-01-${String(d).padStart(2, "0")},${d === 15 ? mm : 0},27.0,,`);
  return rows.join("\n") + "\n";
}

function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), "ghcnd-stations-"));
  mkdirSync(join(dir, "observed"));
  writeFileSync(
    join(dir, "_stations.csv"),
    'station,name,lat,lon,elev_m,file\nTHA0000001,"ALPHA, TH",13.5,100.5,5.0,observed/ALPHA.csv\nTHB0000002,"BETA, TH",14.0,101.0,7.5,observed/BETA.csv\n',
  );
  writeFileSync(join(dir, "ALPHA.csv"), januaryFile("THA0000001", "ALPHA, TH", 12.5)); // beside the index
  writeFileSync(join(dir, "observed", "BETA.csv"), januaryFile("THB0000002", "BETA, TH", 3)); // where the index says
  return dir;
}

describe("station index and reader", () => {
  it("resolves index paths both as listed and directly in the folder", async () => {
    const dir = fixture();
    const index = await readStationIndex(dir);
    expect(index.map((e) => e.path)).toEqual([join(dir, "ALPHA.csv"), join(dir, "observed", "BETA.csv")]);
    expect(index[1]).toMatchObject({ id: "THB0000002", name: "BETA, TH", lat: 14, lng: 101, elevationM: 7.5 });
  });

  it("reads every station with progress and builds monthly series and QC", async () => {
    const dir = fixture();
    const progress: [number, number][] = [];
    const stations = await readGhcndStations({ dir, concurrency: 1, onProgress: (done, total) => progress.push([done, total]) });
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(stations.map((s) => [s.id, s.firstMonth, s.prcp[0], s.tmean[0], s.prcpFlags[0], s.tempFlags[0]])).toEqual([
      ["THA0000001", monthIndex(2000, 1), 12.5, 27, FLAG_COMPLETE, FLAG_COMPLETE],
      ["THB0000002", monthIndex(2000, 1), 3, 27, FLAG_COMPLETE, FLAG_COMPLETE],
    ]);
    expect(summarizeGhcndQc(stations, "strict")).toMatchObject({ stationsRead: 2, rowsRead: 62, prcpMonthsAdmitted: { strict: 2, assumeDry: 2 } });
  });

  it("keeps a station with one value out of range, its month still admitted, and counts it in the QC summary", async () => {
    const dir = fixture();
    // 2000-01-15 carries TAVG 75 °C: dropped, the other 30 days make January's mean.
    writeFileSync(join(dir, "ALPHA.csv"), januaryFile("THA0000001", "ALPHA, TH", 12.5).replace("2000-01-15,12.5,27.0", "2000-01-15,12.5,75.0"));
    const stations = await readGhcndStations({ dir, policy: "strict" });
    expect([stations[0].prcp[0], stations[0].tmean[0]]).toEqual([12.5, 27]);
    expect(stations[0].qc.parse.rejected.outOfRange).toBe(1);
    expect(summarizeGhcndQc(stations, "strict").rowsRejected).toEqual({ tminAboveTmax: 0, knownBad: 0, noaaQualityFlag: 0, outOfRange: 1 });
  });

  it("refuses a temperature-only station by name: these series are for precipitation (the drought grid)", async () => {
    const dir = fixture();
    writeFileSync(join(dir, "ALPHA.csv"), 'STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,TMAX\nTHA0000001,"ALPHA, TH",13.5,100.5,5.0,2000-01-01,33.0\n');
    await expect(readGhcndStations({ dir })).rejects.toThrow(`${join(dir, "ALPHA.csv")}:1: missing column PRCP: no precipitation in this station file, and this reader needs it`);
  });

  it("stops when a file's STATION disagrees with the index", async () => {
    const dir = fixture();
    writeFileSync(join(dir, "ALPHA.csv"), januaryFile("THZ0000009", "ALPHA, TH", 1));
    await expect(readGhcndStations({ dir })).rejects.toThrow(`${join(dir, "ALPHA.csv")}:2: STATION THZ0000009 but the index says THA0000001`);
  });
});

// Real mirror: one station in detail, then the whole folder once (~3 s).
const mirror = join(dataDir(), GHCND_SUBDIR);

/** Independent check: sum PRCP of one station-month by plain text matching on the raw rows. */
function rawMonthTotal(path: string, ym: string): { sum: number; reported: number } {
  let sum = 0;
  let reported = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const m = /,(\d{4}-\d{2})-\d{2},([^,]*),[^,]*,[^,]*,[^,]*$/.exec(line);
    if (!m || m[1] !== ym || m[2] === "") continue;
    sum += parseFloat(m[2]);
    reported++;
  }
  return { sum, reported };
}

describe("real GHCN-Daily mirror", () => {
  it("Bangkok TH000048455: monthly totals match the raw rows; 2000–2002 detected as dry-day-omitting, 1980 and 1999 not", async () => {
    const entry = (await readStationIndex(mirror)).find((e) => e.id === "TH000048455")!;
    const s = await readStationMonthly(entry, { policy: "assume-dry" });
    expect(s.firstMonth).toBe(monthIndex(1951, 1));

    const aug1980 = rawMonthTotal(entry.path, "1980-08");
    expect(aug1980.reported).toBe(31);
    expect(s.prcp[monthIndex(1980, 8) - s.firstMonth]).toBeCloseTo(aug1980.sum, 9);
    expect(s.prcpFlags[monthIndex(1980, 8) - s.firstMonth]).toBe(FLAG_COMPLETE);

    // July 2001: 23 reported days under dry-day omission; assume-dry admits their sum, flagged.
    const jul2001 = rawMonthTotal(entry.path, "2001-07");
    expect(jul2001.reported).toBeLessThan(28);
    const k = monthIndex(2001, 7) - s.firstMonth;
    expect(s.prcp[k]).toBeCloseTo(jul2001.sum, 9);
    expect(s.prcpFlags[k]).toBe(FLAG_DRY_DAYS_ASSUMED | FLAG_DRY_DAY_OMITTING_YEAR);

    const year = (y: number) => s.qc.years.find((r) => r.year === y)!;
    expect([2000, 2001, 2002].map((y) => year(y).dryDayOmitting)).toEqual([true, true, true]);
    expect(year(1980)).toMatchObject({ reportedDays: 366, dryDayOmitting: false, monthsAdmittedStrict: 12 });
    expect(year(1980).zeroFraction).toBeCloseTo(257 / 366, 12);
    // 1999 is a January–September gap (only 4 reports), not dry-day omission: no assumption is made there.
    expect(year(1999)).toMatchObject({ reportedDays: 88, incompleteReportedDays: 31, dryDayOmitting: false, monthsAdmittedAssumeDry: 2 });
    expect(year(2001)).toMatchObject({ reportedDays: 157, monthsAdmittedStrict: 0, monthsAdmittedAssumeDry: 12 });
  });

  it("reads all 53 station files of the mirror", async () => {
    const stations = await readGhcndStations({ dir: mirror, policy: "assume-dry" });
    expect(stations.length).toBe(53);
    expect(new Set(stations.map((s) => s.id)).size).toBe(53);
    expect(summarizeGhcndQc(stations, "assume-dry")).toMatchObject({
      stationsRead: 53,
      rowsRead: 1_043_778, // wc -l of the 53 files minus their headers
      rowsRejected: { tminAboveTmax: 37, knownBad: 1, noaaQualityFlag: 0 },
    });
  });
});
