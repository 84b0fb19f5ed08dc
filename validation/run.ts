// npm run validate: scores the landmark-event catalogues (validation/catalogue/*.csv) through the feed-risk service
// on the published snapshots (ARTIFACTS_DIR/snapshots; make snapshots first), prints per hazard the AUC, the share of
// event places at "medium" or above and the controls' levels, and writes docs/validation.md.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { artifactsDir } from "../lib/config.ts";
import { log } from "../lib/log.ts";
import { openFeedRiskService } from "../server/services/feed-risk-service.ts";
import type { FeedRiskType } from "../formats/feed-snapshot.ts";
import { readCatalogue, validateHazard, type HazardValidation } from "./score-catalogue.ts";
import { openOutbreakService } from "../server/services/outbreak-service.ts";
import { dataDir } from "../lib/config.ts";
import { outbreakMarkdown, validateOutbreaks, type OutbreakValidation } from "./outbreaks.ts";
import { currencyMarkdown, currencyTable, openCurrencyServices, type CurrencyRow } from "./currency.ts";
import { tradeRiskMarkdown, validateTradeRisk, type TradeRiskRow } from "./supply-chain.ts";
import { clockNow } from "../lib/currency.ts";
import { formatMonth, monthIndex, parseMonth } from "../lib/months.ts";
import { buildSettingsFromEnv } from "../pipeline/build-settings.ts";
import { gridFromCpc } from "../pipeline/grid/from-cpc.ts";
import { gridFromStations } from "../pipeline/grid/from-stations.ts";
import { CPC_DATA_DIR_FILE, GHCNM_DATA_DIR_FILES, REANALYSIS_BASELINE } from "../pipeline/grid/grid-source.ts";
import { GHCND_SUBDIR, readGhcndStations } from "../pipeline/inputs/ghcnd/stations.ts";
import { readGhcnmStations } from "../pipeline/inputs/ghcnm/stations.ts";
import { readMonthlyClimateGrid } from "../pipeline/inputs/netcdf/index.ts";
import { loadProvinces, provincesPath } from "../pipeline/provinces/boundaries.ts";
import { byCountry, compareGrids, droughtSkillMarkdown, heldOutTemperature, replaceDroughtSection, stationsAgainstGrid, type DroughtSkill } from "./drought-skill.ts";

/** Hazards whose score can be compared with past events. Heatwave scores the latest months only (no as-of query). */
export const VALIDATED: FeedRiskType[] = ["flood", "storm", "sea_level_rise", "wildfire"];
const CATALOGUE_DIR = join(import.meta.dirname, "catalogue");

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)} %`);
const f2 = (x: number | null) => (x === null ? "–" : x.toFixed(2));

export function markdown(results: HazardValidation[], snapshotVersions: Record<string, string | undefined>, day: string, outbreaks?: { v: OutbreakValidation; snapshot: string }, currency?: CurrencyRow[], drought?: DroughtSkill, tradeRisk?: { rows: TradeRiskRow[]; snapshot: string }): string {
  const out: string[] = [
    "# Validation: scores against landmark events and controls",
    "",
    `Measured ${day} by \`npm run validate\` (validation/run.ts) on the published snapshots; catalogues and how they were`,
    "compiled: [validation/catalogue/](../validation/catalogue/README.md). AUC: the chance that an event place scores above",
    "a control place (ties half). Places are scored as on the day each snapshot's data end (timeframe 1y): the skill of",
    "the scoring, not the age of the mirror's copy, which the currency table at the end states. Floors in the test",
    'suite: `test/feeds/world.test.ts` ("validation floors").',
    "",
    "| hazard | snapshot | events scored | controls scored | not covered (404) | AUC | events ≥ medium | controls low/medium/high/critical |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    const c = r.controlLevels;
    out.push(`| ${r.hazard} | ${snapshotVersions[r.hazard] ?? "–"} | ${r.events} | ${r.controls} | ${r.notCovered} | ${f2(r.auc)} | ${pct(r.eventsMediumOrAbove)} | ${c.low}/${c.medium}/${c.high}/${c.critical} |`);
  }
  out.push(
    "",
    "Heatwave is not in the table: its score answers for the latest full year of a station within 100 km (2017 at most",
    "Thai stations, the only ones offline), so a past heatwave elsewhere cannot be scored at its date; its catalogue",
    "waits for daily station data worldwide (a refresh brings them).",
    "",
    "Wildfire from multi-year records (issue 37): a place answers from the longest fire record of a year or more that",
    "holds it (the 22-year MODIS C6.1 archive for Greece, 2000-11..2021-08, vegetation fires only; λref 42 weighted MODIS",
    "detections a year, the median land cell of the multi-year records scoring 30). Before (2026-11-28, every fire record",
    "under a year): 0 events and 0 controls scored, all 65 rows 404. After: 10 events (Mati, northern Evia, Ilia, and",
    "the four Rhodes villages of 2023, now from the Greek record) and 6 controls (small Aegean islands) scored, AUC 1.00,",
    "100 % of events medium or above, every control low; the Australian rows stay 404 (two months of 2019). Flood, storm",
    "and sea level: the same figures as before (scored as of their",
    "data's end, the window the scores were calibrated on).",
    "",
    "Read with care: the wildfire catalogue's places were chosen by the same FIRMS detections the score counts (events:",
    "detections within 20 km; controls: none within 50 km), and the flood catalogue's events were checked against the",
    "DFO and GDACS records the footprints come from; those AUCs say the service finds what its records hold, not that",
    "it predicts. The storm and sea-level catalogues cite agency reports and gauge trends. Figures before and after",
    "each scoring change: docs/methods/feed-risks.md, Validation.",
  );
  for (const r of results) {
    const misses = r.rows.filter((x) => (x.kind === "event" && x.score !== null && x.score < 30) || (x.kind === "control" && x.score !== null && x.score >= 30));
    out.push("", `## ${r.hazard}: event places below medium and controls above low`, "");
    if (misses.length === 0) out.push("None.");
    else {
      out.push("| kind | place | country | score | level | event / reason |", "|---|---|---|---|---|---|");
      for (const m of misses) out.push(`| ${m.kind} | ${m.place} | ${m.country} | ${m.score} | ${m.level} | ${m.event.replace(/\|/g, "/")} |`);
    }
  }
  if (outbreaks) out.push(...outbreakMarkdown(outbreaks.v, outbreaks.snapshot));
  if (tradeRisk) out.push(...tradeRiskMarkdown(tradeRisk));
  if (currency) out.push(...currencyMarkdown(currency, day));
  if (drought) out.push("", ...droughtSkillMarkdown(drought));
  return out.join("\n") + "\n";
}

