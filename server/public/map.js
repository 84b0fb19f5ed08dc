// The drought map page: MapLibre GL JS (served by this service from node_modules), the drought raster, province
// and country outlines from /tiles, the legend, and a panel of the API's drought values for a clicked province
// or point. The API key is asked once, kept in sessionStorage and sent only as the X-API-Key header
// (MapLibre transformRequest for tiles, fetch headers for the API), so it never appears in a URL or a log.
/* global window, document, sessionStorage, fetch */
import * as maplibregl from "/map/vendor/maplibre-gl/maplibre-gl.mjs";

const KEY_STORAGE = "climateRiskApiKey";
const origin = window.location.origin;
const $ = (id) => document.getElementById(id);
const state = { index: "spei1", month: "", map: null, selected: null };

function apiKey() {
  return sessionStorage.getItem(KEY_STORAGE) ?? "";
}

function status(text) {
  $("status").textContent = text;
}

async function getJson(path) {
  const res = await fetch(origin + path, { headers: { "X-API-Key": apiKey() } });
  const body = await res.json();
  if (!res.ok || body.success === false) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
  return body.data ?? body;
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
  for (const [k, v] of Object.entries(attrs)) panel.dataset[k] = v;
  panel.innerHTML =
    `<h2 id="panel-title">${title}</h2><table>` +
    rows.map(([k, v]) => `<tr><td>${k}</td><td class="v" data-field="${k}">${v}</td></tr>`).join("") +
    "</table>";
}

async function showProvince(name) {
  const d = await getJson(`/api/risk-map/drought/province?name=${encodeURIComponent(name)}&month=${state.month}`);
  showPanel(d.province, [
    ["month", d.month],
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
    ["grid cell", `${d.location.gridLat}, ${d.location.gridLng}`],
    ["score", fmt(d.drought.score, 1)],
    ["level", d.drought.level],
    ["severity", d.drought.severity.spei1 ?? "none"],
    ...["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"].map((k) => [k, fmt(i[k])]),
  ], { province: "", kind: "point" });
}

function style(index) {
  return {
    version: 8,
    sources: {
      countries: { type: "vector", url: `${origin}/tiles/countries.json` },
      drought: { type: "raster", url: droughtUrl(), tileSize: 256 },
      provinces: { type: "vector", url: `${origin}/tiles/provinces.json` },
    },
    layers: [
      { id: "sea", type: "background", paint: { "background-color": "#dfe9f3" } },
      { id: "countries-fill", type: "fill", source: "countries", "source-layer": "countries", paint: { "fill-color": "#f4f3ee" } },
      { id: "countries-line", type: "line", source: "countries", "source-layer": "countries", paint: { "line-color": "#9a9a9a", "line-width": 0.8 } },
      { id: "drought", type: "raster", source: "drought", paint: { "raster-opacity": 0.85, "raster-resampling": "nearest" } },
      { id: "provinces-fill", type: "fill", source: "provinces", "source-layer": "provinces", paint: { "fill-color": "#000", "fill-opacity": 0 } },
      { id: "provinces-line", type: "line", source: "provinces", "source-layer": "provinces", paint: { "line-color": "#555", "line-width": 0.6 } },
      {
        id: "province-selected", type: "line", source: "provinces", "source-layer": "provinces",
        filter: ["==", ["get", "code"], ""], paint: { "line-color": "#0040ff", "line-width": 2.5 },
      },
    ],
    metadata: { index },
  };
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
  map.on("error", (e) => status(e.error?.message ?? "map error"));
  map.on("click", async (e) => {
    try {
      const hit = map.queryRenderedFeatures(e.point, { layers: ["provinces-fill"] })[0];
      if (hit) {
        map.setFilter("province-selected", ["==", ["get", "code"], hit.properties.code]);
        await showProvince(hit.properties.nameEn);
      } else {
        await showPoint(e.lngLat);
      }
      status("");
    } catch (err) {
      status(err.message);
    }
  });
  $("index").onchange = () => {
    state.index = $("index").value;
    map.getSource("drought").setUrl(droughtUrl());
  };
  $("month").onchange = () => {
    if (!$("month").value) return;
    state.month = $("month").value;
    map.getSource("drought").setUrl(droughtUrl());
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
    if (state.map) state.map.setStyle(style(state.index));
    else startMap(info);
  };
  if (apiKey()) startMap(info);
  else status("Enter an API key to load the map.");
}

init().catch((err) => status(err.message));
