// The map's layers and their legends: the drought raster, outbreak burden by area, and a layer per answer drawn from the
// API's boxes (storm tracks, flood and wildfire events, heatwave stations, tide gauges, ports), in the colours the
// legends show.
/* global document */
import { origin, getJson, failed } from "./api.js";
import { $, escapeHtml } from "./dom.js";
import { state } from "./state.js";

export const NO_FILL = "rgba(0,0,0,0)";

export const OUTBREAK_OPACITY = 0.5;

export const DROUGHT_OPACITY = 0.8;

export const DISEASE_NAMES = { dengue: "Dengue", malaria: "Malaria", cholera: "Cholera", covid: "COVID-19", influenza: "Influenza" };

export const RISK_NAMES = { drought: "Drought", flood: "Flood", wildfire: "Wildfire", heatwave: "Heatwave", storm: "Storm", sea_level_rise: "Sea-level rise" };

/** Outbreak fills by the burden's risk level (purples); countries with outbreak news only: a dashed outline. */
export const OUTBREAK_COLOURS = { critical: "#3f007d", high: "#6a51a3", medium: "#9e9ac8", low: "#cbc9e2" };

export const OUTBREAK_NEWS = "#7a0177";

export const FLOOD = { dfo: "#4fc3f7", green: "#90caf9", orange: "#5c6bc0", red: "#1a237e" };

/** Steps: [colour, lower bound of the next class, colour, …] as MapLibre's step takes them; labels for the legend. */
export const WILDFIRE_STEPS = ["#f48fb1", 20, "#e91e63", 100, "#880e4f"];

export const HEATWAVE_STEPS = ["#bcaaa4", 10, "#a1887f", 20, "#6d4c41", 40, "#3e2723"];

export const SEA_LEVEL_STEPS = ["#b2ebf2", 0, "#26c6da", 3, "#00838f", 6, "#004d40"];

export const STORM_STEPS = ["#e6ee9c", 34, "#c0ca33", 64, "#9e9d24", 96, "#5d5a0f"];

export const PORT_STEPS = ["#d9d9d9", 25, "#8c8c8c", 75, "#4d4d4d", 90, "#000000"];

export const PORT_NO_INDEX = "#ffffff";

export const stepColours = (steps) => steps.filter((_, i) => i % 2 === 0);

/** The legend rows of each layer: [colour, label, swatch kind, key (a level or a source) where one is named]. */
export const LEGENDS = {
  outbreak: [
    [OUTBREAK_COLOURS.critical, "critical (dengue ≥ 1,000 cases per 100,000 a year)", "sw", "critical"],
    [OUTBREAK_COLOURS.high, "high (dengue ≥ 300)", "sw", "high"],
    [OUTBREAK_COLOURS.medium, "medium (dengue ≥ 100)", "sw", "medium"],
    [OUTBREAK_COLOURS.low, "low (under 1 per 100,000 always)", "sw", "low"],
    [OUTBREAK_NEWS, "outbreak news only (no counts): dashed outline", "outline", "news_only"],
  ],
  storm: stepColours(STORM_STEPS).map((c, i) => [c, ["highest wind < 34 kt (depression)", "34–63 kt (tropical storm)", "64–95 kt (typhoon, cat. 1–2)", "≥ 96 kt (cat. 3–5)"][i], "line"]),
  flood: [
    [FLOOD.dfo, "DFO archive flood", "dot", "DFO"],
    [FLOOD.green, "GDACS green alert", "dot", "green"],
    [FLOOD.orange, "GDACS orange alert", "dot", "orange"],
    [FLOOD.red, "GDACS red alert", "dot", "red"],
  ],
  wildfire: stepColours(WILDFIRE_STEPS).map((c, i) => [c, ["fire radiative power < 20 MW", "20–100 MW", "≥ 100 MW"][i], "dot"]),
  heatwave: stepColours(HEATWAVE_STEPS).map((c, i) => [c, ["< 10 heatwave days in the station's latest full year", "10–19 days", "20–39 days", "≥ 40 days"][i], "dot"]),
  sea_level: stepColours(SEA_LEVEL_STEPS).map((c, i) => [c, ["sea level falling (trend < 0 mm/yr)", "rising 0–3 mm/yr", "3–6 mm/yr", "≥ 6 mm/yr (often sinking land)"][i], "dot"]),
  ports: [
    ...stepColours(PORT_STEPS).reverse().map((c, i) => [c, ["congestion index ≥ 90: far busier than the same season before", "75–90: busier than usual", "25–75: usual", "below 25: quieter than usual"][i], "dot"]),
    [PORT_NO_INDEX, "no daily port calls (no index)", "dot", "none"],
  ],
};