/** The drought section's measurements, from the data mirror alone: both Thai grids are built here (~40 s). */
export async function measureDroughtSkill(dir: string, day: string): Promise<DroughtSkill> {
  const t0 = Date.now();
  const settings = buildSettingsFromEnv(process.env);
  const provinces = loadProvinces(provincesPath(dir));
  const cpcBaseline = { start: parseMonth(REANALYSIS_BASELINE.start)!, end: parseMonth(REANALYSIS_BASELINE.end)! };

  // (1) The stations the station grid reads, under its own completeness rule and dry-day policy; Thai ones only.
  const cpc = await readMonthlyClimateGrid(resolve(dir, CPC_DATA_DIR_FILE), { kind: "precipitation" });
  const ghcnd = await readGhcndStations({ dir: join(dir, GHCND_SUBDIR), policy: settings.dryDayPolicy, concurrency: settings.concurrency });
  const precipitation = stationsAgainstGrid(ghcnd.filter((s) => s.id.startsWith("TH")), cpc);

  // (2) Every station of the extract carries weight; the targets are those of Thailand, Vietnam and Malaysia.
  const world = { west: -180, east: 180, south: -90, north: 90 };
  const ghcnm = readGhcnmStations(resolve(dir, GHCNM_DATA_DIR_FILES.dat), resolve(dir, GHCNM_DATA_DIR_FILES.inv), world).stations;
  const heldOut = (withinKm: number) => byCountry(heldOutTemperature(ghcnm, (s) => /^(TH|VM|MY)/.test(s.id), monthIndex(1979, 1), 45 * 12, cpcBaseline, withinKm));
  // 10 km: the station grid's cross-validation rule for co-located duplicates (pipeline/grid/from-stations.ts).
  const temperature = { withinKm: 10, alone: heldOut(0), near: heldOut(10) };

  // (3) SPEI-3 of both grids, built as the pipeline builds them (spei1 too: the station grid's confidence needs it).
  const stationGrid = await gridFromStations({ dataDir: dir, provinces, settings, indexNames: ["spei1", "spei3"] });
  const cpcGrid = await gridFromCpc({
    provinces,
    precipitation: resolve(dir, CPC_DATA_DIR_FILE),
    ghcnmDat: resolve(dir, GHCNM_DATA_DIR_FILES.dat),
    ghcnmInv: resolve(dir, GHCNM_DATA_DIR_FILES.inv),
    refStart: cpcBaseline.start,
    refEnd: cpcBaseline.end,
    indexNames: ["spei3"],
  });
  const layer = (g: typeof stationGrid | typeof cpcGrid, values: Float32Array) => ({ lat: g.cells.lat, lng: g.cells.lng, firstMonth: g.firstMonth, nMonths: g.nMonths, values });
  const compare = (within?: { first: number; last: number }) => compareGrids(layer(stationGrid, stationGrid.layers[1]), layer(cpcGrid, cpcGrid.layers[0]), cpcGrid.cells.resolutionDeg, within);
  const whole = compare();
  // The station records are complete to 1998 and sparse after (docs/methods/station-data.md): each part apart.
  const grids = [
    { label: `${whole.firstMonth}..${whole.lastMonth}`, comparison: whole },
    { label: "1979-01..1998-12", comparison: compare({ first: monthIndex(1979, 1), last: monthIndex(1998, 12) }) },
    { label: `1999-01..${whole.lastMonth}`, comparison: compare({ first: monthIndex(1999, 1), last: Infinity }) },
  ];
  return {
    day,
    setup: {
      dryDayPolicy: settings.dryDayPolicy,
      stationBaseline: `${formatMonth(settings.baselineStart)}..${formatMonth(settings.baselineEnd)}`,
      cpcBaseline: `${REANALYSIS_BASELINE.start}..${REANALYSIS_BASELINE.end}`,
      seconds: Math.round((Date.now() - t0) / 1000),
    },
    precipitation,
    temperature,
    grids,
  };
}

