// Where a point is, for the outbreak radar: its Thai province or its country, or 404 at sea and on contested land.
import { NotFoundError } from "../errors.ts";
import type { Geography } from "../../lib/geo/geography.ts";
import { shoreCountry } from "../../lib/feed-risk/place.ts";
import { overseasArea } from "../../lib/outbreaks/overseas.ts";
import type { OutbreakSnapshot } from "../data/outbreak-snapshot.ts";

/** Where a point is, for the radar: its country, the Thai province (index into the snapshot) or -1. */
export interface Place {
  country: string;
  countryName: string;
  province: number;
  /** Set when the point lies just off the coast and took the country of land found around it. */
  nearCoast?: { distanceKm: number };
  /** ISO code of the country Natural Earth draws the overseas area in (lib/outbreaks/overseas.ts). */
  overseasOf?: string;
}

export function placeOf(snap: OutbreakSnapshot, geo: Geography, lat: number, lng: number): Place {
  // The Thai province boundaries (geoBoundaries) are finer than Natural Earth's: a point in a province is Thailand
  // whatever Natural Earth says there. Outside Thailand's box the index answers at once.
  const province = snap.index.provinceAt(lat, lng);
  if (province >= 0) return { country: "THA", countryName: geo.countryName("THA") ?? "Thailand", province };
  let country = geo.countryAt(lat, lng);
  let nearCoast: Place["nearCoast"];
  if (country === null) {
    if (geo.isLand(lat, lng)) {
      throw new NotFoundError("No surveillance data for this location: the point is on land that no country's ISO code covers (contested, Natural Earth 1:10m)", { lat, lng });
    }
    const coast = Math.round(geo.coastDistanceKm(lat, lng) * 10) / 10;
    const shore = coast <= geo.coastalToleranceKm ? shoreCountry(geo, lat, lng, geo.coastalToleranceKm) : null;
    if (shore === null) {
      const nearText = coast <= geo.coastalToleranceKm ? `, and no country's land lies ${geo.coastalToleranceKm} km around it` : "";
      throw new NotFoundError(
        `No surveillance data at sea: the point lies in no country (Natural Earth 1:10m), ${coast} km from the nearest coast${nearText}; the outbreak radar answers for points in a country`,
        { lat, lng, coastDistanceKm: coast, coverage: "land points of a country: series and news are per country" },
      );
    }
    country = shore;
    nearCoast = { distanceKm: coast };
  }
  const overseas = overseasArea(country, lat, lng);
  if (overseas !== undefined) return { country: overseas.code, countryName: overseas.name, province: -1, overseasOf: country, ...(nearCoast ? { nearCoast } : {}) };
  return { country, countryName: geo.countryName(country) ?? country, province: -1, ...(nearCoast ? { nearCoast } : {}) };
}
