// The risk map page: MapLibre GL JS (served by this service from node_modules), the drought raster, province
// and country outlines from /tiles, the legend, a panel of the API's drought values for a clicked province or
// point, and layers for the other answers (flood events, storm tracks, ports by congestion, outbreak status by
// country and Thai province), each with a legend and a click-through to the API's answer there. The API key is asked once, kept in sessionStorage and sent only as the X-API-Key header
// (MapLibre transformRequest for tiles, fetch headers for the API), so it never appears in a URL or a log.
/* global window, document, sessionStorage, fetch */
import * as maplibregl from "/map/vendor/maplibre-gl/maplibre-gl.mjs";

const KEY_STORAGE = "climateRiskApiKey";
const origin = window.location.origin;
const $ = (id) => document.getElementById(id);
const state = { index: "spei1", month: "", map: null, selected: null, labels: [], countryLabels: new Map() };

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

function postJson(path, body) {
  return getJson(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

/** A wrong key: forget it and ask again. */
function rejectKey(message) {
  sessionStorage.removeItem(KEY_STORAGE);
  document.body.dataset.key = "rejected";
  status(message);
  $("api-key").focus();
}

function droughtUrl() {
  return `${origin}/tiles/drought-${state.index}.json?month=${state.month}`;
}

function fmt(v, digits = 2) {
  return v === null || v === undefined || Number.isNaN(v) ? "–" : Number(v).toFixed(digits);
}

function renderLegend(legend) {
  const rows = legend.classes
    .filter((c) => c.key !== "none")
    .map((c) => `<div class="row"><span class="sw" style="background:${c.hex}"></span>${c.label}</div>`)
    .join("");
  $("legend").innerHTML = `<strong>${legend.title}</strong>${rows}`;
}

function showPanel(title, rows, attrs) {
  const panel = $("panel");
  for (const [k, v] of Object.entries({ ...attrs, index: state.index, month: state.month })) panel.dataset[k] = v;
  panel.innerHTML =
    `<h2 id="panel-title">${title}</h2><table>` +
    rows.map(([k, v]) => `<tr><td>${k}</td><td class="v" data-field="${k}">${v}</td></tr>`).join("") +
    "</table>";
}

async function showProvince(name) {
  const d = await getJson(`/api/risk-map/drought/province?name=${encodeURIComponent(name)}&month=${state.month}`);
  showPanel(d.province, [
    ["month", d.month],
    [`selected: ${state.index}`, fmt(d.indices[state.index])],
    ["score", fmt(d.score, 1)],
    ["level", d.level],
    ["severity", d.severity.spei1 ?? "none"],
    ["spei1", fmt(d.indices.spei1)],
    ["spei3", fmt(d.indices.spei3)],
    ["spei6", fmt(d.indices.spei6)],
  ], { province: d.province, kind: "province" });
}

async function showPoint(lngLat) {
  const lat = lngLat.lat.toFixed(4);
  const lng = lngLat.lng.toFixed(4);
  const d = await getJson(`/api/risk-map/drought?lat=${lat}&lng=${lng}&month=${state.month}`);
  const i = d.drought.indices;
  showPanel(`${lat}, ${lng}`, [
    ["month", d.period.month],
    [`selected: ${state.index}`, fmt(i[state.index])],
    ["grid cell", `${d.location.gridLat}, ${d.location.gridLng}`],
    ["score", fmt(d.drought.score, 1)],
    ["level", d.drought.level],
    ["severity", d.drought.severity.spei1 ?? "none"],
    ...["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"].map((k) => [k, fmt(i[k])]),
  ], { province: "", kind: "point" });
}

/** The panel follows the index and month: the selection is asked again. */
async function refreshPanel() {
  const sel = state.selected;
  if (!sel) return;
  try {
    if (sel.kind === "province") await showProvince(sel.name);
    else await showPoint(sel.lngLat);
    status("");
  } catch (err) {
    if (err.httpStatus === 401) rejectKey(err.message);
    else status(err.message);
  }
}

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

const EMPTY = { type: "FeatureCollection", features: [] };
/** Layers loaded for the visible box: the checkbox (layer-<name>), the map layer and the API request for a box. */
const BOX_LAYERS = {
  flood: { layer: "flood-events", path: (box) => `/api/risk-map/events?riskType=flood&limit=1000&bbox=${box}` },
  storm: { layer: "storm-tracks", path: (box) => `/api/risk-map/events?riskType=storm&since=2000-01-01&limit=400&bbox=${box}` },
  ports: { layer: "ports", path: (box) => `/api/supply-chain/ports?limit=1000&bbox=${box}` },
};
/** Outbreak fills by the burden's risk level (the score that compares places); news-only countries have no rate. */
const OUTBREAK_COLOURS = { critical: "#b30000", high: "#e34a33", medium: "#fdbb84", low: "#a1d99b", news_only: "#9e9ac8" };
const NO_FILL = "rgba(0,0,0,0)";
const DISEASE_NAMES = { dengue: "Dengue", malaria: "Malaria", cholera: "Cholera", covid: "COVID-19", influenza: "Influenza" };

/** The visible box, clamped to valid degrees, as the API's bbox. */
function viewBox(map) {
  const b = map.getBounds();
  const c = (v, lo, hi) => Math.min(hi, Math.max(lo, v)).toFixed(3);
  return `${c(b.getWest(), -180, 179.9)},${c(b.getSouth(), -90, 89.9)},${c(b.getEast(), -179.9, 180)},${c(b.getNorth(), -89.9, 90)}`;
}

/** Loads the features of every enabled box layer for the view (events, storm tracks, ports). */
async function refreshEvents(map) {
  // Legends and visibility at once, then the enabled layers' features side by side.
  const enabled = Object.entries(BOX_LAYERS).filter(([name, def]) => {
    const on = $(`layer-${name}`).checked;
    $(`legend-${name}`).hidden = !on;
    if (map.getLayer(def.layer)) map.setLayoutProperty(def.layer, "visibility", on ? "visible" : "none");
    return on && map.getLayer(def.layer);
  });
  const box = viewBox(map);
  await Promise.all(
    enabled.map(async ([name, def]) => {
      try {
        const fc = await getJson(def.path(box));
        map.getSource(name).setData(fc);
        document.body.dataset[`${name}Events`] = String(fc.features.length);
      } catch (err) {
        if (err.httpStatus === 401) rejectKey(err.message);
        else status(err.message);
      }
    }),
  );
}

/** An area's colour key: its risk level, or news_only where no count series (so no rate) exists. */
const outbreakColourKey = (a) => (a.outbreakStatus === "news_only" ? "news_only" : a.riskLevel);

/** A fill colour per area from its colour key: a MapLibre match on the property (id or code), transparent elsewhere. */
function levelFill(property, areas) {
  const groups = {};
  for (const [key, level] of areas) (groups[level] ??= []).push(key);
  const pairs = Object.entries(groups).flatMap(([level, keys]) => [keys, OUTBREAK_COLOURS[level] ?? NO_FILL]);
  return pairs.length ? ["match", ["get", property], ...pairs, NO_FILL] : NO_FILL;
}

/** The outbreak layer: every country's (and Thai province's) burden level for the chosen disease, as fills. */
async function refreshOutbreak(map) {
  const on = $("layer-outbreak").checked;
  $("legend-outbreak").hidden = !on;
  map.setLayoutProperty("outbreak-countries", "visibility", on ? "visible" : "none");
  if (!on) {
    map.setLayoutProperty("outbreak-provinces", "visibility", "none");
    return;
  }
  const disease = $("outbreak-disease").value;
  try {
    const d = await getJson(`/api/outbreak-radar/status?diseaseType=${disease}`);
    if (disease !== $("outbreak-disease").value) return; // another disease was chosen meanwhile
    map.setPaintProperty("outbreak-countries", "fill-color", levelFill("id", d.countries.filter((c) => c.isoNumeric).map((c) => [c.isoNumeric, outbreakColourKey(c)])));
    map.setPaintProperty("outbreak-provinces", "fill-color", levelFill("code", d.provinces.map((p) => [p.code, outbreakColourKey(p)])));
    map.setLayoutProperty("outbreak-provinces", "visibility", d.provinces.length ? "visible" : "none");
    $("outbreak-note").textContent =
      `${DISEASE_NAMES[disease]}: ${d.countries.length} countries` + (d.provinces.length ? ` and ${d.provinces.length} Thai provinces` : "") +
      ` with data (uncoloured: none); news as of ${d.newsAsOf}. Click an area for its answer.`;
    document.body.dataset.outbreakDisease = disease;
    document.body.dataset.outbreakAreas = String(d.countries.length + d.provinces.length);
  } catch (err) {
    if (err.httpStatus === 401) rejectKey(err.message);
    else status(err.message);
  }
}

/** A port clicked: the API's congestion answer for it (by its code, else its position). */
async function showPort(feature) {
  const p = feature.properties;
  const [lng, lat] = feature.geometry.coordinates;
  const d = await postJson("/api/supply-chain/query", p.code ? { portCode: p.code, queryType: "congestion" } : { lat, lng, queryType: "congestion" });
  const why = d.details.missing.find((m) => m.startsWith("congestionIndex:"));
  showPanel(d.port.name, [
    ["port", d.port.code ?? "–"],
    ["congestion index", d.congestionIndex ?? "–"],
    ...(why ? [["why no index", why.slice("congestionIndex: ".length)]] : []),
    ["latest day", d.details.activity?.latestDay ?? "–"],
    ["port calls, 7 days", d.vesselCount ?? "–"],
    ["disruption risk", d.disruptionRisk],
  ], { province: "", kind: "port", port: p.code ?? p.name });
}

/** An area clicked with the outbreak layer on: the API's outbreak answer at that point for the chosen disease. */
async function showOutbreak(lngLat) {
  const disease = $("outbreak-disease").value;
  const body = { lat: Number(lngLat.lat.toFixed(4)), lng: Number(lngLat.lng.toFixed(4)), diseaseType: disease };
  try {
    const d = await postJson("/api/outbreak-radar/query", body);
    const area = d.province ?? d.country;
    showPanel(`${DISEASE_NAMES[disease]} in ${area.name}`, [
      ["status", d.outbreakStatus],
      ["score", fmt(d.riskScore, 1)],
      ["level", d.riskLevel],
      ["trend", d.trend],
      ["cases in window", d.caseEstimate ?? "–"],
      ["as of", d.asOf],
    ], { province: "", kind: "outbreak", area: area.code });
  } catch (err) {
    if (err.httpStatus === 401) return rejectKey(err.message);
    showPanel(`${DISEASE_NAMES[disease]}: no data here`, [["", err.message]], { province: "", kind: "outbreak", area: "" });
  }
}

/** An event or a track clicked: its details and the API's score at that place for its risk type. */
async function showEvent(feature, lngLat, riskType) {
  const p = feature.properties;
  // A point the feed does not cover (404) still shows the event, with the API's reason in place of the score.
  let score = null;
  let why = "";
  try {
    score = await postJson("/api/risk-map/score", { lat: Number(lngLat.lat.toFixed(4)), lng: Number(lngLat.lng.toFixed(4)), riskType, timeframe: "1y" });
  } catch (err) {
    if (err.httpStatus === 401) throw err;
    why = err.message;
  }
  showPanel(p.name, [
    ["source", p.source],
    ["from", p.start],
    ["to", p.end],
    [riskType === "storm" ? "highest wind (kt)" : "magnitude", p.magnitude ?? "–"],
    [`${riskType} score here`, score ? fmt(score.riskScore, 1) : why],
    [`${riskType} level`, score ? score.riskLevel : "–"],
    // How far to trust the level (docs/methods/feed-risks.md#confidence): a level without it would read as certain.
    [`${riskType} confidence`, score ? `${fmt(score.details.confidence, 2)} (${score.details.confidenceLabel})` : "–"],
  ], { province: "", kind: `${riskType}-event`, event: p.id });
}

function style(index) {
  return {
    version: 8,
    sources: {
      countries: { type: "vector", url: `${origin}/tiles/countries.json` },
      drought: { type: "raster", url: droughtUrl(), tileSize: 256 },
      provinces: { type: "vector", url: `${origin}/tiles/provinces.json` },
      flood: { type: "geojson", data: EMPTY },
      storm: { type: "geojson", data: EMPTY },
      ports: { type: "geojson", data: EMPTY },
    },
    layers: [
      { id: "sea", type: "background", paint: { "background-color": "#dfe9f3" } },
      { id: "countries-fill", type: "fill", source: "countries", "source-layer": "countries", paint: { "fill-color": "#f4f3ee" } },
      { id: "drought", type: "raster", source: "drought", paint: { "raster-opacity": 0.85, "raster-resampling": "nearest" } },
      { id: "outbreak-countries", type: "fill", source: "countries", "source-layer": "countries", layout: { visibility: "none" }, paint: { "fill-color": NO_FILL } },
      { id: "countries-line", type: "line", source: "countries", "source-layer": "countries", paint: { "line-color": "#9a9a9a", "line-width": 0.8 } },
      { id: "provinces-fill", type: "fill", source: "provinces", "source-layer": "provinces", paint: { "fill-color": "#000", "fill-opacity": 0 } },
      { id: "outbreak-provinces", type: "fill", source: "provinces", "source-layer": "provinces", layout: { visibility: "none" }, paint: { "fill-color": NO_FILL } },
      { id: "provinces-line", type: "line", source: "provinces", "source-layer": "provinces", paint: { "line-color": "#555", "line-width": 0.6 } },
      {
        id: "province-selected", type: "line", source: "provinces", "source-layer": "provinces",
        filter: ["==", ["get", "code"], ""], paint: { "line-color": "#0040ff", "line-width": 2.5 },
      },
      {
        id: "storm-tracks", type: "line", source: "storm", layout: { visibility: "none", "line-cap": "round" },
        paint: {
          "line-width": 2,
          "line-color": ["step", ["coalesce", ["get", "magnitude"], 0], "#7fb3d5", 34, "#e0b100", 64, "#e67e22", 96, "#c0392b"],
        },
      },
      {
        id: "flood-events", type: "circle", source: "flood", layout: { visibility: "none" },
        paint: {
          "circle-radius": 5,
          "circle-stroke-width": 1,
          "circle-stroke-color": "#222",
          "circle-color": ["case", ["==", ["get", "source"], "DFO"], "#1f5fa8", ["step", ["coalesce", ["get", "magnitude"], 1], "#3cb44b", 2, "#f58231", 3, "#e6194b"]],
        },
      },
      {
        id: "ports", type: "circle", source: "ports", layout: { visibility: "none" },
        paint: {
          "circle-radius": 5,
          "circle-stroke-width": 1,
          "circle-stroke-color": "#222",
          "circle-color": ["case", ["==", ["typeof", ["get", "congestionIndex"]], "number"], ["step", ["get", "congestionIndex"], "#2c7bb6", 25, "#1a9641", 75, "#fdae61", 90, "#d7191c"], "#9e9e9e"],
        },
      },
    ],
    metadata: { index },
  };
}

/** The map loaded with the key: clear the messages and add what needs the API (unless a 401 came first). */
function accepted(map) {
  if (document.body.dataset.key === "rejected") return;
  document.body.dataset.key = "accepted";
  status("");
  refreshEvents(map);
  refreshOutbreak(map);
  addProvinceLabels(map).catch((err) => (err.httpStatus === 401 ? rejectKey(err.message) : status(err.message)));
}

function startMap(info) {
  const map = new maplibregl.Map({
    container: "map",
    style: style(state.index),
    bounds: [[97.3, 5.6], [105.7, 20.5]],
    fitBoundsOptions: { padding: 10 },
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
  map.on("load", () => accepted(map));
  map.on("moveend", () => refreshEvents(map));
  map.on("idle", () => updateCountryLabels(map));
  for (const name of Object.keys(BOX_LAYERS)) $(`layer-${name}`).onchange = () => refreshEvents(map);
  $("layer-outbreak").onchange = () => refreshOutbreak(map);
  $("outbreak-disease").onchange = () => refreshOutbreak(map);
  map.on("click", async (e) => {
    const around = [[e.point.x - 4, e.point.y - 4], [e.point.x + 4, e.point.y + 4]];
    const visible = (l) => map.getLayoutProperty(l, "visibility") === "visible";
    const event = map.queryRenderedFeatures(around, { layers: ["ports", "flood-events", "storm-tracks"].filter(visible) })[0];
    if (event) {
      state.selected = null;
      try {
        const at = event.geometry.type === "Point" ? { lng: event.geometry.coordinates[0], lat: event.geometry.coordinates[1] } : e.lngLat;
        if (event.layer.id === "ports") await showPort(event);
        else await showEvent(event, at, event.layer.id === "flood-events" ? "flood" : "storm");
        status("");
      } catch (err) {
        if (err.httpStatus === 401) rejectKey(err.message);
        else status(err.message);
      }
      return;
    }
    if (visible("outbreak-countries")) {
      state.selected = null;
      await showOutbreak(e.lngLat);
      return;
    }
    const hit = map.queryRenderedFeatures(e.point, { layers: ["provinces-fill"] })[0];
    if (hit) {
      map.setFilter("province-selected", ["==", ["get", "code"], hit.properties.code]);
      state.selected = { kind: "province", name: hit.properties.nameEn };
    } else {
      state.selected = { kind: "point", lngLat: e.lngLat };
    }
    await refreshPanel();
  });
  $("index").onchange = () => {
    state.index = $("index").value;
    map.getSource("drought").setUrl(droughtUrl());
    refreshPanel();
  };
  $("month").onchange = () => {
    if (!$("month").value) return;
    state.month = $("month").value;
    map.getSource("drought").setUrl(droughtUrl());
    refreshPanel();
  };
  document.body.dataset.ready = "map";
  return info;
}

async function init() {
  const [legendRes, indexRes] = await Promise.all([fetch(`${origin}/tiles/legend.json`), fetch(`${origin}/tiles/index.json`)]);
  renderLegend((await legendRes.json()).data);
  const info = (await indexRes.json()).data;
  $("index").innerHTML = info.indices.map((i) => `<option value="${i}">${i === "spi1" ? "SPI (1-month)" : i}</option>`).join("");
  state.index = info.indices.includes("spei1") ? "spei1" : info.indices[0];
  $("index").value = state.index;
  state.month = info.defaultMonth;
  Object.assign($("month"), { min: info.firstMonth, max: info.lastMonth, value: info.defaultMonth });
  $("key-form").onsubmit = (e) => {
    e.preventDefault();
    sessionStorage.setItem(KEY_STORAGE, $("api-key").value.trim());
    $("api-key").value = "";
    document.body.dataset.key = "checking";
    status("Loading the map…");
    // A new key: a new map (sources that failed with the old key are asked again from scratch).
    if (state.map) {
      state.map.remove();
      state.labels = [];
      state.countryLabels = new Map();
    }
    startMap(info);
  };
  if (apiKey()) startMap(info);
  else status("Enter an API key to load the map.");
}

init().catch((err) => status(err.message));
