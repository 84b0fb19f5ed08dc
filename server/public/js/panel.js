// The panel: the clicked feature's own figures, the drought values of the chosen month and index, and the place's
// profile (every risk, outbreak and the nearest port, each with its period and the request of its full answer).
/* global document, fetch, navigator */
import * as maplibregl from "/map/vendor/maplibre-gl/maplibre-gl.mjs";
import { writeHash } from "./address.js";
import { origin, apiKey, getJson, apiCall, rejectKey } from "./api.js";
import { $, escapeHtml, fmt, round4, rowsTable, setSection, openDrawer } from "./dom.js";
import { DISEASE_NAMES, RISK_NAMES, FEATURE_LAYERS, LAYER_OF_MAP_LAYER, isOn, featureKey } from "./layers.js";
import { state } from "./state.js";

/** The clicked feature's own figures, from the layer's data (the scores there are in the profile). */
export function featureRows(f) {
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

export function renderFeature() {
  const f = state.selection?.feature;
  const rows = f && isOn(f.layer) ? featureRows(f) : null;
  if (!rows) return setSection("feature", "");
  const [title, table, attrs] = rows;
  const kind = f.layer === "ports" ? "port" : f.layer === "heatwave" || f.layer === "sea_level" ? `${f.layer}-station` : `${f.layer}-event`;
  setSection("feature", `<h3>${escapeHtml(title)}</h3>${rowsTable(table)}`, { kind, ...attrs });
}

/** The drought values of the chosen index and month: the province's, or the point's grid cell's. */
export async function renderDetail() {
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

/** The confidence of a part as "0.62 (medium)"; "–" where the answer has none. */
export function confidenceText(part) {
  if (part.confidence === null || part.confidence === undefined) return part.confidenceLabel ?? "–";
  return part.confidenceLabel ? `${fmt(part.confidence, 2)} (${part.confidenceLabel})` : fmt(part.confidence, 2);
}

export const levelChip = (level) => (level ? `<span class="level level-${escapeHtml(level)}">${escapeHtml(level)}</span>` : "–");

export const apiButton = (id) => `<button type="button" class="api-toggle" data-api="${id}" aria-expanded="false">API</button>`;

/** The hidden row under a part: its request, a copyable curl, its full answer on demand, its section of /docs. */
export function apiRow(id, call, colspan) {
  const what = `${call.method} ${call.path}${call.body ? ` with ${JSON.stringify(call.body)}` : ""}`;
  return (
    `<tr class="api-row" id="api-${id}" hidden><td colspan="${colspan}"><div data-field="request">${escapeHtml(what)}</div><code>${escapeHtml(call.curl)}</code>` +
    `<button type="button" class="copy">Copy curl</button><button type="button" class="show">Show the full answer</button>` +
    `<a href="${call.docs}" target="_blank" rel="noopener">In the API docs</a><pre class="answer" hidden></pre></td></tr>`
  );
}

/** One row of a risk or a disease (and its hidden API row): level, score, confidence, or its endpoint's error. */
export function partRows(kind, name, label, part, calls, extra = "") {
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
export function dataToCell(part) {
  if (!part.asOf) return `<td data-field="data to">–</td>`;
  const title = [part.period ? `data ${part.period.from}..${part.period.to}` : "", part.currency?.note ?? ""].filter(Boolean).join("; ");
  const old = part.currency && !part.currency.current;
  return `<td data-field="data to"${old ? ' class="not-current"' : ""} title="${escapeHtml(title)}">${escapeHtml(part.asOf)}${old ? " (not current)" : ""}</td>`;
}

export const HEAD = "<thead><tr><th></th><th>level</th><th>score</th><th>confidence</th><th>data to</th><th></th></tr></thead>";

/** The nearest port's congestion answer, or the reason there is none. */
export function portHtml(p, calls) {
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
export function renderProfile(sel, p) {
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

export async function loadProfile(sel, gen) {
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
export function select(sel, { push = true } = {}) {
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
export function placeAt(map, point, lngLat) {
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
export function panelFollowsLayers(changed) {
  if (!state.selection) return;
  renderFeature();
  if (!changed || changed === "drought") renderDetail();
  for (const tr of document.querySelectorAll("#profile tr[data-kind=outbreak]")) tr.classList.toggle("chosen", isOn("outbreak") && tr.dataset.part === $("outbreak-disease").value);
}

export async function onPanelClick(e) {
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
