// The view taken from the address (back, forward, a pasted link): the controls, the map, the layers and the selected
// place follow the hash that address.js writes.
/* global location, URLSearchParams */
import { $ } from "./dom.js";
import { DISEASE_NAMES, LAYER_NAMES, enabledLayers, refreshBoxLayers, refreshDroughtLayer, refreshOutbreak, droughtUrl } from "./layers.js";
import { select, panelFollowsLayers } from "./panel.js";
import { state } from "./state.js";

export function readHash() {
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

/** Index, month, layers and disease from the address onto the controls (before the map or on back/forward). */
export function applyControls(h) {
  if (h.index) $("index").value = state.index = h.index;
  if (h.month) $("month").value = state.month = h.month;
  if (h.layers) for (const name of LAYER_NAMES) $(`layer-${name}`).checked = h.layers.includes(name);
  if (h.disease) $("outbreak-disease").value = h.disease;
}

/** Back, forward or an edited address: the map, the layers and the panel take the address's view. */
export async function applyHash() {
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
export function selectPoint(at) {
  const map = state.map;
  const go = () => {
    const prov = map.queryRenderedFeatures(map.project([at.lng, at.lat]), { layers: ["provinces-fill"] })[0];
    select({ lat: at.lat, lng: at.lng, ...(prov ? { province: { code: prov.properties.code, name: prov.properties.nameEn } } : {}) }, { push: false });
  };
  if (map.loaded() && map.areTilesLoaded()) go();
  else map.once("idle", go);
}
