// The IBTrACS West Pacific Parquet extract: the real file (counts and storms traced to its rows), a small file written
// here with hyparquet-writer (every rejection reason), broken files (errors name the file), and the SID merge.
import { copyFileSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { parseIbtracsCsv, type TrackPoint } from "../../pipeline/feeds/ibtracs.ts";
import {
  IBTRACS_WP_FILE,
  IBTRACS_WP_SOURCE,
  mergeTrackRecords,
  readIbtracsParquet,
  summariseStorms,
} from "../../pipeline/feeds/ibtracs-parquet.ts";
import type { AdapterResult } from "../../pipeline/feeds/records.ts";

const realPath = join(dataDir(), IBTRACS_WP_FILE);
const iso = (t: number) => new Date(t).toISOString();
const tmp = () => mkdtempSync(join(tmpdir(), "ibtracs-parquet-"));

describe("IBTrACS WP Parquet extract, real file", () => {
  let wp: AdapterResult<TrackPoint>;
  beforeAll(async () => {
    wp = await readIbtracsParquet(realPath);
  });

  it("119,189 rows, none refused; 4,191 storms from 1884-06-24 to 2025-07-13", () => {
    expect(wp.rows).toBe(119189);
    expect(wp.records).toHaveLength(119189);
    expect(wp.reasons).toEqual({});
    const storms = summariseStorms(wp.records);
    expect(storms).toHaveLength(4191);
    expect(iso(storms[0].firstTime)).toBe("1884-06-24T18:00:00.000Z");
    expect(storms[0].sid).toBe("1884177N17124");
    expect(iso(Math.max(...storms.map((s) => s.lastTime)))).toBe("2025-07-13T00:00:00.000Z");
    expect(wp.records.every((p) => p.source === IBTRACS_WP_SOURCE && p.unit === "kt" && p.kind === "cyclone")).toBe(true);
  });

  it("Haiyan, Yagi and Tip: maximum WMO wind and minimum pressure of their rows", () => {
    const bySid = new Map(summariseStorms(wp.records).map((s) => [s.sid, s]));
    // Haiyan: 38 fixes 2013-11-02 06:00..11-11 12:00, 125 kt and 895 hPa (JMA's figures, carried as WMO_WIND/WMO_PRES).
    const haiyan = bySid.get("2013306N07162")!;
    expect([haiyan.points, iso(haiyan.firstTime), iso(haiyan.lastTime), haiyan.maxWindKt, haiyan.minPressureMb])
      .toEqual([38, "2013-11-02T06:00:00.000Z", "2013-11-11T12:00:00.000Z", 125, 895]);
    const yagi = bySid.get("2024245N12129")!;
    expect([yagi.points, iso(yagi.firstTime), iso(yagi.lastTime), yagi.maxWindKt, yagi.minPressureMb])
      .toEqual([37, "2024-08-31T12:00:00.000Z", "2024-09-09T12:00:00.000Z", 105, 915]);
    // Tip 1979: the record's lowest pressure, 870 hPa, in one row (1979-10-12 06:00, 16.8 N 137.7 E).
    const tip = bySid.get("1979275N06159")!;
    expect([tip.maxWindKt, tip.minPressureMb]).toEqual([140, 870]);
    const lowest = wp.records.filter((p) => p.pressureMb === 870);
    expect(lowest.map((p) => [p.id, p.lat, p.lng])).toEqual([["1979275N06159@1979-10-12T06:00", 16.8, 137.7]]);
    expect(Math.min(...wp.records.filter((p) => Number.isFinite(p.pressureMb)).map((p) => p.pressureMb))).toBe(870);
  });

  it("blank wind and pressure are missing (NaN), not zero; longitudes east of 180 become negative", () => {
    // 92,295 rows have WMO_WIND " " and 51,166 have WMO_PRES " "; no WMO wind before 1957-09-01.
    expect(wp.records.filter((p) => Number.isNaN(p.magnitude))).toHaveLength(92295);
    expect(wp.records.filter((p) => Number.isNaN(p.pressureMb))).toHaveLength(51166);
    expect(iso(Math.min(...wp.records.filter((p) => Number.isFinite(p.magnitude)).map((p) => p.time)))).toBe("1957-09-01T00:00:00.000Z");
    expect(wp.records.every((p) => p.lng >= -180 && p.lng <= 180)).toBe(true);
    // 1,893 fixes lie east of the dateline (LON 180.1..266.9 in the file): -179.9..-93.1 here.
    const east = wp.records.filter((p) => p.lng < 0).map((p) => p.lng);
    expect(east).toHaveLength(1893);
    expect([Math.min(...east), Math.max(...east)]).toEqual([-179.9, -93.1]);
    const p = wp.records.find((r) => r.id === "1946251N11165@1946-09-19T18:00")!;
    expect([p.lat, p.lng]).toEqual([44.5, -177.5]); // LON 182.5 in the file
  });
});

/** A small Parquet file in the extract's layout, written by hyparquet-writer. */
function writeParquet(dir: string, columns: Record<string, { data: unknown[]; type: "STRING" | "TIMESTAMP" | "DOUBLE" }>): string {
  const buf = parquetWriteBuffer({
    columnData: Object.entries(columns).map(([name, c]) => ({ name, data: c.data as never, type: c.type })),
  });
  const path = join(dir, "tracks.parquet");
  writeFileSync(path, new Uint8Array(buf));
  return path;
}

const t = (s: string) => new Date(`${s}Z`);

describe("IBTrACS Parquet adapter on files written here", () => {
  it("keeps good rows, normalises longitudes and blanks, and counts each refusal by reason", async () => {
    const sid = "2024245N12129";
    const rows: [string | null, Date | null, number | null, number | null, string | null, string | null][] = [
      [sid, t("2024-09-01T00:00"), 12.5, 128.0, "35", "1000"],
      [sid, t("2024-09-01T06:00"), 13.0, 200.0, " ", " "], // LON 200 → -160; blanks → NaN
      [sid, t("2024-09-01T12:00"), 13.5, 127.0, null, "  998 "], // null wind = missing
      [sid, t("2024-09-01T06:00"), 13.1, 127.1, "40", "995"], // same storm and time again
      [null, t("2024-09-01T18:00"), 14.0, 126.0, "45", "990"],
      ["NOT-A-SID", t("2024-09-01T18:00"), 14.0, 126.0, "45", "990"],
      [sid, null, 14.0, 126.0, "45", "990"],
      [sid, t("2024-09-02T00:00"), 95.0, 126.0, "45", "990"],
      [sid, t("2024-09-02T06:00"), 14.0, 361.0, "45", "990"],
      [sid, t("2024-09-02T12:00"), 14.0, 126.0, "4S", "990"],
      [sid, t("2024-09-02T18:00"), 14.0, 126.0, "-5", "990"],
      [sid, t("2024-09-03T00:00"), 14.0, 126.0, "45", "n/a"],
      [sid, t("2024-09-03T06:00"), 14.0, 126.0, "45", "99"],
      ["2025001N10100", t("2025-01-01T00:00"), 10.0, 100.0, " ", " "],
    ];
    const path = writeParquet(tmp(), {
      SID: { data: rows.map((r) => r[0]), type: "STRING" },
      ISO_TIME: { data: rows.map((r) => r[1]), type: "TIMESTAMP" },
      LAT: { data: rows.map((r) => r[2]), type: "DOUBLE" },
      LON: { data: rows.map((r) => r[3]), type: "DOUBLE" },
      WMO_WIND: { data: rows.map((r) => r[4]), type: "STRING" },
      WMO_PRES: { data: rows.map((r) => r[5]), type: "STRING" },
    });
    const r = await readIbtracsParquet(path);
    expect(r.rows).toBe(14);
    expect(r.reasons).toEqual({
      "duplicate storm time": 1,
      "missing or malformed SID": 2,
      "bad time": 1,
      "bad coordinates": 2,
      "unreadable WMO_WIND": 1,
      "negative wind speed": 1,
      "unreadable WMO_PRES": 1,
      "pressure outside 850–1100 hPa": 1,
    });
    expect(r.rejected).toBe(10);
    expect(r.records.map((p) => [p.id, p.lat, p.lng, p.magnitude, p.pressureMb])).toEqual([
      [`${sid}@2024-09-01T00:00`, 12.5, 128, 35, 1000],
      [`${sid}@2024-09-01T06:00`, 13, -160, NaN, NaN],
      [`${sid}@2024-09-01T12:00`, 13.5, 127, NaN, 998],
      ["2025001N10100@2025-01-01T00:00", 10, 100, NaN, NaN],
    ]);
    expect(summariseStorms(r.records)).toEqual([
      { sid, firstTime: Date.UTC(2024, 8, 1, 0), lastTime: Date.UTC(2024, 8, 1, 12), points: 3, maxWindKt: 35, minPressureMb: 998 },
      { sid: "2025001N10100", firstTime: Date.UTC(2025, 0, 1), lastTime: Date.UTC(2025, 0, 1), points: 1, maxWindKt: null, minPressureMb: null },
    ]);
  });

  it("a file without a required column is refused with the file and the column named", async () => {
    const path = writeParquet(tmp(), {
      SID: { data: ["2024245N12129"], type: "STRING" },
      ISO_TIME: { data: [t("2024-09-01T00:00")], type: "TIMESTAMP" },
      LAT: { data: [12.5], type: "DOUBLE" },
      LON: { data: [128], type: "DOUBLE" },
      WMO_WIND: { data: ["35"], type: "STRING" },
    });
    await expect(readIbtracsParquet(path)).rejects.toThrow(`${path}: not a readable IBTrACS Parquet file (missing column(s) WMO_PRES)`);
  });

  it("a truncated copy of the real file and a file that is not Parquet are refused naming the file", async () => {
    const dir = tmp();
    const cut = join(dir, "cut.parquet");
    copyFileSync(realPath, cut);
    truncateSync(cut, readFileSync(realPath).length - 1000);
    await expect(readIbtracsParquet(cut)).rejects.toThrow(new RegExp(`^${cut.replace(/[.]/g, "\\.")}: not a readable IBTrACS Parquet file \\(`));
    const text = join(dir, "text.parquet");
    writeFileSync(text, "SID,ISO_TIME\n2024245N12129,2024-09-01 00:00:00\n");
    await expect(readIbtracsParquet(text)).rejects.toThrow(`${text}: not a readable IBTrACS Parquet file`);
    await expect(readIbtracsParquet(join(dir, "absent.parquet"))).rejects.toThrow(`${join(dir, "absent.parquet")}: cannot read`);
  });
});

function point(group: string, time: string, lat: number, lng: number, wind: number, source = "IBTrACS", name = "UNNAMED"): TrackPoint {
  const ms = Date.parse(`${time}Z`);
  return {
    id: `${group}@${time}`, group, source, kind: "cyclone", time: ms, endTime: ms, lat, lng, magnitude: wind, unit: "kt",
    name, basin: "", pressureMb: NaN, status: "",
  };
}

describe("merging the long WP record with the CSV tracks by SID", () => {
  it("CSV rows win at the same storm and time, compact groups take the SID their fixes match, every SID once", () => {
    const A = "2020001N10130";
    const B = "2021001N12140";
    const long = [
      point(A, "2020-01-01T00:00", 10, 130, 30, IBTRACS_WP_SOURCE, A),
      point(A, "2020-01-01T06:00", 10.5, 129.5, 35, IBTRACS_WP_SOURCE, A),
      point(A, "2020-01-01T12:00", 11, 129, 40, IBTRACS_WP_SOURCE, A),
      point(B, "2021-01-01T00:00", 12, 140, 50, IBTRACS_WP_SOURCE, B),
      point(B, "2021-01-01T06:00", 12.5, 139.5, 55, IBTRACS_WP_SOURCE, B),
    ];
    const recent = [
      // native (ACTIVE-list) rows of A: one at a time the long record has (wins), one later
      point(A, "2020-01-01T06:00", 10.6, 129.4, 45, "IBTrACS", "ALPHA"),
      point(A, "2020-01-01T18:00", 11.5, 128.5, 50, "IBTrACS", "ALPHA"),
      // compact rows of B under a basin-year-name key; the first fix matches B's, the 03:00 one is new
      point("WP-2021-BRAVO", "2021-01-01T00:00", 12, 140, 52, "IBTrACS", "BRAVO"),
      point("WP-2021-BRAVO", "2021-01-01T03:00", 12.2, 139.8, 53, "IBTrACS", "BRAVO"),
      // a South Pacific storm the WP record does not hold
      point("SP-2021-CHARLIE", "2021-02-01T00:00", -15, 170, 60, "IBTrACS", "CHARLIE"),
    ];
    const m = mergeTrackRecords(long, recent);
    expect(m.resolvedGroups).toEqual({ "WP-2021-BRAVO": B });
    expect(m.storms).toBe(3);
    expect(m.overlappingSids).toBe(2);
    expect(m.replacedPoints).toBe(2);
    expect(m.records.map((p) => [p.id, p.group, p.magnitude, p.name, p.source])).toEqual([
      [`${A}@2020-01-01T00:00`, A, 30, "ALPHA", IBTRACS_WP_SOURCE],
      [`${A}@2020-01-01T06:00`, A, 45, "ALPHA", "IBTrACS"],
      [`${A}@2020-01-01T12:00`, A, 40, "ALPHA", IBTRACS_WP_SOURCE],
      [`${A}@2020-01-01T18:00`, A, 50, "ALPHA", "IBTrACS"],
      [`${B}@2021-01-01T00:00`, B, 52, "BRAVO", "IBTrACS"],
      [`${B}@2021-01-01T03:00`, B, 53, "BRAVO", "IBTrACS"],
      [`${B}@2021-01-01T06:00`, B, 55, "BRAVO", IBTRACS_WP_SOURCE],
      ["SP-2021-CHARLIE@2021-02-01T00:00", "SP-2021-CHARLIE", 60, "CHARLIE", "IBTrACS"],
    ]);
  });

  it("on the real files: 4,191 WP storms + 250 compact groups + 5 active storms − 69 compact groups matched = 4,377 storms", async () => {
    const wp = await readIbtracsParquet(realPath);
    const csv = (f: string) => parseIbtracsCsv(readFileSync(join(dataDir(), "feeds", "ibtracs", f), "utf8"));
    const compact = csv("ibtracs_last3years_clean.csv");
    const active = csv("ibtracs.ACTIVE.list.v04r01.csv");
    expect(new Set(compact.records.map((p) => p.group)).size).toBe(250);
    expect(new Set(active.records.map((p) => p.group)).size).toBe(5);
    const m = mergeTrackRecords(wp.records, [...compact.records, ...active.records]);
    expect(Object.keys(m.resolvedGroups)).toHaveLength(69);
    expect(m.storms).toBe(4377);
    expect(m.overlappingSids).toBe(68);
    expect(new Set(m.records.map((p) => p.id)).size).toBe(m.records.length);
    // DORA 2023 crossed from the East into the West Pacific: two compact groups, one SID.
    expect(m.resolvedGroups["EP-2023-DORA"]).toBe("2023213N14257");
    expect(m.resolvedGroups["WP-2023-DORA"]).toBe("2023213N14257");
    // Yagi: the compact CSV's 73 three-hourly points replace the extract's 37 six-hourly fixes; its name comes with them.
    expect(m.resolvedGroups["WP-2024-YAGI"]).toBe("2024245N12129");
    const yagi = m.records.filter((p) => p.group === "2024245N12129");
    expect(yagi).toHaveLength(73);
    expect(new Set(yagi.map((p) => [p.source, p.name].join()))).toEqual(new Set(["IBTrACS,YAGI"]));
    const groups = new Set(m.records.map((p) => p.group));
    for (const s of new Set(wp.records.map((p) => p.group))) expect(groups.has(s)).toBe(true);
  });
});
