// NOAA IBTrACS v04r01 (Knapp et al. 2010, doi:10.1175/2009BAMS2755.1): the native CSV (a header row, then a
// units row, then one row per track point with many agencies' winds) and the compact derived CSV
// (time, latitude, longitude, name, basin, wind, pressure, status; also with a units row). Every point is a
// record; the storm is its group. Magnitude is the maximum sustained wind in knots: WMO_WIND where given,
// else the first agency wind (USA_WIND, TOKYO_WIND, ...).
import { num, readCsv } from "./csv.ts";
import { RejectCounter, validLatLng, type AdapterResult, type FeedRecord } from "./records.ts";

export interface TrackPoint extends FeedRecord {
  basin: string;
  pressureMb: number;
  status: string;
}

function isoTime(s: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s.trim());
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], m[6] ? +m[6] : 0) : NaN;
}

export function parseIbtracsCsv(text: string, file = "ibtracs.csv"): AdapterResult<TrackPoint> & { interpolatedWind: number } {
  const csv = readCsv(text, file);
  const header = csv.header.map((h) => h.trim());
  const all = csv.rows;
  const col = (name: string) => header.indexOf(name);
  const native = col("SID") >= 0;
  const compact = col("time") >= 0 && col("wind") >= 0;
  if (!native && !compact) throw new Error("IBTrACS: header is neither the native nor the compact column set");
  // The units row ("degrees_north", "kts", ...) follows the header in both forms.
  let start = 0;
  if (all[0] && all[0].fields.some((v) => v.trim() === "degrees_north")) start = 1;
  const iLat = native ? col("LAT") : col("latitude");
  const iLng = native ? col("LON") : col("longitude");
  const iTime = native ? col("ISO_TIME") : col("time");
  const iName = native ? col("NAME") : col("name");
  const iBasin = native ? col("BASIN") : col("basin");
  const iPres = native ? col("WMO_PRES") : col("pressure");
  const iStatus = native ? col("NATURE") : col("status");
  const windCols = native
    ? [col("WMO_WIND"), ...header.map((h, j) => (h.endsWith("_WIND") && h !== "WMO_WIND" ? j : -1)).filter((j) => j >= 0)]
    : [col("wind")];
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const out: TrackPoint[] = [];
  /** Line of each point in `out`. */
  const lineOf = new Map<TrackPoint, number>();
  for (let r = start; r < all.length; r++) {
    const row = all[r].fields;
    const reject = (reason: string) => rc.reject(reason, file, all[r].line);
    rc.rows++;
    const lat = num(row[iLat]);
    let lng = num(row[iLng]);
    if (lng > 180) lng -= 360;
    const time = isoTime(row[iTime] ?? "");
    let wind = NaN;
    for (const j of windCols) {
      wind = num(row[j]);
      if (Number.isFinite(wind)) break;
    }
    if (!validLatLng(lat, lng)) { reject("bad coordinates"); continue; }
    if (!Number.isFinite(time)) { reject("bad time"); continue; }
    if (Number.isFinite(wind) && wind < 0) { reject("negative wind speed"); continue; }
    const name = (row[iName] ?? "").trim() || "UNNAMED";
    const basin = (row[iBasin] ?? "").trim();
    const year = new Date(time).getUTCFullYear();
    // The compact export lost the North Atlantic's basin code "NA" (read as missing): such groups are year-name.
    const group = native ? row[col("SID")].trim() : [basin, year, name].filter((x) => x !== "").join("-");
    const point: TrackPoint = {
      id: `${group}@${new Date(time).toISOString().slice(0, 16)}`,
      group,
      source: "IBTrACS",
      kind: "cyclone",
      time,
      endTime: time,
      lng,
      lat,
      magnitude: wind,
      unit: "kt",
      name,
      basin,
      pressureMb: num(row[iPres]),
      status: (row[iStatus] ?? "").trim(),
    };
    out.push(point);
    lineOf.set(point, all[r].line);
  }
  // Interpolated 3-hourly points carry no wind: take it linearly in time from the storm's neighbouring
  // reported points (the nearest one before the first / after the last report); a storm with no wind at all is rejected.
  const kept: TrackPoint[] = [];
  let interpolated = 0;
  for (let i = 0; i < out.length; i++) {
    const p = out[i];
    if (Number.isFinite(p.magnitude)) { kept.push(p); continue; }
    let a = i - 1, b = i + 1;
    while (a >= 0 && out[a].group === p.group && !Number.isFinite(out[a].magnitude)) a--;
    while (b < out.length && out[b].group === p.group && !Number.isFinite(out[b].magnitude)) b++;
    const pa = a >= 0 && out[a].group === p.group ? out[a] : undefined;
    const pb = b < out.length && out[b].group === p.group ? out[b] : undefined;
    if (pa && pb && pb.time > pa.time) {
      p.magnitude = pa.magnitude + ((pb.magnitude - pa.magnitude) * (p.time - pa.time)) / (pb.time - pa.time);
    } else if (pa || pb) {
      // Before the first or after the last report (often overland decay): the nearest report, an upper bound.
      p.magnitude = (pa ?? pb)!.magnitude;
    } else {
      rc.reject("no wind speed", file, lineOf.get(p));
      continue;
    }
    interpolated++;
    kept.push(p);
  }
  return { ...rc.result(kept), interpolatedWind: interpolated };
}
