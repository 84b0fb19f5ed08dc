// The risk map page: MapLibre GL JS (served by this service from node_modules), the drought raster, province and
// country outlines from /tiles, and a layer for each other answer (outbreak burden by area, storm tracks, flood and
// wildfire events, heatwave stations, tide gauges, ports by congestion), each with a legend in the colours it is
// drawn in. A click anywhere opens that place's profile (GET /api/risk-map/profile: every risk, outbreak and the
// nearest port) with the clicked feature's own figures and the drought values of the chosen month and index; each
// part says which endpoint gives its full answer. The view (centre, zoom, layers, index, month, disease, selected
// place) lives in the address's hash. The API key is asked once, kept in sessionStorage and sent only as the
// X-API-Key header (MapLibre transformRequest for tiles, fetch headers for the API): never in a URL or a log.
/* global window, document, sessionStorage, fetch, history, location, navigator, URLSearchParams */
import * as maplibregl from "/map/vendor/maplibre-gl/maplibre-gl.mjs";

const KEY_STORAGE = "climateRiskApiKey";
const origin = window.location.origin;
const $ = (id) => document.getElementById(id);
const state = {
  index: "spei1",
  month: "",
  info: null,
  map: null,
  /** The selected place: { lat, lng, province?: { code, name }, feature?: { layer, properties, geometry } }. */
  selection: null,
  /** Generation of the panel's requests: an answer for an older selection or month is dropped. */
  panelGen: 0,
  detailGen: 0,
  /** While the hash is applied (back/forward, a pasted link), nothing is written back to it. */
  applyingHash: false,
  /** Each box layer's features as the API sent them, by featureKey (the map's own copies are tile-rounded). */
  features: {},
  /** Generation of each box layer's request: an answer for an older view is dropped. */
  boxGen: {},
  labels: [],
  countryLabels: new Map(),
  marker: null,
};

function apiKey() {
  return sessionStorage.getItem(KEY_STORAGE) ?? "";
}

function status(text) {
  $("status").textContent = text;
}

/** An error a person can act on, from an HTTP status (API answers and MapLibre's tile errors alike). */
function friendly(httpStatus, apiMessage) {
  if (httpStatus === 401) return "The API key was not accepted. Check it and enter it again.";
  if (httpStatus === 403) return "This API key may not use this part of the service.";
  if (httpStatus === 429) return "Too many requests for this key right now: wait a moment and try again.";
  if (httpStatus === 404) return apiMessage ?? "No data here.";
  if (httpStatus === 503) return "The service is loading its data: try again in a moment.";
  if (httpStatus >= 500) return "The service had a problem answering; try again.";
  return apiMessage ?? "The request failed.";
}

class RequestError extends Error {
  constructor(httpStatus, apiMessage) {
    super(friendly(httpStatus, apiMessage));
    this.httpStatus = httpStatus;
  }
}

async function getJson(path, init = {}) {
  let res;
  try {
    res = await fetch(origin + path, { ...init, headers: { "X-API-Key": apiKey(), ...init.headers } });
  } catch {
    throw new Error("The service cannot be reached.");
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok || body.success === false) throw new RequestError(res.status, body.error?.message);
  return body.data ?? body;
}

