// Where a point is, for the feed-risk answers: the shared geography (lib/geo, Natural Earth 1:10m) reduced to
// what their coverage checks need. The geography is built once per process (≈ 1 s, ≈ 20 MiB) and shared by the
// snapshot builder's score distribution and the server's feed-risk service.
import { buildGeography, type Geography } from "../geo/geography.ts";
import type { Place } from "./answer.ts";

let shared: Geography | undefined;

/** The process's geography at the default scale, built on first use. */
export function sharedGeography(): Geography {
  return (shared ??= buildGeography());
}

const KM_PER_DEG = 111.195;
/** Compass directions probed around a near-coast sea point: N, NE, E, SE, S, SW, W, NW. */
const PROBES: [number, number][] = [[1, 0], [Math.SQRT1_2, Math.SQRT1_2], [0, 1], [-Math.SQRT1_2, Math.SQRT1_2], [-1, 0], [-Math.SQRT1_2, -Math.SQRT1_2], [0, -1], [Math.SQRT1_2, -Math.SQRT1_2]];

/**
 * The country of the shore next to a sea point within the coastal tolerance (a harbour, a lagoon, a point the
 * outline leaves just offshore): the country most of eight points at the tolerance distance around it fall in
 * (first in compass order on a tie), or null when none does.
 */
export function shoreCountry(geo: Geography, lat: number, lng: number, km: number): string | null {
  const votes = new Map<string, number>();
  let best: string | null = null;
  const dLng = km / (KM_PER_DEG * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  for (const [n, e] of PROBES) {
    const c = geo.countryAt(Math.max(-90, Math.min(90, lat + (n * km) / KM_PER_DEG)), lng + e * dLng);
    if (c === null) continue;
    const v = (votes.get(c) ?? 0) + 1;
    votes.set(c, v);
    if (best === null || v > votes.get(best)!) best = c;
  }
  return best;
}

/** placeLocator over the shared geography, built on the first call: a process that never locates never builds it. */
export function lazyPlaceLocator(): (lat: number, lng: number) => Place {
  let locate: ((lat: number, lng: number) => Place) | undefined;
  return (lat, lng) => (locate ??= placeLocator())(lat, lng);
}

/** lat/lng → Place over a geography (default: the shared one). */
export function placeLocator(geo: Geography = sharedGeography()): (lat: number, lng: number) => Place {
  const tolerance = geo.coastalToleranceKm;
  const coastSource = geo.source.replace(/admin-0 countries/, "coastline");
  return (lat, lng) => {
    const at = geo.locate(lat, lng);
    const country = at.land || at.coastDistanceKm > tolerance ? at.country : shoreCountry(geo, lat, lng, tolerance);
    return { country, land: at.land, coastDistanceKm: at.coastDistanceKm, coastalToleranceKm: tolerance, coastSource };
  };
}