const VALIDATION_MD = join(import.meta.dirname, "..", "docs", "validation.md");

/** `--only drought`: the drought section alone, written over its place in docs/validation.md (no snapshots needed). */
async function droughtOnly(): Promise<void> {
  const d = await measureDroughtSkill(dataDir(), new Date(clockNow()).toISOString().slice(0, 10));
  process.stdout.write(droughtSkillMarkdown(d).join("\n") + "\n");
  writeFileSync(VALIDATION_MD, replaceDroughtSection(readFileSync(VALIDATION_MD, "utf8"), droughtSkillMarkdown(d)));
  process.stdout.write(`wrote ${VALIDATION_MD}\n`);
}

async function main(): Promise<void> {
  const only = process.argv.indexOf("--only");
  if (only >= 0) {
    if (process.argv[only + 1] !== "drought") throw new Error(`--only takes "drought", got "${process.argv[only + 1] ?? ""}"`);
    await droughtOnly();
    process.exit(0);
  }
  const { service } = await openFeedRiskService(artifactsDir(), log, { watch: false });
  const results = VALIDATED.map((h) => validateHazard(service, h, readCatalogue(join(CATALOGUE_DIR, `${h}.csv`))));
  for (const r of results) {
    const c = r.controlLevels;
    process.stdout.write(`${r.hazard.padEnd(15)} events ${String(r.events).padStart(3)}  controls ${String(r.controls).padStart(3)}  404 ${String(r.notCovered).padStart(3)}  AUC ${f2(r.auc)}  events ≥ medium ${pct(r.eventsMediumOrAbove)}  controls ${c.low}/${c.medium}/${c.high}/${c.critical}\n`);
  }
  const versions = Object.fromEntries(VALIDATED.map((h) => [h, service.snapshotVersion(h)]));
  const outbreak = await openOutbreakService(artifactsDir(), log);
  const ov = validateOutbreaks(outbreak.service, dataDir());
  outbreak.store.stop();
  const now = clockNow();
  const opened = await openCurrencyServices(artifactsDir(), log, now);
  const currency = currencyTable(opened.services, now);
  opened.close();
  const violations = currency.filter((r) => r.violation);
  process.stdout.write(`currency        answers ${currency.length}  answered ${currency.filter((r) => r.status === 200).length}  not current ${currency.filter((r) => r.current === false).length}  violations ${violations.length}\n`);
  for (const v of violations) process.stdout.write(`  VIOLATION ${v.route} ${v.kind} ${v.place}: ${v.violation}\n`);
  process.stdout.write(`dengue          countries ${ov.dengue.countries}  Spearman ${ov.dengue.spearman?.toFixed(2)}  under 1/100k not low ${ov.dengue.underOneNotLow.length}  over 1000/100k below high ${ov.dengue.overThousandBelowHigh.length}\n`);
  for (const l of ov.landmarks) process.stdout.write(`  ${l.ok === null ? "n/a   " : l.ok ? "ok    " : "MISSED"} ${l.disease} ${l.place}: ${l.score} ${l.level} (expected ${l.expect})\n`);
  const trade = await validateTradeRisk(artifactsDir(), log, now);
  for (const r of trade.rows) process.stdout.write(`trade risk      ${r.code} ${r.group.padEnd(21)} ${r.asOf.map((a) => `${a.day} ${a.risk}`).join("  ")}  today ${r.latest.disruptionRisk}\n`);
  const day = new Date(now).toISOString().slice(0, 10);
  const drought = await measureDroughtSkill(dataDir(), day);
  writeFileSync(VALIDATION_MD, markdown(results, versions, day, { v: ov, snapshot: outbreak.service.dataVersion() }, currency, drought, trade));
  process.stdout.write(`wrote ${VALIDATION_MD}\n`);
  process.exit(0);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) await main();
