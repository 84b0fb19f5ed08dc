// Province and country names drawn over the map.
/* global document */
import * as maplibregl from "/map/vendor/maplibre-gl/maplibre-gl.mjs";
import { getJson } from "./api.js";
import { state } from "./state.js";

/** Province names at their label points (HTML markers: the page loads no glyph fonts), shown from zoom 6. */
export async function addProvinceLabels(map) {
  if (state.labels.length) return;
  const fc = await getJson(`/api/risk-map/drought/provinces?month=${state.month}`);
  for (const f of fc.features) {
    const [lng, lat] = largestBox(f.geometry).at;
    const el = document.createElement("div");
    el.className = "province-label";
    el.textContent = f.properties.nameEn ?? f.properties.province;
    state.labels.push(new maplibregl.Marker({ element: el }).setLngLat([lng, lat]).addTo(map));
  }
  const toggle = () => document.body.classList.toggle("labels-on", map.getZoom() >= 6);
  map.on("zoomend", toggle);
  toggle();
}

/**
 * Country names (HTML markers) from the countries tiles in view: each at the centre of the box of its largest piece
 * among the loaded tiles, redone when the map rests. The drought region's countries' names give way to their
 * provinces' from zoom 6.
 */
const REGION_COUNTRIES = new Set(["Thailand", "Vietnam", "Malaysia"]);

export function updateCountryLabels(map) {
  const best = new Map();
  for (const f of map.querySourceFeatures("countries", { sourceLayer: "countries" })) {
    const name = f.properties.name;
    if (!name || (REGION_COUNTRIES.has(name) && map.getZoom() >= 6)) continue;
    const piece = largestBox(f.geometry);
    if (piece && piece.size > (best.get(name)?.size ?? 0)) best.set(name, piece);
  }
  for (const [name, marker] of state.countryLabels) {
    if (!best.has(name)) {
      marker.remove();
      state.countryLabels.delete(name);
    }
  }
  for (const [name, { at }] of best) {
    const marker = state.countryLabels.get(name);
    if (marker) marker.setLngLat(at);
    else {
      const el = document.createElement("div");
      el.className = "country-label";
      el.textContent = name;
      state.countryLabels.set(name, new maplibregl.Marker({ element: el }).setLngLat(at).addTo(map));
    }
  }
}

/**
 * The bounding box of a (multi)polygon's largest piece, as its area in square degrees and its centre (good enough
 * for a label on an outline); null for other geometries.
 */
export function largestBox(geometry) {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.type === "MultiPolygon" ? geometry.coordinates : [];
  let best = null;
  for (const poly of polygons) {
    const xs = poly[0].map((p) => p[0]);
    const ys = poly[0].map((p) => p[1]);
    const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    const size = (box[2] - box[0]) * (box[3] - box[1]);
    if (!best || size > best.size) best = { size, at: [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2] };
  }
  return best;
}

// ---------------------------------------------------------------------------------------------------------------
// Phones: the controls are a drawer opened from the bar at the bottom.
