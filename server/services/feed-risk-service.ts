// Feed-risk scores (flood, wildfire, heatwave, storm, sea_level_rise) from the published snapshots, one
// ArtifactStore per risk type (ARTIFACTS_DIR/snapshots/<type>/current). Each call takes the snapshot once.
// Where a point is (country, land or sea, distance to the coast) comes from the shared geography (lib/geo), built
// once when the service opens; the scoring itself is pure (lib/feed-risk/assess.ts).
// No snapshot loaded → 503; outside a feed's coverage → 404 NOT_FOUND naming the coverage.
import { ApiError, NotFoundError } from "../errors.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import type { Logger } from "../../lib/log.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { FEED_RISK_TYPES, openFeedSnapshot, type FeedRiskType, type FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { assess, NotCoveredError, type Place } from "../../lib/feed-risk/assess.ts";
import { lazyPlaceLocator, placeLocator } from "../../lib/feed-risk/place.ts";
import type { Geography } from "../../lib/geo/geography.ts";
import type { ScoreData, ScoreQuery } from "./types.ts";

export class FeedRiskService {
  constructor(
    private readonly stores: Partial<Record<FeedRiskType, ArtifactStore<FeedSnapshot>>>,
    private readonly locate: (lat: number, lng: number) => Place = lazyPlaceLocator(),
  ) {}

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
      a = assess(snap, q, this.locate(q.lat, q.lng));
    } catch (err) {
      if (err instanceof NotCoveredError) {
        throw new NotFoundError(`no ${q.riskType} data for this location: ${err.message}`, { lat: q.lat, lng: q.lng, riskType: q.riskType, coverage: err.coverage });
      }
      throw err;
    }
    return {
      location: { lat: q.lat, lng: q.lng },
      riskType: q.riskType,
      riskScore: a.riskScore,
      riskLevel: a.riskLevel,
      summary: a.summary,
      details: { asOf: snap.meta.asOf, snapshotVersion: snap.version, coverage: a.coverage, [type]: a.details } as ScoreData["details"],
      dataSources: a.dataSources,
      timestamp: new Date().toISOString(),
    };
  }
}

/**
 * Opens and follows every feed snapshot under artifactsDir; missing ones answer 503 until published. `geography`
 * defaults to the process's shared one (lib/feed-risk/place.ts).
 */
export async function openFeedRiskService(artifactsDir: string, logger: Logger, opts: { watch?: boolean; geography?: Geography } = {}) {
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
  return { service: new FeedRiskService(stores, opts.geography ? placeLocator(opts.geography) : lazyPlaceLocator()), stores, stop: () => Object.values(stores).forEach((s) => s.stop()) };
}
