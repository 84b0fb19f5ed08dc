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
import { assess } from "../../lib/feed-risk/assess.ts";
import { NotCoveredError, type Place } from "../../lib/feed-risk/answer.ts";
import { lazyPlaceLocator, placeLocator } from "../../lib/feed-risk/place.ts";
import type { Geography } from "../../lib/geo/geography.ts";
import type { ScoreData, ScoreQuery } from "./types.ts";
import type { EventsCollection, EventsQuery } from "../schemas-events.ts";
import { inLngLatBox } from "../../lib/geo/bounds.ts";
import { cutAtAntimeridian } from "../../lib/geo/antimeridian.ts";
import { pageOf } from "./paging.ts";
import { clockNow, currencyOf } from "../../lib/currency.ts";
import { isoDay as day } from "../../lib/days.ts";

export class FeedRiskService {
  constructor(
    private readonly stores: Partial<Record<FeedRiskType, ArtifactStore<FeedSnapshot>>>,
    private readonly locate: (lat: number, lng: number) => Place = lazyPlaceLocator(),
    /** Today for an answer from this snapshot: the service clock; the validation scores as of each snapshot's end. */
    private readonly now: (snap: FeedSnapshot) => number = clockNow,
  ) {}

  /** The same snapshots answered with another clock (validation/: as of each snapshot's data end). */
  withClock(now: (snap: FeedSnapshot) => number): FeedRiskService {
    return new FeedRiskService(this.stores, this.locate, now);
  }

  snapshotVersion(type: FeedRiskType): string | undefined {
    return this.stores[type]?.current()?.version;
  }

  /** The current snapshot of a risk type (map layers built from it); 503 before it is loaded. */
  snapshot(type: FeedRiskType): FeedSnapshot {
    const store = this.stores[type];
    if (!store) throw new ApiError("SERVICE_UNAVAILABLE", `${type} data are not loaded yet`);
    return store.require().data;
  }

  /** GET /api/risk-map/events; 503 before the snapshot is loaded. */
  events(q: EventsQuery): EventsPage {
    return eventsInBox(this.snapshot(q.riskType), q);
  }

  score(q: ScoreQuery): ScoreData {
    const type = q.riskType as FeedRiskType;
    const store = this.stores[type];
    if (!store) throw new ApiError("SERVICE_UNAVAILABLE", `${q.riskType} data are not loaded yet`);
    const snap = store.require().data;
    let a;
    const now = this.now(snap);
    try {
      a = assess(snap, { ...q, now }, this.locate(q.lat, q.lng));
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
      details: {
        period: a.time.period,
        asOf: a.time.asOf,
        currency: currencyOf(a.time.asOf, a.time.cadence, now),
        snapshotVersion: snap.version,
        coverage: a.coverage,
        ...(a.confidence === undefined ? {} : { confidence: a.confidence, confidenceLabel: a.confidenceLabel, confidenceBasis: a.confidenceBasis }),
        [type]: a.details,
      } as ScoreData["details"],
      dataSources: a.dataSources,
      timestamp: new Date().toISOString(),
    };
  }
}

/** Day of an epoch-ms time. */
const finite = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);

type EventFeature = EventsCollection["features"][number];
type PointFeature = Extract<EventsCollection, { riskType: "flood" | "wildfire" }>["features"][number];
type TrackFeature = Extract<EventsCollection, { riskType: "storm" }>["features"][number];

/** A page of the events in a box: the collection but for its links, and the cursor of the next page. */
export type EventsPage = Omit<EventsCollection, "next" | "links" | "truncated"> & { nextCursor: string | null };

/**
 * The events of a snapshot inside a box (GET /api/risk-map/events), newest first (ties by id, then the snapshot's
 * order), one page of q.limit from q.cursor: flood and wildfire events as points, storms as the line of their fixes
 * in the box cut at the antimeridian (a MultiLineString; a storm with a single fix there is the degenerate line of
 * that fix twice).
 */
