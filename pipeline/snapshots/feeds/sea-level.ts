// The sea-level snapshot: every PSMSL gauge with 20 years of annual RLR data and its linear trend.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { EventInput } from "../../../formats/event-index.ts";
import { linearTrend, parsePsmslFilelist, parseRlrAnnual } from "../../feeds/psmsl.ts";
import { FEED_SNAPSHOT_FORMAT, type GaugeStat, type SnapshotMeta } from "../../../formats/feed-snapshot.ts";
import { sharedGeography } from "../../../lib/feed-risk/place.ts";
import { type BuildContext, type BuiltSnapshot, Inputs, PARAMS, WORLD, finish, requireValid } from "./common.ts";

export const PSMSL_FILELIST = "feeds/psmsl/filelist.txt";
export const PSMSL_DATA_DIR = "feeds/psmsl/data";

/** Every gauge of the filelist whose rlrdata file is present, with its trend where it has ≥ 20 years of data. */
export async function buildSeaLevel(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const list = parsePsmslFilelist(await inp.text(PSMSL_FILELIST, "PSMSL_FILELIST"), PSMSL_FILELIST);
  requireValid("PSMSL filelist", list);
  const present = new Set(readdirSync(join(ctx.dataDir, PSMSL_DATA_DIR)).filter((f) => f.endsWith(".rlrdata")));
  const texts = inp.folder(PSMSL_DATA_DIR, list.records.map((st) => `${st.id}.rlrdata`).filter((f) => present.has(f)));
  const gauges: GaugeStat[] = [];
  const rejectedFiles: Record<string, string> = {};
  const missingFiles: number[] = [];
  let shortRecords = 0;
  for (const st of list.records) {
    const rel = `${PSMSL_DATA_DIR}/${st.id}.rlrdata`;
    const text = texts.get(`${st.id}.rlrdata`);
    if (text === undefined) { missingFiles.push(st.id); continue; }
    try {
      const rlr = parseRlrAnnual(text, rel);
      if (rlr.rejected) rejectedFiles[rel] = `${rlr.rejected} malformed lines`;
      const t = linearTrend(rlr.series.years, rlr.series.mm);
      // A trend needs 20 years of data (Douglas 1991: shorter records alias interannual variability).
      if (t.n < PARAMS.sea_level_rise.minYears) { shortRecords++; continue; }
      const annual: [number, number][] = [];
      rlr.series.years.forEach((y, i) => { if (Number.isFinite(rlr.series.mm[i])) annual.push([y, rlr.series.mm[i]]); });
      gauges.push({ id: st.id, name: st.name, lat: st.lat, lng: st.lng, coastline: st.coastline, trendMmYr: t.slope, seMmYr: t.se, years: t.n, firstYear: t.firstYear, lastYear: t.lastYear, lastValueMm: annual.at(-1)?.[1] ?? null, annual });
    } catch (err) {
      rejectedFiles[rel] = (err as Error).message;
    }
  }
  if (gauges.length === 0) throw new Error("PSMSL: no gauge with 20 years of data");
  const lastYear = Math.max(...gauges.map((g) => g.lastYear));
  const firstYear = Math.min(...gauges.map((g) => g.firstYear));
  const asOf = Date.UTC(lastYear, 11, 31);
  const events: EventInput[] = gauges.map((g) => ({ id: `PSMSL-${g.id}`, source: "PSMSL", time: Date.UTC(g.firstYear, 0, 1), endTime: Date.UTC(g.lastYear, 11, 31), lng: g.lng, lat: g.lat, magnitude: g.trendMmYr, name: g.name }));
  const p = PARAMS.sea_level_rise;
  const meta: SnapshotMeta = {
    riskType: "sea_level_rise",
    format: FEED_SNAPSHOT_FORMAT,
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(Date.UTC(firstYear, 0, 1)).toISOString(),
    recordYears: lastYear - firstYear + 1,
    coverage: {
      bbox: WORLD,
      surface: "coast",
      description: `land and coastal waters within ${p.radiusKm} km of one of ${gauges.length} PSMSL tide gauges with ≥ ${p.minYears} years of annual data (${firstYear}–${lastYear}); land beyond ${p.inlandKm} km from the coast scores 0`,
    },
    dataSources: ["PSMSL annual RLR tide-gauge data (Holgate et al. 2013)", `${sharedGeography().source.replace("admin-0 countries", "coastline")} (distance to the coast)`],
    params: { ...p },
    unit: "mm/yr",
  };
  return finish(meta, events, { gauges }, inp, { filelist: list }, {
    gauges: { listed: list.records.length, filesPresent: list.records.length - missingFiles.length, withTrend: gauges.length, shorterThan20Years: shortRecords, rejectedFiles: Object.keys(rejectedFiles).length },
    missingFiles,
    rejectedFiles,
  });
}