/** A failed request in words; a 401 forgets the key and asks again. */
function failed(err) {
  if (err.httpStatus === 401) rejectKey(err.message);
  else status(err.message);
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function fmt(v, digits = 2) {
  return v === null || v === undefined || Number.isNaN(v) ? "–" : Number(v).toFixed(digits);
}

// ---------------------------------------------------------------------------------------------------------------
// The key: asked once, checked with GET /api/ping; the form goes away once the key is accepted ("Change key" brings
// it back).

function showKeyForm(show) {
  $("key-form").hidden = !show;
  $("key-state").hidden = show || document.body.dataset.key !== "accepted";
  $("key-cancel").hidden = !(show && document.body.dataset.key === "accepted");
  if (show) {
    openDrawer(true);
    $("api-key").focus();
  }
}

/** A wrong key: forget it and ask again. */
function rejectKey(message) {
  sessionStorage.removeItem(KEY_STORAGE);
  document.body.dataset.key = "rejected";
  status(message);
  showKeyForm(true);
}

async function checkKey() {
  document.body.dataset.key = "checking";
  status("Checking the API key…");
  try {
    await getJson("/api/ping");
  } catch (err) {
    if (err.httpStatus === 401) rejectKey(err.message);
    else status(err.message);
    return false;
  }
  document.body.dataset.key = "accepted";
  status("");
  showKeyForm(false);
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Layers: colours (one family per layer, none shared), the map layers drawing them, the legends saying them.

const NO_FILL = "rgba(0,0,0,0)";
const OUTBREAK_OPACITY = 0.5;
const DROUGHT_OPACITY = 0.8;
const DISEASE_NAMES = { dengue: "Dengue", malaria: "Malaria", cholera: "Cholera", covid: "COVID-19", influenza: "Influenza" };
const RISK_NAMES = { drought: "Drought", flood: "Flood", wildfire: "Wildfire", heatwave: "Heatwave", storm: "Storm", sea_level_rise: "Sea-level rise" };

/** Outbreak fills by the burden's risk level (purples); countries with outbreak news only: a dashed outline. */
const OUTBREAK_COLOURS = { critical: "#3f007d", high: "#6a51a3", medium: "#9e9ac8", low: "#cbc9e2" };
const OUTBREAK_NEWS = "#7a0177";
const FLOOD = { dfo: "#4fc3f7", green: "#90caf9", orange: "#5c6bc0", red: "#1a237e" };
/** Steps: [colour, lower bound of the next class, colour, …] as MapLibre's step takes them; labels for the legend. */
const WILDFIRE_STEPS = ["#f48fb1", 20, "#e91e63", 100, "#880e4f"];
const HEATWAVE_STEPS = ["#bcaaa4", 10, "#a1887f", 20, "#6d4c41", 40, "#3e2723"];
const SEA_LEVEL_STEPS = ["#b2ebf2", 0, "#26c6da", 3, "#00838f", 6, "#004d40"];
const STORM_STEPS = ["#e6ee9c", 34, "#c0ca33", 64, "#9e9d24", 96, "#5d5a0f"];
const PORT_STEPS = ["#d9d9d9", 25, "#8c8c8c", 75, "#4d4d4d", 90, "#000000"];
const PORT_NO_INDEX = "#ffffff";

const stepColours = (steps) => steps.filter((_, i) => i % 2 === 0);

/** The legend rows of each layer: [colour, label, swatch kind, key (a level or a source) where one is named]. */
const LEGENDS = {
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
function renderDroughtLegend(legend) {
  const rows = legend.classes
    .filter((c) => c.key !== "none")
    .map((c) => `<div class="row" data-colour="${c.hex.toLowerCase()}" data-key="${c.key}"><span class="sw" style="background:${c.hex};opacity:${DROUGHT_OPACITY}"></span>${escapeHtml(c.label)}</div>`)
    .join("");
  $("legend-drought").innerHTML = `<div class="hint">${escapeHtml(legend.title)}</div>${rows}`;
}

function renderLegends() {
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

const EMPTY = { type: "FeatureCollection", features: [] };

/**
 * Layers loaded for the visible box: the checkbox (layer-<name>), the GeoJSON source (same name), the map layer and
 * the API request for a box.
 */
const BOX_LAYERS = {
  storm: { layer: "storm-tracks", order: "the latest", path: (box) => `/api/risk-map/events?riskType=storm&since=2000-01-01&limit=400&bbox=${box}` },
  flood: { layer: "flood-events", order: "the newest", path: (box) => `/api/risk-map/events?riskType=flood&limit=1000&bbox=${box}` },
  wildfire: { layer: "wildfire-events", order: "the newest", path: (box) => `/api/risk-map/events?riskType=wildfire&limit=2000&bbox=${box}` },
  heatwave: { layer: "heatwave-stations", order: "by id", path: (box) => `/api/risk-map/stations?riskType=heatwave&limit=2000&bbox=${box}` },
  sea_level: { layer: "sea-level-gauges", order: "by id", path: (box) => `/api/risk-map/stations?riskType=sea_level_rise&limit=2000&bbox=${box}` },
  ports: { layer: "ports", order: "the most congested, then the busiest", path: (box) => `/api/supply-chain/ports?limit=1000&bbox=${box}` },
};
/** Every layer a checkbox turns on and off, in the order of the address's `layers`. */
const LAYER_NAMES = ["drought", "outbreak", ...Object.keys(BOX_LAYERS)];
/** The map layers of the clickable features, topmost first. */
const FEATURE_LAYERS = ["ports", "flood-events", "wildfire-events", "heatwave-stations", "sea-level-gauges", "storm-tracks"];
const LAYER_OF_MAP_LAYER = Object.fromEntries(Object.entries(BOX_LAYERS).map(([name, def]) => [def.layer, name]));

const isOn = (name) => $(`layer-${name}`).checked;
/** A feature's key among its layer's: events and stations by id, ports by code (name where PortWatch has none). */
const featureKey = (p) => p.id ?? p.code ?? p.name;
const enabledLayers = () => LAYER_NAMES.filter(isOn);

/** The visible box, clamped to valid degrees, as the API's bbox. */
function viewBox(map) {
  const b = map.getBounds();
  const c = (v, lo, hi) => Math.min(hi, Math.max(lo, v)).toFixed(3);
  return `${c(b.getWest(), -180, 179.9)},${c(b.getSouth(), -90, 89.9)},${c(b.getEast(), -179.9, 180)},${c(b.getNorth(), -89.9, 90)}`;
}

/** Shows or hides a layer's legend and map layers; a box layer turned on loads the features of the view. */
async function refreshBoxLayers(map, only) {
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

function refreshDroughtLayer(map) {
  const on = isOn("drought");
  $("legend-drought").hidden = !on;
  map.setLayoutProperty("drought", "visibility", on ? "visible" : "none");
}

/** An area's colour key: its risk level, or news_only where no count series (so no rate) exists. */
const outbreakColourKey = (a) => (a.outbreakStatus === "news_only" ? "news_only" : a.riskLevel);

/** A fill colour per area from its level: a MapLibre match on the property (id or code), transparent elsewhere. */
function levelFill(property, areas) {
  const groups = {};
  for (const [key, level] of areas) if (OUTBREAK_COLOURS[level]) (groups[level] ??= []).push(key);
  const pairs = Object.entries(groups).flatMap(([level, keys]) => [keys, OUTBREAK_COLOURS[level]]);
  return pairs.length ? ["match", ["get", property], ...pairs, NO_FILL] : NO_FILL;
}

const OUTBREAK_MAP_LAYERS = ["outbreak-countries", "outbreak-provinces", "outbreak-news"];

/** The outbreak layer: every country's (and Thai province's) burden level for the chosen disease, as fills. */
async function refreshOutbreak(map) {
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

const circle = (colour, extra = {}) => ({ "circle-radius": 5, "circle-stroke-width": 1, "circle-stroke-color": "#222", "circle-color": colour, ...extra });

function style() {
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

function droughtUrl() {
  return `${origin}/tiles/drought-${state.index}.json?month=${state.month}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The panel: the clicked feature's own figures, the drought values of the chosen month, and the place's profile.

const round4 = (v) => Number(v.toFixed(4));

/** A table of [label, value] rows; each value cell names its field (data-field) for readers and tests. */
function rowsTable(rows) {
  return "<table>" + rows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td class="v" data-field="${escapeHtml(k)}">${escapeHtml(v)}</td></tr>`).join("") + "</table>";
}

function setSection(id, html, attrs = {}) {
  const el = $(id);
  for (const k of Object.keys(el.dataset)) delete el.dataset[k];
  Object.assign(el.dataset, attrs);
  el.innerHTML = html;
}

/** The clicked feature's own figures, from the layer's data (the scores there are in the profile). */
function featureRows(f) {
  const p = f.properties;
  switch (f.layer) {
    case "flood":
    case "wildfire":
      return [`${f.layer === "flood" ? "Flood event" : "Fire detection"}: ${p.name}`, [
        ["source", p.source], ["from", p.start], ["to", p.end], [f.layer === "flood" ? "magnitude" : "fire radiative power (MW)", p.magnitude ?? "–"],
      ], { event: p.id }];
    case "storm":
      return [`Storm ${p.name}`, [["source", p.source], ["from", p.start], ["to", p.end], ["highest wind in view (kt)", p.magnitude ?? "–"]], { event: p.id }];
    case "heatwave":
      return [`Weather station ${p.name}`, [
        ["year", `${p.from} – ${p.to}`], ["heatwave days", p.heatwaveDays], ["heatwaves", p.heatwaves],
        ["base mean heatwave days", `${fmt(p.baseHeatwaveDaysMean, 1)} (${p.baseYears} years)`],
        ["hottest heatwave day (°C)", p.hottestPeakC ?? "–"], ["days ≥ 35 °C", p.hotDays],
      ], { station: p.id }];
    case "sea_level":
      return [`Tide gauge ${p.name}`, [["trend (mm/yr)", `${fmt(p.trendMmYr, 2)} ± ${fmt(p.seMmYr, 2)}`], ["years of data", `${p.years} (${p.firstYear}–${p.lastYear})`]], { station: p.id }];
    case "ports":
      return [`Port ${p.name}`, [
        ["port", p.code ?? "–"], ["congestion index", p.congestionIndex ?? "–"], ...(p.reason ? [["why no index", p.reason]] : []),
        ["latest day", p.latestDay ?? "–"], ["port calls a year (2019–2024)", p.yearlyPortCalls ?? "–"],
      ], { port: p.code ?? p.name }];
    default:
      return null;
  }
}

function renderFeature() {
  const f = state.selection?.feature;
  const rows = f && isOn(f.layer) ? featureRows(f) : null;
  if (!rows) return setSection("feature", "");
  const [title, table, attrs] = rows;
  const kind = f.layer === "ports" ? "port" : f.layer === "heatwave" || f.layer === "sea_level" ? `${f.layer}-station` : `${f.layer}-event`;
  setSection("feature", `<h3>${escapeHtml(title)}</h3>${rowsTable(table)}`, { kind, ...attrs });
}

/** The drought values of the chosen index and month: the province's, or the point's grid cell's. */
async function renderDetail() {
  const sel = state.selection;
  const gen = ++state.detailGen;
  if (!sel || !isOn("drought")) return setSection("detail", "");
  setSection("detail", `<h3>Drought, ${escapeHtml(state.month)}</h3><p class="hint">Loading…</p>`, { state: "loading" });
  const attrs = { index: state.index, month: state.month };
  let html;
  try {
    if (sel.province) {
      const d = await getJson(`/api/risk-map/drought/province?name=${encodeURIComponent(sel.province.name)}&month=${state.month}`);
      html = rowsTable([
        ["month", d.month], [`selected: ${state.index}`, fmt(d.indices[state.index])], ["score", fmt(d.score, 1)], ["level", d.level],
        ["severity", d.severity.spei1 ?? "none"], ["spei1", fmt(d.indices.spei1)], ["spei3", fmt(d.indices.spei3)], ["spei6", fmt(d.indices.spei6)],
      ]);
      Object.assign(attrs, { kind: "province", province: d.province });
      html = `<h3>Drought in ${escapeHtml(d.province)} province, ${escapeHtml(d.month)}</h3>${html}`;
    } else {
      const d = await getJson(`/api/risk-map/drought?lat=${sel.lat}&lng=${sel.lng}&month=${state.month}`);
      const i = d.drought.indices;
      html = rowsTable([
        ["month", d.period.month], [`selected: ${state.index}`, fmt(i[state.index])], ["grid cell", `${d.location.gridLat}, ${d.location.gridLng}`],
        ["score", fmt(d.drought.score, 1)], ["level", d.drought.level], ["severity", d.drought.severity.spei1 ?? "none"],
        ...["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"].map((k) => [k, fmt(i[k])]),
      ]);
      Object.assign(attrs, { kind: "point" });
      html = `<h3>Drought at this point, ${escapeHtml(d.period.month)}</h3>${html}`;
    }
  } catch (err) {
    if (err.httpStatus === 401) return rejectKey(err.message);
    html = `<h3>Drought, ${escapeHtml(state.month)}</h3><p class="hint" data-field="why">${escapeHtml(err.message)}</p>`;
    Object.assign(attrs, { kind: "none" });
  }
  if (gen !== state.detailGen) return; // the selection, index or month changed meanwhile
  setSection("detail", html, { ...attrs, state: "ready" });
}

/** The operation of each endpoint a part names, for its section of /docs. */
const OPERATIONS = {
  "/api/risk-map/score": "riskScore",
  "/api/outbreak-radar/query": "outbreakRadarQuery",
  "/api/supply-chain/query": "supplyChainQuery",
  "/api/risk-map/profile": "profileAtPoint",
};

/**
 * How to get a full answer: the request the profile names for the part (as curl, the key left as $KEY) and the
 * operation in /docs.
 */
function apiCall({ method, path, body }) {
  const url = origin + path;
  const curl = body
    ? `curl -s -H "X-API-Key: $KEY" -H "Content-Type: application/json" -d '${JSON.stringify(body)}' "${url}"`
    : `curl -s -H "X-API-Key: $KEY" "${url}"`;
  return { method, path, body, curl, docs: `/docs#operation/${OPERATIONS[path.split("?")[0]] ?? ""}` };
}

/** The confidence of a part as "0.62 (medium)"; "–" where the answer has none. */
function confidenceText(part) {
  if (part.confidence === null || part.confidence === undefined) return part.confidenceLabel ?? "–";
  return part.confidenceLabel ? `${fmt(part.confidence, 2)} (${part.confidenceLabel})` : fmt(part.confidence, 2);
}

const levelChip = (level) => (level ? `<span class="level level-${escapeHtml(level)}">${escapeHtml(level)}</span>` : "–");
const apiButton = (id) => `<button type="button" class="api-toggle" data-api="${id}" aria-expanded="false">API</button>`;

/** The hidden row under a part: its request, a copyable curl, its full answer on demand, its section of /docs. */
function apiRow(id, call, colspan) {
  const what = `${call.method} ${call.path}${call.body ? ` with ${JSON.stringify(call.body)}` : ""}`;
  return (
    `<tr class="api-row" id="api-${id}" hidden><td colspan="${colspan}"><div data-field="request">${escapeHtml(what)}</div><code>${escapeHtml(call.curl)}</code>` +
    `<button type="button" class="copy">Copy curl</button><button type="button" class="show">Show the full answer</button>` +
    `<a href="${call.docs}" target="_blank" rel="noopener">In the API docs</a><pre class="answer" hidden></pre></td></tr>`
  );
}

/** One row of a risk or a disease (and its hidden API row): level, score, confidence, or its endpoint's error. */
function partRows(kind, name, label, part, calls, extra = "") {
  const id = `${kind}-${name}`;
  const call = apiCall(part.request);
  calls.set(id, call);
  const main = part.error
    ? `<th>${escapeHtml(label)}</th><td class="why" colspan="4" data-field="why">${escapeHtml(part.error.message)}</td>`
    : `<th>${escapeHtml(label)}</th><td data-field="level">${levelChip(part.riskLevel)}</td><td data-field="score">${fmt(part.riskScore, 1)}</td>` +
      `<td data-field="confidence"${part.confidenceNote ? ` title="${escapeHtml(part.confidenceNote)}"` : ""}>${escapeHtml(confidenceText(part))}</td>` +
      dataToCell(part);
  const error = part.error ? ` data-error="${escapeHtml(part.error.code)}"` : "";
  return `<tr data-part="${escapeHtml(name)}" data-kind="${kind}"${error}${extra}>${main}<td>${apiButton(id)}</td></tr>${apiRow(id, call, 6)}`;
}

/** How recent a part's data are: its newest datum, marked when it is older than its series' horizon (the period on hover). */
function dataToCell(part) {
  if (!part.asOf) return `<td data-field="data to">–</td>`;
  const title = [part.period ? `data ${part.period.from}..${part.period.to}` : "", part.currency?.note ?? ""].filter(Boolean).join("; ");
  const old = part.currency && !part.currency.current;
  return `<td data-field="data to"${old ? ' class="not-current"' : ""} title="${escapeHtml(title)}">${escapeHtml(part.asOf)}${old ? " (not current)" : ""}</td>`;
}

const HEAD = "<thead><tr><th></th><th>level</th><th>score</th><th>confidence</th><th>data to</th><th></th></tr></thead>";

/** The nearest port's congestion answer, or the reason there is none. */
function portHtml(p, calls) {
  const np = p.nearestPort;
  if (!np) return `<p class="hint" data-part="port" data-field="why">${escapeHtml(p.nearestPortReason?.message ?? "no port answers here")}</p>`;
  const call = apiCall(np.request);
  calls.set("port", call);
  const rows = [
    ["port", `${np.port.name}${np.port.code ? ` (${np.port.code})` : ""}`],
    ["distance (km)", fmt(np.distanceKm, 1)],
    ["congestion index", np.congestionIndex ?? "–"],
    ["port calls, 7 days", np.vesselCount ?? "–"],
    ["disruption risk", np.disruptionRisk],
    ["data to", np.asOf ? `${np.asOf}${np.currency && !np.currency.current ? " (not current)" : ""}` : "–"],
  ];
  return (
    `<table data-part="port" data-port="${escapeHtml(np.port.code ?? np.port.name)}">` +
    rows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td class="v" data-field="${escapeHtml(k)}">${escapeHtml(v)}</td></tr>`).join("") +
    `<tr><td>full congestion answer</td><td class="v">${apiButton("port")}</td></tr>${apiRow("port", call, 2)}</table>`
  );
}

/** The place's profile: every risk, every disease, the nearest port, each with the request of its full answer. */
function renderProfile(sel, p) {
  const calls = new Map();
  const missing = (what) => ({ error: { code: "MISSING", message: `${what} is not in the profile` }, request: { method: "GET", path: "/api/risk-map/profile" } });
  const risks = Object.entries(RISK_NAMES).map(([name, label]) => partRows("risk", name, label, p.risks?.[name] ?? missing(label), calls)).join("");
  const chosen = isOn("outbreak") ? $("outbreak-disease").value : "";
  const outbreaks = Object.entries(DISEASE_NAMES)
    .map(([name, label]) => {
      const part = p.outbreaks?.[name] ?? missing(label);
      return partRows("outbreak", name, part.outbreakStatus ? `${label}: ${part.outbreakStatus}` : label, part, calls, name === chosen ? ' class="chosen"' : "");
    })
    .join("");
  // Where the place is: the country and Thai province the outbreak answers name.
  const area = Object.values(p.outbreaks ?? {}).find((o) => o.country);
  if (area) $("panel-place").textContent = [area.province?.name, area.country.name].filter(Boolean).join(", ");
  const whole = apiCall({ method: "GET", path: `/api/risk-map/profile?lat=${sel.lat}&lng=${sel.lng}` });
  calls.set("profile", whole);
  setSection(
    "profile",
    `<h3>Risks here</h3><table class="risks">${HEAD}${risks}</table>` +
      `<h3>Outbreaks (${escapeHtml(area ? area.country.name : "by country")})</h3><table class="outbreaks">${HEAD}${outbreaks}</table>` +
      `<h3>Nearest port</h3>${portHtml(p, calls)}` +
      `<table><tr><td class="hint">The whole profile, ${escapeHtml(p.timestamp)}. "API" under a row: the request that gives that part's full answer.</td>` +
      `<td>${apiButton("profile")}</td></tr>${apiRow("profile", whole, 2)}</table>`,
    { state: "ready", lat: String(sel.lat), lng: String(sel.lng) },
  );
  state.calls = calls;
}

async function loadProfile(sel, gen) {
  setSection("profile", `<h3>Risks here</h3><p class="hint">Loading the profile…</p>`, { state: "loading" });
  try {
    const p = await getJson(`/api/risk-map/profile?lat=${sel.lat}&lng=${sel.lng}`);
    if (gen !== state.panelGen) return;
    renderProfile(sel, p);
  } catch (err) {
    if (gen !== state.panelGen) return;
    if (err.httpStatus === 401) return rejectKey(err.message);
    setSection("profile", `<h3>Risks here</h3><p class="hint" data-field="why">${escapeHtml(err.message)}</p>`, { state: "error" });
  }
}

/** Selects a place: the marker, the panel's three parts, the address. */
function select(sel, { push = true } = {}) {
  state.selection = sel;
  const gen = ++state.panelGen;
  const map = state.map;
  map.setFilter("province-selected", ["==", ["get", "code"], sel?.province?.code ?? ""]);
  state.marker?.remove();
  state.marker = null;
  const panel = $("panel");
  if (!sel) {
    panel.hidden = true;
    renderFeature();
    renderDetail();
    setSection("profile", "");
    writeHash(push);
    return;
  }
  const el = document.createElement("div");
  el.className = "selection-marker";
  state.marker = new maplibregl.Marker({ element: el }).setLngLat([sel.lng, sel.lat]).addTo(map);
  panel.hidden = false;
  panel.dataset.lat = String(sel.lat);
  panel.dataset.lng = String(sel.lng);
  $("panel-title").textContent = `${sel.lat.toFixed(4)}, ${sel.lng.toFixed(4)}`;
  $("panel-place").textContent = sel.province ? `${sel.province.name} province` : "";
  openDrawer(false);
  renderFeature();
  renderDetail();
  loadProfile(sel, gen);
  writeHash(push);
}

/** The place under a click: a feature of a visible layer (its position for points), the province, the point. */
function placeAt(map, point, lngLat) {
  const around = [[point.x - 4, point.y - 4], [point.x + 4, point.y + 4]];
  const visible = FEATURE_LAYERS.filter((l) => map.getLayoutProperty(l, "visibility") === "visible");
  const hit = visible.length ? map.queryRenderedFeatures(around, { layers: visible })[0] : undefined;
  let at = lngLat;
  let feature;
  if (hit) {
    // The API's own feature: the map's copy has tile-rounded coordinates and its objects flattened.
    const layer = LAYER_OF_MAP_LAYER[hit.layer.id];
    const f = state.features[layer]?.get(featureKey(hit.properties)) ?? hit;
    feature = { layer, properties: f.properties, geometry: f.geometry };
    if (f.geometry.type === "Point") at = { lng: f.geometry.coordinates[0], lat: f.geometry.coordinates[1] };
  }
  const prov = map.queryRenderedFeatures(map.project([at.lng, at.lat]), { layers: ["provinces-fill"] })[0];
  return {
    lat: round4(at.lat),
    lng: round4(at.lng),
    ...(prov ? { province: { code: prov.properties.code, name: prov.properties.nameEn } } : {}),
    ...(feature ? { feature } : {}),
  };
}

/**
 * The panel's parts that depend on a layer follow it: a feature of a layer turned off goes, the drought values come
 * and go with the drought layer, the chosen disease is marked among the outbreaks.
 */
function panelFollowsLayers(changed) {
  if (!state.selection) return;
  renderFeature();
  if (!changed || changed === "drought") renderDetail();
  for (const tr of document.querySelectorAll("#profile tr[data-kind=outbreak]")) tr.classList.toggle("chosen", isOn("outbreak") && tr.dataset.part === $("outbreak-disease").value);
}

async function onPanelClick(e) {
  const t = e.target;
  if (t.id === "panel-close") return select(null);
  const row = t.closest("tr.api-row");
  if (t.classList.contains("api-toggle")) {
    const api = $(`api-${t.dataset.api}`);
    api.hidden = !api.hidden;
    t.setAttribute("aria-expanded", String(!api.hidden));
    return;
  }
  if (!row) return;
  const call = state.calls?.get(row.id.slice("api-".length));
  if (!call) return;
  if (t.classList.contains("copy")) {
    await navigator.clipboard?.writeText(call.curl).catch(() => undefined);
    t.textContent = "Copied";
  } else if (t.classList.contains("show")) {
    const pre = row.querySelector("pre.answer");
    pre.hidden = false;
    pre.textContent = "Loading…";
    try {
      const res = await fetch(origin + call.path, {
        method: call.method,
        headers: { "X-API-Key": apiKey(), ...(call.body ? { "Content-Type": "application/json" } : {}) },
        body: call.body ? JSON.stringify(call.body) : undefined,
      });
      pre.textContent = JSON.stringify(await res.json(), null, 2);
    } catch {
      pre.textContent = "The service cannot be reached.";
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The address: #map=zoom/lat/lng&index=…&month=…&layers=…&disease=…[&at=lat,lng]. A change of layers, month, index,
// disease or place is a new history entry; moving the map replaces the current one.

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const out = {};
  const view = (p.get("map") ?? "").split("/").map(Number);
  if (view.length === 3 && view.every(Number.isFinite) && Math.abs(view[1]) <= 90 && Math.abs(view[2]) <= 180) {
    out.zoom = view[0];
    out.center = [view[2], view[1]];
  }
  const month = p.get("month");
  if (month && /^\d{4}-\d{2}$/.test(month) && (!state.info || (month >= state.info.firstMonth && month <= state.info.lastMonth))) out.month = month;
  const index = p.get("index");
  if (index && state.info?.indices.includes(index)) out.index = index;
  if (p.has("layers")) out.layers = p.get("layers").split(",").filter((l) => LAYER_NAMES.includes(l));
  const disease = p.get("disease");
  if (disease && DISEASE_NAMES[disease]) out.disease = disease;
  const at = (p.get("at") ?? "").split(",").map(Number);
  if (at.length === 2 && at.every(Number.isFinite) && Math.abs(at[0]) <= 90 && Math.abs(at[1]) <= 180) out.at = { lat: at[0], lng: at[1] };
  return out;
}

function hashText() {
  const map = state.map;
  const c = map.getCenter();
  const parts = [
    `map=${map.getZoom().toFixed(2)}/${c.lat.toFixed(4)}/${c.lng.toFixed(4)}`,
    `index=${state.index}`,
    `month=${state.month}`,
    `layers=${enabledLayers().join(",")}`,
    `disease=${$("outbreak-disease").value}`,
  ];
  if (state.selection) parts.push(`at=${state.selection.lat},${state.selection.lng}`);
  return "#" + parts.join("&");
}

function writeHash(push) {
  if (!state.map || state.applyingHash) return;
  const hash = hashText();
  state.appliedHash = hash;
  if (hash === location.hash) return;
  history[push ? "pushState" : "replaceState"](null, "", hash);
}

/** Index, month, layers and disease from the address onto the controls (before the map or on back/forward). */
function applyControls(h) {
  if (h.index) $("index").value = state.index = h.index;
  if (h.month) $("month").value = state.month = h.month;
  if (h.layers) for (const name of LAYER_NAMES) $(`layer-${name}`).checked = h.layers.includes(name);
  if (h.disease) $("outbreak-disease").value = h.disease;
}

/** Back, forward or an edited address: the map, the layers and the panel take the address's view. */
async function applyHash() {
  const map = state.map;
  // popstate and hashchange both come for one step back: the address is applied once.
  if (!map || location.hash === state.appliedHash) return;
  state.appliedHash = location.hash;
  const h = readHash();
  const before = { index: state.index, month: state.month, layers: enabledLayers().join(","), disease: $("outbreak-disease").value };
  state.applyingHash = true;
  try {
    applyControls(h);
    if (h.center) map.jumpTo({ center: h.center, zoom: h.zoom });
    if (state.index !== before.index || state.month !== before.month) map.getSource("drought").setUrl(droughtUrl());
    if (enabledLayers().join(",") !== before.layers || $("outbreak-disease").value !== before.disease) {
      refreshDroughtLayer(map);
      refreshOutbreak(map);
      refreshBoxLayers(map);
    }
    const sel = state.selection;
    if (!h.at && sel) select(null, { push: false });
    else if (h.at && (!sel || sel.lat !== h.at.lat || sel.lng !== h.at.lng)) selectPoint(h.at);
    else if (state.index !== before.index || state.month !== before.month || enabledLayers().join(",") !== before.layers) panelFollowsLayers();
  } finally {
    state.applyingHash = false;
  }
}

/** A place from the address: once the map shows it, its province (if any) from the tiles. */
function selectPoint(at) {
  const map = state.map;
  const go = () => {
    const prov = map.queryRenderedFeatures(map.project([at.lng, at.lat]), { layers: ["provinces-fill"] })[0];
    select({ lat: at.lat, lng: at.lng, ...(prov ? { province: { code: prov.properties.code, name: prov.properties.nameEn } } : {}) }, { push: false });
  };
  if (map.loaded() && map.areTilesLoaded()) go();
  else map.once("idle", go);
}

// ---------------------------------------------------------------------------------------------------------------
// Labels.

/** Province names at their label points (HTML markers: the page loads no glyph fonts), shown from zoom 6. */
async function addProvinceLabels(map) {
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
 * among the loaded tiles, redone when the map rests. Thailand's name gives way to its provinces' from zoom 6.
 */
function updateCountryLabels(map) {
  const best = new Map();
  for (const f of map.querySourceFeatures("countries", { sourceLayer: "countries" })) {
    const name = f.properties.name;
    if (!name || (name === "Thailand" && map.getZoom() >= 6)) continue;
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
function largestBox(geometry) {
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

function openDrawer(open) {
  $("controls").classList.toggle("open", open);
  $("drawer-toggle").setAttribute("aria-expanded", String(open));
}

// ---------------------------------------------------------------------------------------------------------------
// The map.

function startMap() {
  const h = readHash();
  const map = new maplibregl.Map({
    container: "map",
    style: style(),
    ...(h.center ? { center: h.center, zoom: h.zoom } : { bounds: [[97.3, 5.6], [105.7, 20.5]], fitBoundsOptions: { padding: 10 } }),
    attributionControl: { compact: true },
    // The key travels as a header on our own tile and TileJSON requests only.
    transformRequest: (url) => (url.startsWith(`${origin}/tiles/`) ? { url, headers: { "X-API-Key": apiKey() } } : { url }),
  });
  state.map = map;
  window.droughtMap = map; // for tests and the console
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }));
  // MapLibre reports tile and TileJSON failures as AJAXError with the HTTP status: said in words here.
  map.on("error", (e) => {
    const code = e.error?.status;
    if (code === 401) rejectKey(friendly(401));
    else status(code ? friendly(code) : "The map could not load part of its data.");
  });
  map.on("load", () => {
    // The attribution starts folded (its "i" opens it): on a phone it would cover much of the map.
    map.getContainer().querySelector(".maplibregl-ctrl-attrib")?.classList.remove("maplibregl-compact-show");
    refreshDroughtLayer(map);
    refreshBoxLayers(map);
    refreshOutbreak(map);
    addProvinceLabels(map).catch(failed);
    if (h.at) selectPoint(h.at);
    writeHash(false);
    document.body.dataset.ready = "map";
  });
  map.on("moveend", () => {
    refreshBoxLayers(map);
    writeHash(false);
  });
  map.on("idle", () => updateCountryLabels(map));
  map.on("click", (e) => select(placeAt(map, e.point, e.lngLat)));
  return map;
}

/** The controls' handlers: each change redraws what it touches, the panel follows, the address records it. */
function wireControls() {
  const layerChanged = (name) => {
    const map = state.map;
    if (!map) return;
    if (name === "drought") refreshDroughtLayer(map);
    else if (name === "outbreak") refreshOutbreak(map);
    else refreshBoxLayers(map, name);
    panelFollowsLayers(name);
    writeHash(true);
  };
  for (const name of LAYER_NAMES) $(`layer-${name}`).onchange = () => layerChanged(name);
  $("outbreak-disease").onchange = () => layerChanged("outbreak");
  const droughtChanged = () => {
    state.map?.getSource("drought").setUrl(droughtUrl());
    renderDetail();
    writeHash(true);
  };
  $("index").onchange = () => {
    state.index = $("index").value;
    droughtChanged();
  };
  $("month").onchange = () => {
    if (!$("month").value || $("month").value === state.month) return;
    state.month = $("month").value;
    droughtChanged();
  };
  $("panel").addEventListener("click", (e) => onPanelClick(e).catch(failed));
  $("drawer-toggle").onclick = () => openDrawer(!$("controls").classList.contains("open"));
  $("change-key").onclick = (e) => {
    e.preventDefault();
    showKeyForm(true);
  };
  $("key-cancel").onclick = () => {
    status("");
    showKeyForm(false);
  };
  $("key-form").onsubmit = async (e) => {
    e.preventDefault();
    // A new key that is refused leaves the accepted one in use (the form stays open to try again).
    const previous = document.body.dataset.key === "accepted" ? apiKey() : "";
    sessionStorage.setItem(KEY_STORAGE, $("api-key").value.trim());
    $("api-key").value = "";
    if (!(await checkKey())) {
      if (previous && document.body.dataset.key === "rejected") {
        sessionStorage.setItem(KEY_STORAGE, previous);
        document.body.dataset.key = "accepted";
        status("That key was not accepted; the map goes on with the previous one.");
        showKeyForm(true);
      }
      return;
    }
    // A new key: a new map (sources that failed with the old key are asked again from scratch).
    if (state.map) {
      state.map.remove();
      state.labels = [];
      state.countryLabels = new Map();
      state.selection = null;
      $("panel").hidden = true;
    }
    openDrawer(false);
    startMap();
  };
  window.addEventListener("popstate", () => applyHash());
  window.addEventListener("hashchange", () => applyHash());
}

async function init() {
  renderLegends();
  const [legendRes, indexRes] = await Promise.all([fetch(`${origin}/tiles/legend.json`), fetch(`${origin}/tiles/index.json`)]);
  renderDroughtLegend((await legendRes.json()).data);
  const info = (await indexRes.json()).data;
  state.info = info;
  $("index").innerHTML = info.indices.map((i) => `<option value="${i}">${i === "spi1" ? "SPI (1-month)" : i}</option>`).join("");
  state.index = info.indices.includes("spei1") ? "spei1" : info.indices[0];
  $("index").value = state.index;
  state.month = info.defaultMonth;
  Object.assign($("month"), { min: info.firstMonth, max: info.lastMonth, value: info.defaultMonth });
  applyControls(readHash());
  wireControls();
  if (!apiKey()) {
    status("Enter an API key to load the map.");
    showKeyForm(true);
  } else if (await checkKey()) startMap();
}

init().catch((err) => status(err.message));
