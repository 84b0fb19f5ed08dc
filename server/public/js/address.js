// The view in the address's hash (centre, zoom, layers, index, month, disease, selected place), as the page writes it;
// view.js applies an address to the page.
/* global history, location */
import { $ } from "./dom.js";
import { enabledLayers } from "./layers.js";
import { state } from "./state.js";


export function hashText() {
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

export function writeHash(push) {
  if (!state.map || state.applyingHash) return;
  const hash = hashText();
  state.appliedHash = hash;
  if (hash === location.hash) return;
  history[push ? "pushState" : "replaceState"](null, "", hash);
}




// ---------------------------------------------------------------------------------------------------------------
// Labels.