/** The drought raster's classes (GET /tiles/legend.json): the legend of the drought layer. */
export function renderDroughtLegend(legend) {
  const rows = legend.classes
    .filter((c) => c.key !== "none")
    .map((c) => `<div class="row" data-colour="${c.hex.toLowerCase()}" data-key="${c.key}"><span class="sw" style="background:${c.hex};opacity:${DROUGHT_OPACITY}"></span>${escapeHtml(c.label)}</div>`)
    .join("");
  $("legend-drought").innerHTML = `<div class="hint">${escapeHtml(legend.title)}</div>${rows}`;
}

export function renderLegends() {
  for (const [name, rows] of Object.entries(LEGENDS)) {
    const html = rows
      .map(([colour, label, kind, key]) => {
        const look = kind === "outline" ? `border-color:${colour}` : kind === "sw" ? `background:${colour};opacity:${OUTBREAK_OPACITY}` : `background:${colour}`;
        return `<div class="row" data-colour="${colour}"${key ? ` data-key="${key}"` : ""}><span class="${kind}" style="${look}"></span>${escapeHtml(label)}</div>`;
      })
      .join("");
    const el = $(`legend-${name}`);
    (el.querySelector(".rows") ?? el).innerHTML = html + (BOX_LAYERS[name] ? '<p class="hint count"></p>' : "");
  }
}

export const EMPTY = { type: "FeatureCollection", features: [] };

/**
 * Layers loaded for the visible box: the checkbox (layer-<name>), the GeoJSON source (same name), the map layer and
 * the API request for a box.
 */
export const BOX_LAYERS = {
  storm: { layer: "storm-tracks", order: "the latest", path: (box) => `/api/risk-map/events?riskType=storm&since=2000-01-01&limit=400&bbox=${box}` },
  flood: { layer: "flood-events", order: "the newest", path: (box) => `/api/risk-map/events?riskType=flood&limit=1000&bbox=${box}` },
  wildfire: { layer: "wildfire-events", order: "the newest", path: (box) => `/api/risk-map/events?riskType=wildfire&limit=2000&bbox=${box}` },
  heatwave: { layer: "heatwave-stations", order: "by id", path: (box) => `/api/risk-map/stations?riskType=heatwave&limit=2000&bbox=${box}` },
  sea_level: { layer: "sea-level-gauges", order: "by id", path: (box) => `/api/risk-map/stations?riskType=sea_level_rise&limit=2000&bbox=${box}` },
  ports: { layer: "ports", order: "the most congested, then the busiest", path: (box) => `/api/supply-chain/ports?limit=1000&bbox=${box}` },
};

/** Every layer a checkbox turns on and off, in the order of the address's `layers`. */
export const LAYER_NAMES = ["drought", "outbreak", ...Object.keys(BOX_LAYERS)];

/** The map layers of the clickable features, topmost first. */
export const FEATURE_LAYERS = ["ports", "flood-events", "wildfire-events", "heatwave-stations", "sea-level-gauges", "storm-tracks"];

export const LAYER_OF_MAP_LAYER = Object.fromEntries(Object.entries(BOX_LAYERS).map(([name, def]) => [def.layer, name]));

export const isOn = (name) => $(`layer-${name}`).checked;

/** A feature's key among its layer's: events and stations by id, ports by code (name where PortWatch has none). */
export const featureKey = (p) => p.id ?? p.code ?? p.name;

export const enabledLayers = () => LAYER_NAMES.filter(isOn);

/** The visible box, clamped to valid degrees, as the API's bbox. */
export function viewBox(map) {
  const b = map.getBounds();
  const c = (v, lo, hi) => Math.min(hi, Math.max(lo, v)).toFixed(3);
  return `${c(b.getWest(), -180, 179.9)},${c(b.getSouth(), -90, 89.9)},${c(b.getEast(), -179.9, 180)},${c(b.getNorth(), -89.9, 90)}`;
}

