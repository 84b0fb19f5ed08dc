// Overseas areas that have their own ISO code and their own case series (OpenDengue, WHO GHO, WHO DON) but that
// Natural Earth's admin-0 countries draw inside the parent country's polygon (French Guiana, Réunion, … answer FRA
// in lib/geo). When the geography names the parent, a box around the area, far from any other land of that parent,
// tells the area apart; the box needs no precision because the country polygon has already placed the point on
// (or, near a coast, next to) the parent's land. docs/methods/outbreaks.md "Where a point is".

interface OverseasArea {
  code: string;
  name: string;
  parent: string;
  /** [minLat, maxLat, minLng, maxLng] boxes, degrees. */
  boxes: [number, number, number, number][];
}

export const OVERSEAS_AREAS: readonly OverseasArea[] = [
  { code: "GUF", name: "French Guiana", parent: "FRA", boxes: [[1.9, 6.0, -54.8, -51.3]] },
  { code: "GLP", name: "Guadeloupe", parent: "FRA", boxes: [[15.75, 16.6, -61.9, -60.95]] },
  { code: "MTQ", name: "Martinique", parent: "FRA", boxes: [[14.3, 14.95, -61.3, -60.75]] },
  { code: "REU", name: "Réunion", parent: "FRA", boxes: [[-21.45, -20.8, 55.15, 55.9]] },
  { code: "MYT", name: "Mayotte", parent: "FRA", boxes: [[-13.1, -12.55, 44.95, 45.35]] },
  {
    code: "BES",
    name: "Bonaire, Sint Eustatius and Saba",
    parent: "NLD",
    boxes: [
      [11.95, 12.35, -68.5, -68.1],
      [17.44, 17.54, -63.01, -62.92],
      [17.59, 17.66, -63.27, -63.2],
    ],
  },
  { code: "TKL", name: "Tokelau", parent: "NZL", boxes: [[-9.5, -8.4, -172.6, -171.1]] },
];

const BY_PARENT = new Map<string, OverseasArea[]>();
for (const a of OVERSEAS_AREAS) BY_PARENT.set(a.parent, [...(BY_PARENT.get(a.parent) ?? []), a]);

/** The overseas area holding a point the geography put in `country`, or undefined. */
export function overseasArea(country: string, lat: number, lng: number): { code: string; name: string } | undefined {
  const list = BY_PARENT.get(country);
  if (list === undefined) return undefined;
  for (const a of list) for (const [s, n, w, e] of a.boxes) if (lat >= s && lat <= n && lng >= w && lng <= e) return { code: a.code, name: a.name };
  return undefined;
}
