// The heatwave builder reads the worldwide network's stations as the refresh keeps them: a temperature-only polar
// station (synthetic, Vostok-like: TMAX −66..−24 °C, no PRCP column) gets its heatwave record, its latest year from
// NOAA's yearly file with the winter days below −60 °C kept.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HEAT_BY_YEAR_DIR, HEAT_STATIONS_DIR } from "../../pipeline/inputs/ghcnd/heat-network.ts";
import { GHCND_SUBDIR, STATION_INDEX_FILE } from "../../pipeline/inputs/ghcnd/stations.ts";
import { dailyHeatTable } from "../../pipeline/snapshots/feeds/heatwave.ts";

const ID = "AYM00089606";
const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
/** Coldest in July (austral winter), −66 °C; warmest in January, −24 °C; a small deterministic wobble. */
const tmax = (t: number) => {
  const doy = (t - Date.UTC(new Date(t).getUTCFullYear(), 0, 1)) / DAY;
  return Math.round((-45 + 20 * Math.cos((2 * Math.PI * (doy - 10)) / 365) + ((((t / DAY) * 7919) % 17) / 10 - 0.8)) * 10);
};

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ghcnd-polar-"));
  mkdirSync(join(dir, GHCND_SUBDIR), { recursive: true });
  writeFileSync(join(dir, GHCND_SUBDIR, STATION_INDEX_FILE), "station,name,lat,lon,elev_m,file\n");
  mkdirSync(join(dir, HEAT_BY_YEAR_DIR), { recursive: true });
  writeFileSync(join(dir, HEAT_STATIONS_DIR, STATION_INDEX_FILE), `station,name,lat,lon,elev_m,file\n${ID},,-78.45,106.867,-999.9,${ID}.csv\n`);
  // The access file as NOAA serves a temperature-only station: TMAX in tenths, no PRCP column.
  const rows = ['"STATION","DATE","LATITUDE","LONGITUDE","ELEVATION","NAME","TMAX","TMAX_ATTRIBUTES"'];
  for (let t = Date.UTC(1981, 0, 1); t <= Date.UTC(2011, 11, 31); t += DAY) rows.push(`"${ID}","${iso(t)}","-78.45","106.867","3488.0","VOSTOK, AY","${tmax(t)}",",,S"`);
  writeFileSync(join(dir, HEAT_STATIONS_DIR, `${ID}.csv`), rows.join("\n") + "\n");
  const year: string[] = [];
  for (let t = Date.UTC(2012, 0, 1); t <= Date.UTC(2012, 11, 31); t += DAY) year.push(`${ID},${iso(t).replace(/-/g, "")},TMAX,${tmax(t)},,,S,`);
  writeFileSync(join(dir, HEAT_BY_YEAR_DIR, "2012.csv"), year.join("\n") + "\n");
  return dir;
}

describe("heatwave builder, a polar temperature-only station of the world network", () => {
  it("answers from the station, its 2012 taken whole from the yearly file (winter below −60 °C included)", async () => {
    expect(Math.min(...Array.from({ length: 366 }, (_, i) => tmax(Date.UTC(2012, 0, 1) + i * DAY)))).toBeLessThan(-600);
    const { table, leftOut, network } = await dailyHeatTable({ dataDir: dataDir(), env: {}, now: new Date(Date.UTC(2013, 5, 1)) });
    expect(leftOut).toEqual({});
    expect(network).toBe(1);
    expect(table.stations).toHaveLength(1);
    expect(table.stations[0]).toMatchObject({ id: ID, name: "VOSTOK, AY", from: "2012-01-01", to: "2012-12-31", daysWithData: 366, baseYears: 30 });
  });
});
