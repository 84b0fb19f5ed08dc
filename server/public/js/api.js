// The API client of the map page and its key form: the key kept in sessionStorage and sent only as X-API-Key, JSON requests with
// friendly errors, and the request behind each answer (curl line, /docs section).
/* global document, fetch, sessionStorage, window */
import { $, openDrawer, status } from "./dom.js";

export const KEY_STORAGE = "climateRiskApiKey";

export const origin = window.location.origin;

export function apiKey() {
  return sessionStorage.getItem(KEY_STORAGE) ?? "";
}

/** An error a person can act on, from an HTTP status (API answers and MapLibre's tile errors alike). */
export function friendly(httpStatus, apiMessage) {
  if (httpStatus === 401) return "The API key was not accepted. Check it and enter it again.";
  if (httpStatus === 403) return "This API key may not use this part of the service.";
  if (httpStatus === 429) return "Too many requests for this key right now: wait a moment and try again.";
  if (httpStatus === 404) return apiMessage ?? "No data here.";
  if (httpStatus === 503) return "The service is loading its data: try again in a moment.";
  if (httpStatus >= 500) return "The service had a problem answering; try again.";
  return apiMessage ?? "The request failed.";
}

export class RequestError extends Error {
  constructor(httpStatus, apiMessage) {
    super(friendly(httpStatus, apiMessage));
    this.httpStatus = httpStatus;
  }
}

export async function getJson(path, init = {}) {
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
export function failed(err) {
  if (err.httpStatus === 401) rejectKey(err.message);
  else status(err.message);
}

/** The operation of each endpoint a part names, for its section of /docs. */
export const OPERATIONS = {
  "/api/risk-map/score": "riskScore",
  "/api/outbreak-radar/query": "outbreakRadarQuery",
  "/api/supply-chain/query": "supplyChainQuery",
  "/api/risk-map/profile": "profileAtPoint",
};

/**
 * How to get a full answer: the request the profile names for the part (as curl, the key left as $KEY) and the
 * operation in /docs.
 */
export function apiCall({ method, path, body }) {
  const url = origin + path;
  const curl = body
    ? `curl -s -H "X-API-Key: $KEY" -H "Content-Type: application/json" -d '${JSON.stringify(body)}' "${url}"`
    : `curl -s -H "X-API-Key: $KEY" "${url}"`;
  return { method, path, body, curl, docs: `/docs#operation/${OPERATIONS[path.split("?")[0]] ?? ""}` };
}

// The API key form: shown until a key is accepted, and again when the API refuses it.
export function showKeyForm(show) {
  $("key-form").hidden = !show;
  $("key-state").hidden = show || document.body.dataset.key !== "accepted";
  $("key-cancel").hidden = !(show && document.body.dataset.key === "accepted");
  if (show) {
    openDrawer(true);
    $("api-key").focus();
  }
}

/** A wrong key: forget it and ask again. */
export function rejectKey(message) {
  sessionStorage.removeItem(KEY_STORAGE);
  document.body.dataset.key = "rejected";
  status(message);
  showKeyForm(true);
}

export async function checkKey() {
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
