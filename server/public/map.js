// The risk map page: MapLibre GL JS (served by this service from node_modules), the drought raster, province and
// country outlines from /tiles, and a layer for each other answer (outbreak burden by area, storm tracks, flood and
// wildfire events, heatwave stations, tide gauges, ports by congestion), each with a legend in the colours it is
// drawn in. A click anywhere opens that place's profile (GET /api/risk-map/profile: every risk, outbreak and the
// nearest port) with the clicked feature's own figures and the drought values of the chosen month and index; each
// part says which endpoint gives its full answer. The view (centre, zoom, layers, index, month, disease, selected
// place) lives in the address's hash. The API key is asked once, kept in sessionStorage and sent only as the
// X-API-Key header (MapLibre transformRequest for tiles, fetch headers for the API): never in a URL or a log.
/* global window, document, sessionStorage, fetch */
import * as maplibregl from "/map/vendor/maplibre-gl/maplibre-gl.mjs";

import { writeHash } from "./js/address.js";
import { readHash, applyControls, applyHash, selectPoint } from "./js/view.js";
import { KEY_STORAGE, origin, apiKey, friendly, failed, showKeyForm, rejectKey, checkKey } from "./js/api.js";
import { $, openDrawer, status } from "./js/dom.js";
import { addProvinceLabels, updateCountryLabels } from "./js/labels.js";
import { renderDroughtLegend, renderLegends, LAYER_NAMES, refreshBoxLayers, refreshDroughtLayer, refreshOutbreak, style, droughtUrl } from "./js/layers.js";
import { renderDetail, select, placeAt, panelFollowsLayers, onPanelClick } from "./js/panel.js";
import { state } from "./js/state.js";


// ---------------------------------------------------------------------------------------------------------------
// The map.

function startMap() {
  const h = readHash();
  const map = new maplibregl.Map({
    container: "map",
    style: style(),
    ...(h.center ? { center: h.center, zoom: h.zoom } : { bounds: [[97.3, 0.8], [119.3, 23.4]], fitBoundsOptions: { padding: 10 } }),
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
