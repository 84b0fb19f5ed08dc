// Drought answers from the published artifacts: nearest grid cell, province summaries, score and batch items.
// Every call takes the artifact version once (store.current()) and uses only it, so a hot swap never mixes
// versions inside one response. Numbers come from lib/drought-scale.ts; nothing here invents a value: no data
// means NotFoundError (or found:false in a batch). The answers are built by drought-point.ts, drought-province.ts
// and drought-score.ts; this class holds the store and the answers' time.
import type { GridSourceName } from "../../lib/drought/grid-sources.ts";
import { CellRaster } from "../../lib/drought/cell-raster.ts";
import { RowTails } from "./row-texts.ts";
import { NotFoundError } from "../errors.ts";
import { MonthSpan, parseMonth, type MonthIndex } from "../../lib/months.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import { DROUGHT_KIND } from "../../formats/version-files.ts";
import { DROUGHT_OPENED_FILES, openDroughtArtifacts, type DroughtArtifacts } from "../../formats/drought-version.ts";
import { log } from "../../lib/log.ts";
import { clockNow } from "../../lib/currency.ts";
import { batchItemOf, locateOrThrow, pointAnswer, pointHistory } from "./drought-point.ts";
import { choroplethAnswer, provinceAnswer, provinceHistoryAnswer } from "./drought-province.ts";
import { droughtScoreAnswer } from "./drought-score.ts";
import { DroughtTimes, type DroughtTime } from "./drought-time.ts";
import { PointTexts } from "./point-texts.ts";
import type { FreshnessFlag } from "./source-status-service.ts";
import type {
  BatchItem,
  BatchScorer,
  DroughtHistory,
  DroughtHistoryData,
  ProvinceChoropleth,
  ProvinceHistoryData,
  DroughtGridData,
  DroughtService,
  ProvinceDroughtData,
  ScoreData,
  ScoreQuery,
} from "./types.ts";

export class ArtifactDroughtService implements DroughtService, DroughtHistory {
  private readonly times: DroughtTimes;
  private readonly pointTexts: PointTexts;

  constructor(
    private readonly store: ArtifactStore<DroughtArtifacts>,
    now: () => number = clockNow,
  ) {
    this.times = new DroughtTimes(now);
    this.pointTexts = new PointTexts(now);
  }

  private artifacts(): DroughtArtifacts {
    return this.store.require().data;
  }

  dataVersion(): string {
    return this.store.versionOrNone();
  }

  gridSource(): GridSourceName | undefined {
    return this.store.current()?.data.gridSource;
  }

  history(q: { lat: number; lng: number; from?: string; to?: string; indices?: readonly string[] }): DroughtHistoryData {
    return pointHistory(this.artifacts(), q, this.times);
  }

  provinceHistory(q: { name: string; country: string; from?: string; to?: string }): ProvinceHistoryData {
    return provinceHistoryAnswer(this.artifacts(), q, this.times);
  }

  choropleth(month?: string, country?: string): ProvinceChoropleth {
    return choroplethAnswer(this.artifacts(), month, this.times, country);
  }

  drought(lat: number, lng: number, month?: string): DroughtGridData {
    return pointAnswer(locateOrThrow(this.artifacts(), lat, lng, month), lat, lng, this.times);
  }

  droughtJson(lat: number, lng: number, month: string | undefined, flag: FreshnessFlag): string {
    const hit = locateOrThrow(this.artifacts(), lat, lng, month);
    return this.pointTexts.text(hit, lat, lng, flag, () => pointAnswer(hit, lat, lng, this.times));
  }

  score(q: ScoreQuery): ScoreData {
    if (q.riskType !== "drought") {
      throw new NotFoundError(`no data for risk type ${q.riskType} yet: only drought is served`, { riskType: q.riskType });
    }
    return droughtScoreAnswer(locateOrThrow(this.artifacts(), q.lat, q.lng, undefined), q, this.times);
  }

  province(name: string, country: string, month?: string): ProvinceDroughtData {
    return provinceAnswer(this.artifacts(), name, country, month, this.times);
  }

  batchTime(results: readonly Pick<BatchItem, "month">[]): DroughtTime | null {
    const months = new MonthSpan();
    for (const r of results) if (r.month !== null) months.add(r.month);
    if (months.from === null) return null;
    return this.times.of(this.artifacts(), parseMonth(months.from) as MonthIndex, parseMonth(months.to!) as MonthIndex);
  }

  batchItem(id: string | undefined, lat: number, lng: number): BatchItem {
    return batchItemOf(this.artifacts(), id, lat, lng);
  }

  batchScorer(): BatchScorer {
    const { data, version } = this.store.require();
    const prepared = preparedOf(data, () => this.store.current()?.data === data);
    const raster = prepared.raster;
    return {
      dataVersion: version,
      item: (id, lat, lng) => batchItemOf(data, id, lat, lng),
      ...(raster === undefined ? {} : { cellKey: (lat: number, lng: number) => raster.locate(lat, lng), tails: prepared.tails }),
      time: (from, to) => this.times.of(data, parseMonth(from) as MonthIndex, parseMonth(to) as MonthIndex),
    };
  }

  /** Starts the served version's lookup raster if no batch or bulk request has; resolves once it is made (tests). */
  prepare(): Promise<void> {
    const loaded = this.store.current();
    if (loaded === undefined) return Promise.resolve();
    return preparedOf(loaded.data, () => this.store.current()?.data === loaded.data).making;
  }
}

/** A version's lookup raster (once made) and its row texts. */
interface Prepared {
  raster?: CellRaster;
  making: Promise<void>;
  tails: RowTails;
}
const prepared = new WeakMap<DroughtArtifacts, Prepared>();

/**
 * The lookup raster of a version (lib/drought/cell-raster.ts: exactly locateCell's cell, or why none, for a point)
 * is made beside the requests, a few milliseconds at a time, from the version's first batch or bulk request (a
 * process that never answers one does not spend the CPU); until it is made (0.7–0.9 s of CPU on the regional grid),
 * batch and bulk rows come from their items, the same bytes.
 */
function preparedOf(data: DroughtArtifacts, served: () => boolean): Prepared {
  let p = prepared.get(data);
  if (p === undefined) {
    const started = performance.now();
    const entry: Prepared = { tails: new RowTails(), making: Promise.resolve() };
    entry.making = CellRaster.inSlices(data, 4, served).then(
      (raster) => {
        if (raster === undefined) return;
        entry.raster = raster;
        log.info({ ms: Math.round(performance.now() - started), pixels: raster.stats }, "lookup raster made");
      },
      (err: unknown) => log.error({ err }, "lookup raster failed: batch and bulk rows come from their items"),
    );
    p = entry;
    prepared.set(data, p);
  }
  return p;
}

/** Opens the artifact store at ARTIFACTS_DIR and the service over it; the store follows `current`. */
export async function openDroughtService(artifactsDir: string, opts: { pollMs?: number; now?: () => number } = {}) {
  const store = new ArtifactStore<DroughtArtifacts>({
    root: artifactsDir,
    open: openDroughtArtifacts,
    openedFiles: DROUGHT_OPENED_FILES,
    logger: log,
    kind: DROUGHT_KIND,
    label: "drought artifacts",
    pollMs: opts.pollMs,
  });
  await store.reload();
  store.start();
  return { service: new ArtifactDroughtService(store, opts.now), store };
}