/** Shows or hides a layer's legend and map layers; a box layer turned on loads the features of the view. */
export async function refreshBoxLayers(map, only) {
  const box = viewBox(map);
  await Promise.all(
    Object.entries(BOX_LAYERS)
      .filter(([name]) => !only || only === name)
      .map(async ([name, def]) => {
        const on = isOn(name);
        $(`legend-${name}`).hidden = !on;
        map.setLayoutProperty(def.layer, "visibility", on ? "visible" : "none");
        const gen = (state.boxGen[name] = (state.boxGen[name] ?? 0) + 1);
        if (!on) return;
        try {
          const fc = await getJson(def.path(box));
          if (gen !== state.boxGen[name]) return; // a later move or toggle asked again meanwhile
          map.getSource(name).setData(fc);
          state.features[name] = new Map(fc.features.map((f) => [featureKey(f.properties), f]));
          // One page is drawn: say so when more match the view (the API's next link would give the rest).
          $(`legend-${name}`).querySelector(".count").textContent = fc.truncated
            ? `Showing ${fc.features.length} of ${fc.numberMatched} in view (${def.order}); zoom in for the rest.`
            : `${fc.features.length} in view.`;
          document.body.dataset[`${name}Events`] = String(fc.features.length);
        } catch (err) {
          failed(err);
        }
      }),
  );
}

export function refreshDroughtLayer(map) {
  const on = isOn("drought");
  $("legend-drought").hidden = !on;
  map.setLayoutProperty("drought", "visibility", on ? "visible" : "none");
}

/** An area's colour key: its risk level, or news_only where no count series (so no rate) exists. */
export const outbreakColourKey = (a) => (a.outbreakStatus === "news_only" ? "news_only" : a.riskLevel);

/** A fill colour per area from its level: a MapLibre match on the property (id or code), transparent elsewhere. */
export function levelFill(property, areas) {
  const groups = {};
  for (const [key, level] of areas) if (OUTBREAK_COLOURS[level]) (groups[level] ??= []).push(key);
  const pairs = Object.entries(groups).flatMap(([level, keys]) => [keys, OUTBREAK_COLOURS[level]]);
  return pairs.length ? ["match", ["get", property], ...pairs, NO_FILL] : NO_FILL;
}

export const OUTBREAK_MAP_LAYERS = ["outbreak-countries", "outbreak-provinces", "outbreak-news"];

/** The outbreak layer: every country's (and Thai province's) burden level for the chosen disease, as fills. */
export async function refreshOutbreak(map) {
  const on = isOn("outbreak");
  $("legend-outbreak").hidden = !on;
  for (const l of OUTBREAK_MAP_LAYERS) map.setLayoutProperty(l, "visibility", on ? "visible" : "none");
  if (!on) return;
  const disease = $("outbreak-disease").value;
  try {
    const d = await getJson(`/api/outbreak-radar/status?diseaseType=${disease}`);
    if (disease !== $("outbreak-disease").value) return; // another disease was chosen meanwhile
    // Where Thai provinces have their own series, Thailand's national fill would lie under theirs (and darken it).
    const countries = d.countries.filter((c) => c.isoNumeric && !(d.provinces.length && c.code === "THA"));
    map.setPaintProperty("outbreak-countries", "fill-color", levelFill("id", countries.map((c) => [c.isoNumeric, outbreakColourKey(c)])));
    map.setPaintProperty("outbreak-provinces", "fill-color", levelFill("code", d.provinces.map((p) => [p.code, outbreakColourKey(p)])));
    map.setFilter("outbreak-news", ["in", ["get", "id"], ["literal", countries.filter((c) => outbreakColourKey(c) === "news_only").map((c) => c.isoNumeric)]]);
    map.setLayoutProperty("outbreak-provinces", "visibility", d.provinces.length ? "visible" : "none");
    $("outbreak-note").textContent =
      `${DISEASE_NAMES[disease]}: ${d.countries.length} countries` + (d.provinces.length ? ` and ${d.provinces.length} Thai provinces` : "") +
      ` with data (uncoloured: none); news as of ${d.newsAsOf}.`;
    document.body.dataset.outbreakDisease = disease;
    document.body.dataset.outbreakAreas = String(d.countries.length + d.provinces.length);
  } catch (err) {
    failed(err);
  }
}

export const circle = (colour, extra = {}) => ({ "circle-radius": 5, "circle-stroke-width": 1, "circle-stroke-color": "#222", "circle-color": colour, ...extra });

