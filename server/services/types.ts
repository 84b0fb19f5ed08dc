// The interface between the HTTP layer and the drought data. Routes call only this; the implementation is
// server/services/drought-service.ts. Result types are inferred from the response schemas in server/schemas.ts,
// so the OpenAPI document, the validation and these types cannot drift apart.
import type { GridSourceName } from "../../lib/drought/grid-sources.ts";
import type { z } from "zod";
import type {
  batchItem,
  droughtHistoryData,
  provinceHistoryData,
  provinceChoropleth,
  droughtGridData,
  provinceDroughtData,
  RISK_TYPES,
  scoreData,
  TIMEFRAMES,
} from "../schemas.ts";
import type { timeDetails } from "../schemas-time.ts";
import type { RowTails } from "./row-texts.ts";
import type { FreshnessFlag } from "./source-status-service.ts";

export type RiskType = (typeof RISK_TYPES)[number];
export type Timeframe = (typeof TIMEFRAMES)[number];

export interface DroughtIndices { spei1: number|null; spei3: number|null; spei6: number|null; spei12: number|null; spi1: number|null; mcdi: number|null }
export interface ScoreQuery { lat: number; lng: number; riskType: "drought"|"flood"|"wildfire"|"heatwave"|"storm"|"sea_level_rise"; includeHistorical: boolean; timeframe: "7d"|"30d"|"90d"|"1y" }

/** `data` of POST /api/risk-map/score (spec 2, "Risk score result"). */
export type ScoreData = z.infer<typeof scoreData>;
/** `data` of GET /api/risk-map/drought (spec 2, "Drought grid result"). */
export type DroughtGridData = z.infer<typeof droughtGridData>;
/** `data` of GET /api/risk-map/drought/province (spec 2, "Province drought result"). */
export type ProvinceDroughtData = z.infer<typeof provinceDroughtData>;
/**
 * One element of batch `results`. With data: `found: true` and numbers. Without data (outside the grid, no
 * value for the month): `found: false`, riskScore/riskLevel/severity/spei1 null and a `reason`; the batch
 * still succeeds.
 */
export type BatchItem = z.infer<typeof batchItem>;

/** The time fields of an answer (server/schemas-time.ts). */
export type BatchTime = z.infer<typeof timeDetails>;

export type DroughtHistoryData = z.infer<typeof droughtHistoryData>;
export type ProvinceHistoryData = z.infer<typeof provinceHistoryData>;
export type ProvinceChoropleth = z.infer<typeof provinceChoropleth>;

/** The monthly record at a point or of a province (the history routes). */
export interface DroughtHistory {
  history(q: { lat: number; lng: number; from?: string; to?: string; indices?: readonly string[] }): DroughtHistoryData;
  provinceHistory(q: { name: string; country: string; from?: string; to?: string }): ProvinceHistoryData;
  /** Every province's summary of a month with its simplified outline (the choropleth route). */
  choropleth(month?: string, country?: string): ProvinceChoropleth;
}

/** Batch items of one data version (the bulk route's rows): a hot swap mid-stream does not mix versions. */
export interface BatchScorer {
  dataVersion: string;
  item(id: string | undefined, lat: number, lng: number): BatchItem;
  /**
   * The grid cell that answers a point (≥ 0), or the negative code of why none does: points of one key get the same
   * item but for id, lat and lng (server/services/row-texts.ts makes their row text once). Absent until the
   * version's lookup raster is made.
   */
  cellKey?(lat: number, lng: number): number;
  /** The version's cached row texts by cell (row-texts.ts), shared by the requests on it. */
  tails?: RowTails;
  /** The time details of rows answered for months from..to (YYYY-MM), of the scorer's own version. */
  time(from: string, to: string): BatchTime | null;
}

export interface DroughtService {
  dataVersion(): string;                       // for the X-Data-Version header
  score(q: ScoreQuery): ScoreData;             // `data` of the score endpoint (spec 2 "Risk score result"), throws NotFoundError
  drought(lat: number, lng: number, month?: string): DroughtGridData;              // spec "Drought grid result"
  /** The route's JSON answer, {"success":true,"data":{...drought(), ...flag}}, as text (optional: else stringified). */
  droughtJson?(lat: number, lng: number, month: string | undefined, flag: FreshnessFlag): string;
  province(name: string, country: string, month?: string): ProvinceDroughtData;    // spec "Province drought result"
  batchItem(id: string|undefined, lat: number, lng: number): BatchItem;            // one result; {found:false,...} when no data (document)
  /** The time of a batch's answer: the months its found items were answered for, as days (null: none found). */
  batchTime(results: readonly Pick<BatchItem, "month">[]): BatchTime | null;
  /** batchItem pinned to the version served now (optional: without it the bulk route calls batchItem). */
  batchScorer?(): BatchScorer;
  /** What the served grid was built from (lib/drought/grid-sources.ts); undefined before a version is loaded. */
  gridSource(): GridSourceName | undefined;
}
