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