export function style() {
  const geojson = Object.fromEntries(Object.keys(BOX_LAYERS).map((name) => [name, { type: "geojson", data: EMPTY }]));
  const hidden = { visibility: "none" };
  return {
    version: 8,
    sources: {
      countries: { type: "vector", url: `${origin}/tiles/countries.json` },
      drought: { type: "raster", url: droughtUrl(), tileSize: 256 },
      provinces: { type: "vector", url: `${origin}/tiles/provinces.json` },
      ...geojson,
    },
    // Bottom to top: the land, the drought raster, the outbreak fills (half transparent), outlines, tracks, points.
    layers: [
      { id: "sea", type: "background", paint: { "background-color": "#dfe9f3" } },
      { id: "countries-fill", type: "fill", source: "countries", "source-layer": "countries", paint: { "fill-color": "#f4f3ee" } },
      { id: "drought", type: "raster", source: "drought", paint: { "raster-opacity": DROUGHT_OPACITY, "raster-resampling": "nearest" } },
      { id: "outbreak-countries", type: "fill", source: "countries", "source-layer": "countries", layout: hidden, paint: { "fill-color": NO_FILL, "fill-opacity": OUTBREAK_OPACITY } },
      { id: "outbreak-provinces", type: "fill", source: "provinces", "source-layer": "provinces", layout: hidden, paint: { "fill-color": NO_FILL, "fill-opacity": OUTBREAK_OPACITY } },
      { id: "countries-line", type: "line", source: "countries", "source-layer": "countries", paint: { "line-color": "#9a9a9a", "line-width": 0.8 } },
      { id: "provinces-fill", type: "fill", source: "provinces", "source-layer": "provinces", paint: { "fill-color": "#000", "fill-opacity": 0 } },
      { id: "provinces-line", type: "line", source: "provinces", "source-layer": "provinces", paint: { "line-color": "#555", "line-width": 0.6 } },
      {
        id: "outbreak-news", type: "line", source: "countries", "source-layer": "countries", layout: hidden,
        filter: ["in", ["get", "id"], ["literal", []]], paint: { "line-color": OUTBREAK_NEWS, "line-width": 2, "line-dasharray": [2, 1.5] },
      },
      {
        id: "province-selected", type: "line", source: "provinces", "source-layer": "provinces",
        filter: ["==", ["get", "code"], ""], paint: { "line-color": "#0040ff", "line-width": 2.5 },
      },
      {
        id: "storm-tracks", type: "line", source: "storm", layout: { ...hidden, "line-cap": "round" },
        paint: { "line-width": 2.5, "line-color": ["step", ["coalesce", ["get", "magnitude"], 0], ...STORM_STEPS] },
      },
      { id: "sea-level-gauges", type: "circle", source: "sea_level", layout: hidden, paint: circle(["step", ["get", "trendMmYr"], ...SEA_LEVEL_STEPS]) },
      { id: "heatwave-stations", type: "circle", source: "heatwave", layout: hidden, paint: circle(["step", ["get", "heatwaveDays"], ...HEATWAVE_STEPS], { "circle-radius": 6 }) },
      { id: "wildfire-events", type: "circle", source: "wildfire", layout: hidden, paint: circle(["step", ["coalesce", ["get", "magnitude"], 0], ...WILDFIRE_STEPS], { "circle-radius": 4, "circle-stroke-width": 0.5 }) },
      {
        id: "flood-events", type: "circle", source: "flood", layout: hidden,
        paint: circle(["case", ["==", ["get", "source"], "DFO"], FLOOD.dfo, ["step", ["coalesce", ["get", "magnitude"], 1], FLOOD.green, 2, FLOOD.orange, 3, FLOOD.red]]),
      },
      {
        id: "ports", type: "circle", source: "ports", layout: hidden,
        paint: circle(["case", ["==", ["typeof", ["get", "congestionIndex"]], "number"], ["step", ["get", "congestionIndex"], ...PORT_STEPS], PORT_NO_INDEX], { "circle-stroke-color": "#555" }),
      },
    ],
  };
}

export function droughtUrl() {
  return `${origin}/tiles/drought-${state.index}.json?month=${state.month}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The panel: the clicked feature's own figures, the drought values of the chosen month, and the place's profile.
