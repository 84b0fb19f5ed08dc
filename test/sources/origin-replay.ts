// A local stand-in for the sources' origins: serves bodies at origin-shaped paths (anything else is a 404) and
// records what was asked. Plus NOAA's GHCN-Daily station list written in its fixed-width layout from the mirror's
// station index, so a refresh on a data directory without an index finds the mirror's stations.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readCsv } from "../../pipeline/feeds/csv.ts";
import { readStationIndex } from "../../pipeline/inputs/ghcnd/stations.ts";

export interface Replay {
  base: string;
  asked: string[];
  close(): Promise<void>;
}

/** `route(path)` gives the body for a request path, or undefined for a 404. */
export async function startReplay(route: (path: string) => Buffer | undefined): Promise<Replay> {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url!);
    const body = route(req.url!);
    if (!body) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, { "content-length": String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** One ghcnd-stations.txt line: ID 1–11, LATITUDE 13–20, LONGITUDE 22–30, ELEVATION 32–37, NAME 42–71. */
export const stationListLine = (id: string, lat: number, lon: number, elev: number, name: string) =>
  `${id.padEnd(11)} ${lat.toFixed(4).padStart(8)} ${lon.toFixed(4).padStart(9)} ${elev.toFixed(1).padStart(6)}    ${name.slice(0, 30).padEnd(30)}`;

/** The mirror's stations as NOAA's list would give them, and each station's file by id. */
export async function mirrorStationList(ghcndDir: string): Promise<{ lines: string[]; files: Map<string, string> }> {
  const index = await readStationIndex(ghcndDir);
  return {
    lines: index.map((e) => stationListLine(e.id, e.lat, e.lng, e.elevationM, e.name)),
    files: new Map(index.map((e) => [e.id, e.path])),
  };
}

/**
 * An ArcGIS feature-service query answered from a CSV (IMF PortWatch's services), page by page as the service does:
 * `resultOffset` / `resultRecordCount`, `exceededTransferLimit` while rows remain. Values that are numbers in their
 * shortest form are JSON numbers, empty cells null, date columns epoch milliseconds, the rest strings.
 */
export function arcgisPage(csv: string, search: URLSearchParams, dateColumns: readonly string[] = []): Buffer {
  const table = readCsv(csv.replace(/^\uFEFF/, ""), "replay.csv");
  const header = table.header;
  const offset = Number(search.get("resultOffset") ?? 0);
  const count = Number(search.get("resultRecordCount") ?? 1000);
  const value = (h: string, v: string) =>
    v === "" ? null : dateColumns.includes(h) ? Date.parse(`${v}T00:00:00Z`) : /^-?\d+(\.\d+)?$/.test(v) && String(Number(v)) === v ? Number(v) : v;
  const features = table.rows.slice(offset, offset + count).map((r) => ({ attributes: Object.fromEntries(header.map((h, i) => [h, value(h, r.fields[i] ?? "")])) }));
  return Buffer.from(JSON.stringify({ features, exceededTransferLimit: offset + count < table.rows.length }));
}

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** NASA writes hundredths without the leading zero: -.18, .05, 1.35. */
const nasaValue = (v: number) => v.toFixed(2).replace(/^(-?)0\./, "$1.");

/**
 * The mirror's GISTEMP rows (datahub layout: Source,Year=YYYY-MM,Mean) in the layout NASA publishes them in,
 * modelled on https://data.giss.nasa.gov/gistemp/tabledata_v4/GLB.Ts+dSST.csv as its GISTEMP page
 * (https://data.giss.nasa.gov/gistemp/, "Tables of Global and Hemispheric Monthly Means and Zonal Annual Means",
 * CSV) serves it: the title line "Land-Ocean: Global Means", then Year,Jan,…,Dec,J-D,D-N,DJF,MAM,JJA,SON in °C,
 * *** where a month (or a mean over one) is not yet in. J-D is the year's mean; the seasonal means are written ***
 * (nothing reads them). `throughMonth` (YYYY-MM) cuts the series there, as NASA's table stands in mid-year.
 */
export function gistempTable(datahubCsv: string, throughMonth?: string): string {
  const byYear = new Map<number, (number | undefined)[]>();
  for (const row of readCsv(datahubCsv, "datahub.csv").rows) {
    const [source, ym, mean] = row.fields;
    if (source !== "GISTEMP" || (throughMonth && ym > throughMonth)) continue;
    const [y, m] = ym.split("-").map(Number);
    if (!byYear.has(y)) byYear.set(y, new Array(12).fill(undefined));
    byYear.get(y)![m - 1] = Number(mean);
  }
  const lines = ["Land-Ocean: Global Means", ["Year", ...MONTH_NAMES, "J-D", "D-N", "DJF", "MAM", "JJA", "SON"].join(",")];
  for (const [y, months] of [...byYear].sort(([a], [b]) => a - b)) {
    const full = months.every((v) => v !== undefined);
    const jd = full ? nasaValue(months.reduce((s: number, v) => s + v!, 0) / 12) : "***";
    lines.push([String(y), ...months.map((v) => (v === undefined ? "***" : nasaValue(v))), jd, "***", "***", "***", "***", "***"].join(","));
  }
  return lines.join("\n") + "\n";
}

/**
 * Rows of OWID's frozen COVID-19 layout (owid-covid-data.csv, with `iso_code`, or the mirror's Thai copy without it:
 * then `code` names the country) in the layout of OWID's catalog table
 * https://catalog.ourworldindata.org/garden/covid/latest/compact/compact.csv: `country`, `date`, the indicators,
 * then `code`, `continent` and the country facts — the column order OWID's ETL step writes (github.com/owid/etl,
 * etl/steps/data/garden/covid/latest/compact.py: COLUMNS_INDEX + indicators + COLUMNS_EXT), abridged to the columns
 * around the ones read.
 */
export function owidCovidCatalog(frozenCsv: string, code?: string): string {
  const table = readCsv(frozenCsv, "owid-covid-data.csv", { fieldCount: "any" });
  const col = (name: string) => table.header.indexOf(name);
  const out = ["country", "date", "total_cases", "new_cases", "new_cases_smoothed", "total_deaths", "new_deaths", "code", "continent", "population"];
  const from = ["location", "date", "total_cases", "new_cases", "new_cases_smoothed", "total_deaths", "new_deaths", "iso_code", "continent", "population"].map(col);
  const lines = [out.join(",")];
  for (const { fields } of table.rows) lines.push(from.map((i, k) => (out[k] === "code" && code ? code : i < 0 ? "" : (fields[i] ?? ""))).join(","));
  return lines.join("\n") + "\n";
}
