// NOAA's native West Pacific list (what `make refresh` downloads) next to the mirror's Parquet extract of it: the
// CSV's 6-hourly synoptic fixes are the extract's records. The test writes the extract's fixes in the native
// layout (header, units row, 3-hourly rows in between, a blank WMO wind), plus a row with a broken SID.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { IBTRACS_WP_FILE, parseIbtracsWpCsv, readIbtracsParquet } from "../../pipeline/feeds/ibtracs-parquet.ts";

const HEADER = "SID,SEASON,NUMBER,BASIN,SUBBASIN,NAME,ISO_TIME,NATURE,LAT,LON,WMO_WIND,WMO_PRES,WMO_AGENCY,TRACK_TYPE,USA_WIND";
const UNITS = " ,Year, , , , , , ,degrees_north,degrees_east,kts,mb, , ,kts";
const iso = (t: number) => new Date(t).toISOString().slice(0, 19).replace("T", " ");
const blank = (v: number) => (Number.isNaN(v) ? " " : String(v));

describe("IBTrACS West Pacific native CSV", () => {
  it("its synoptic fixes are the Parquet extract's records; 3-hourly rows are left out", async () => {
    const extract = await readIbtracsParquet(join(dataDir(), IBTRACS_WP_FILE));
    const lines = [HEADER, UNITS];
    for (const p of extract.records) {
      const row = (t: number, wind: string) => `${p.group},${new Date(t).getUTCFullYear()},1,WP,MM,NOT_NAMED,${iso(t)},TS,${p.lat},${p.lng},${wind},${blank(p.pressureMb)},tokyo,main,${wind}`;
      lines.push(row(p.time, blank(p.magnitude)));
      // An interpolated 3-hourly row (no WMO wind) after every fix: not part of the long record.
      lines.push(row(p.time + 3 * 3_600_000, " "));
    }
    lines.push(`20XX123N10140,2020,1,WP,MM,BROKEN,2020-05-01 00:00:00,TS,10,140,30,1000,tokyo,main,30`);
    const fromCsv = parseIbtracsWpCsv(lines.join("\n") + "\n", "ibtracs.WP.list.v04r01.csv");
    expect(fromCsv.records.length).toBe(extract.records.length);
    const shape = (r: (typeof extract.records)[number]) => [r.id, r.group, r.time, r.lat, r.lng, r.magnitude, r.pressureMb, r.source];
    expect(fromCsv.records.map(shape)).toEqual(extract.records.map(shape));
    expect(fromCsv.rejected).toBe(1);
    expect(fromCsv.rejectedAt).toEqual({ "missing or malformed SID": [`ibtracs.WP.list.v04r01.csv:${lines.length}`] });
  }, 60_000);

  it("a file without the native columns is refused by name", () => {
    expect(() => parseIbtracsWpCsv("time,latitude\n2020-01-01,10\n", "x.csv")).toThrow(/^x\.csv: not the IBTrACS native list \(x\.csv: missing columns "SID"/);
  });
});