export function eventsInBox(snap: FeedSnapshot, q: EventsQuery): EventsPage {
  const ev = snap.events;
  const since = q.since ? Date.parse(`${q.since}T00:00:00Z`) : -Infinity;
  const unit = q.riskType === "flood" ? "DFO magnitude | GDACS alert score" : q.riskType === "wildfire" ? "FRP MW" : "kt";
  const hits: number[] = [];
  if (ev) for (let i = 0; i < ev.n; i++) if (inLngLatBox(q.bbox, ev.lng[i], ev.lat[i]) && ev.time[i] >= since) hits.push(i);
  type Item = { newest: number; feature: EventFeature };
  const items: Item[] = [];
  if (q.riskType !== "storm") {
    for (const i of hits) {
      const feature: PointFeature = {
        type: "Feature", id: ev!.ids.get(i), geometry: { type: "Point", coordinates: [ev!.lng[i], ev!.lat[i]] },
        properties: { id: ev!.ids.get(i), name: ev!.names.get(i), source: ev!.sources[ev!.sourceNo[i]], start: day(ev!.time[i]), end: day(ev!.endTime[i]), magnitude: finite(ev!.magnitude[i]), unit },
      };
      items.push({ newest: ev!.time[i], feature });
    }
  } else {
    const byStorm = new Map<number, number[]>();
    for (const i of hits) {
      const g = ev!.group[i];
      let list = byStorm.get(g);
      if (!list) byStorm.set(g, (list = []));
      list.push(i);
    }
    for (const [g, list] of byStorm) {
      list.sort((a, b) => ev!.time[a] - ev!.time[b]);
      const first = list[0];
      const last = list[list.length - 1];
      let max = NaN;
      for (const i of list) if (!(ev!.magnitude[i] <= max)) max = Number.isNaN(ev!.magnitude[i]) ? max : ev!.magnitude[i];
      const coords = list.map((i) => [ev!.lng[i], ev!.lat[i]] as [number, number]);
      const id = ev!.groups.get(g);
      const feature: TrackFeature = {
        type: "Feature", id,
        geometry: { type: "MultiLineString", coordinates: cutAtAntimeridian(coords) },
        properties: { id, name: ev!.names.get(first), source: ev!.sources[ev!.sourceNo[first]], start: day(ev!.time[first]), end: day(ev!.time[last]), magnitude: finite(max), unit, fixes: coords.length },
      };
      items.push({ newest: ev!.time[last], feature });
    }
  }
  // Array#sort is stable: equal ids keep the snapshot's order, so the order is the same on every request.
  items.sort((a, b) => b.newest - a.newest || (a.feature.id < b.feature.id ? -1 : a.feature.id > b.feature.id ? 1 : 0));
  const page = pageOf(items, q.limit, q.cursor, snap.version);
  const base = { asOf: snap.meta.asOf, snapshotVersion: snap.version, numberMatched: page.numberMatched, nextCursor: page.nextCursor };
  const features = page.items.map((x) => x.feature);
  return q.riskType === "storm"
    ? { type: "FeatureCollection", riskType: "storm", ...base, features: features as TrackFeature[] }
    : { type: "FeatureCollection", riskType: q.riskType, ...base, features: features as PointFeature[] };
}

/**
 * Opens and follows every feed snapshot under artifactsDir; missing ones answer 503 until published. `geography`
 * defaults to the process's shared one (lib/feed-risk/place.ts).
 */
export async function openFeedRiskService(artifactsDir: string, logger: Logger, opts: { watch?: boolean; geography?: Geography; now?: (snap: FeedSnapshot) => number } = {}) {
  const stores: Partial<Record<FeedRiskType, ArtifactStore<FeedSnapshot>>> = {};
  for (const type of FEED_RISK_TYPES) {
    const store = new ArtifactStore<FeedSnapshot>({
      root: snapshotRoot(artifactsDir, type),
      open: (dir, manifest) => openFeedSnapshot(dir, manifest.version),
      logger,
      kind: type,
      label: `${type} snapshot`,
    });
    await store.reload();
    if (opts.watch !== false) store.start();
    stores[type] = store;
  }
  const service = new FeedRiskService(stores, opts.geography ? placeLocator(opts.geography) : lazyPlaceLocator(), opts.now);
  return { service, stores, stop: () => Object.values(stores).forEach((s) => s.stop()) };
}
