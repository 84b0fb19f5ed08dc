// Small DOM and text helpers of the map page: element by id, HTML escaping, number formatting, the status line, a
// section of the panel.
/* global document */

export const $ = (id) => document.getElementById(id);

export function status(text) {
  $("status").textContent = text;
}

export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

export function fmt(v, digits = 2) {
  return v === null || v === undefined || Number.isNaN(v) ? "–" : Number(v).toFixed(digits);
}

// ---------------------------------------------------------------------------------------------------------------
// The key: asked once, checked with GET /api/ping; the form goes away once the key is accepted ("Change key" brings
// it back).

export const round4 = (v) => Number(v.toFixed(4));

/** A table of [label, value] rows; each value cell names its field (data-field) for readers and tests. */
export function rowsTable(rows) {
  return "<table>" + rows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td class="v" data-field="${escapeHtml(k)}">${escapeHtml(v)}</td></tr>`).join("") + "</table>";
}

export function setSection(id, html, attrs = {}) {
  const el = $(id);
  for (const k of Object.keys(el.dataset)) delete el.dataset[k];
  Object.assign(el.dataset, attrs);
  el.innerHTML = html;
}

/** Opens or closes the controls drawer (phones). */
export function openDrawer(open) {
  $("controls").classList.toggle("open", open);
  $("drawer-toggle").setAttribute("aria-expanded", String(open));
}
