// One feed-risk answer from an opened snapshot and the place of the point (country, land or sea, distance to the
// coast: lib/geo): the guards every type shares (the data's area; land or coast for the types that need it), then the
// type's own assessor. Pure (no I/O); the server wraps it (server/services/feed-risk-service.ts). Outside coverage →
// NotCoveredError naming the coverage. The answer's shape and the shared rules: answer.ts.
import type { FeedRiskType, FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { inBbox, notCovered, onLandOrCoast, type AssessQuery, type Assessment, type Place } from "./answer.ts";
import { eventAssessor } from "./events.ts";
import { assessFlood } from "./flood.ts";
import { assessHeat } from "./heatwave.ts";
import { assessSeaLevel } from "./sea-level.ts";
import { r1 } from "../round.ts";
import { STORM } from "./storm.ts";
import { WILDFIRE } from "./wildfire.ts";

type Assessor = (s: FeedSnapshot, q: AssessQuery, place: Place) => Assessment;

/** Each risk type's assessor, and whether it answers only on land or at the coast (open sea is a 404). */
const ASSESSORS: Record<FeedRiskType, { assess: Assessor; landOrCoast: boolean }> = {
  flood: { assess: assessFlood, landOrCoast: true },
  heatwave: { assess: assessHeat, landOrCoast: true },
  sea_level_rise: { assess: assessSeaLevel, landOrCoast: false },
  wildfire: { assess: eventAssessor(WILDFIRE), landOrCoast: false },
  storm: { assess: eventAssessor(STORM), landOrCoast: false },
};

export function assess(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  if (!inBbox(s.meta.coverage.bbox, q.lat, q.lng)) throw notCovered(s, "outside the area of the data");
  const a = ASSESSORS[s.meta.riskType];
  if (a.landOrCoast && !onLandOrCoast(place)) throw notCovered(s, `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
  return a.assess(s, q, place);
}
