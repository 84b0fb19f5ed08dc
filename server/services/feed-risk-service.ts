// Feed-risk scores (flood, wildfire, heatwave, storm, sea_level_rise) from the published snapshots, one
// ArtifactStore per risk type (ARTIFACTS_DIR/snapshots/<type>/current). Each call takes the snapshot once.
// No snapshot loaded → 503; outside a feed's coverage → 404 NOT_FOUND.
import { ApiError, NotFoundError } from "../errors.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import type { Logger } from "../../lib/log.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { FEED_RISK_TYPES, openFeedSnapshot, type FeedRiskType, type FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { assess, NotCoveredError } from "../../lib/feed-risk/assess.ts";
import type { ScoreData, ScoreQuery } from "./types.ts";

export class FeedRiskService {
  constructor(private readonly stores: Partial<Record<FeedRiskType, ArtifactStore<FeedSnapshot>>>) {}

  snapshotVersion(type: FeedRiskType): string | undefined {
    return this.stores[type]?.current()?.version;
  }

  score(q: ScoreQuery): ScoreData {
    const type = q.riskType as FeedRiskType;
    const store = this.stores[type];
    if (!store) throw new ApiError("SERVICE_UNAVAILABLE", `${q.riskType} data are not loaded yet`);
    const snap = store.require().data;
    let a;
    try {
      a = assess(snap, q);
    } catch (err) {
      if (err instanceof NotCoveredError) throw new NotFoundError(`no ${q.riskType} data for this location: ${err.message}`, { lat: q.lat, lng: q.lng, riskType: q.riskType });
      throw err;
    }
    return {
      location: { lat: q.lat, lng: q.lng },
      riskType: q.riskType,
      riskScore: a.riskScore,
      riskLevel: a.riskLevel,
      summary: a.summary,
      details: { asOf: snap.meta.asOf, snapshotVersion: snap.version, [type]: a.details } as ScoreData["details"],
      dataSources: a.dataSources,
      timestamp: new Date().toISOString(),
    };
  }
}

/** Opens and follows every feed snapshot under artifactsDir; missing ones answer 503 until published. */
export async function openFeedRiskService(artifactsDir: string, logger: Logger, opts: { watch?: boolean } = {}) {
  const stores: Partial<Record<FeedRiskType, ArtifactStore<FeedSnapshot>>> = {};
  for (const type of FEED_RISK_TYPES) {
    const store = new ArtifactStore<FeedSnapshot>({
      root: snapshotRoot(artifactsDir, type),
      open: (dir, manifest) => openFeedSnapshot(dir, manifest.version),
      logger,
      label: `${type} snapshot`,
    });
    await store.reload();
    if (opts.watch !== false) store.start();
    stores[type] = store;
  }
  return { service: new FeedRiskService(stores), stores, stop: () => Object.values(stores).forEach((s) => s.stop()) };
}
