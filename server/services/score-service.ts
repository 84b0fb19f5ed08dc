// A DroughtService that answers the score endpoint for every risk type: drought from the drought service,
// the other types from the feed snapshots. Everything else (grid, province, batch, dataVersion) is the
// drought service's.
import type { BatchItem, BatchScorer, BatchTime, DroughtGridData, DroughtService, ProvinceDroughtData, ScoreData, ScoreQuery } from "./types.ts";
import { scorerOf } from "./batch-scorer.ts";
import type { FeedRiskService } from "./feed-risk-service.ts";
import type { GridSourceName } from "../../lib/drought/grid-sources.ts";

export class ScoreService implements DroughtService {
  /** The drought service's JSON answer as text, where it writes one (the route stringifies the answer otherwise). */
  readonly droughtJson?: DroughtService["droughtJson"];

  constructor(
    private readonly droughtService: DroughtService,
    private readonly feeds: FeedRiskService,
  ) {
    this.droughtJson = droughtService.droughtJson?.bind(droughtService);
  }

  dataVersion(): string {
    return this.droughtService.dataVersion();
  }

  gridSource(): GridSourceName | undefined {
    return this.droughtService.gridSource();
  }

  score(q: ScoreQuery): ScoreData {
    return q.riskType === "drought" ? this.droughtService.score(q) : this.feeds.score(q);
  }

  drought(lat: number, lng: number, month?: string): DroughtGridData {
    return this.droughtService.drought(lat, lng, month);
  }

  province(name: string, country: string, month?: string): ProvinceDroughtData {
    return this.droughtService.province(name, country, month);
  }

  batchItem(id: string | undefined, lat: number, lng: number): BatchItem {
    return this.droughtService.batchItem(id, lat, lng);
  }

  batchTime(results: readonly Pick<BatchItem, "month">[]): BatchTime | null {
    return this.droughtService.batchTime(results);
  }

  batchScorer(): BatchScorer {
    return scorerOf(this.droughtService);
  }
}
