// The affected-area geometry of each recent GDACS flood, from GDACS' own API (polygons/getgeometry): the event
// search answers points, so a nightly refresh asks for the polygons of every flood of its window that the
// previous night's archive listed (eventid and episodeid). Files land in feeds/gdacs/geometry/FL-<id>.geojson,
// where the flood builder reads their "Poly_Affected" features (gdacs.ts gdacsFloodAffectedAreas).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const GDACS_GEOMETRY_DIR = "feeds/gdacs/geometry";
/** Floods whose geometry a refresh asks for: those that started within this many days. */
export const GEOMETRY_WINDOW_DAYS = 60;

/** The geometry endpoint beside the search endpoint (…/gdacsapi/api/events/geteventlist/SEARCH → …/api/polygons/getgeometry). */
export function geometryEndpoint(searchOrigin: string): string {
  const base = searchOrigin.replace(/\/events\/geteventlist\/SEARCH\/?$/, "").replace(/\/$/, "");
  return `${base}/polygons/getgeometry`;
}

export interface GeometryRequest {
  id: string;
  url: string;
  file: string;
}

/**
 * One request per flood of the archive that started within the window before `now`: its point feature carries
 * eventid and episodeid. An unreadable archive lists nothing (the search download is checked on its own).
 */
export function geometryRequests(archivePath: string | undefined, searchOrigin: string, now: Date): GeometryRequest[] {
  if (!archivePath || !existsSync(archivePath)) return [];
  let fc: { features?: { geometry?: { type?: string } | null; properties?: Record<string, unknown> | null }[] };
  try {
    fc = JSON.parse(readFileSync(archivePath, "utf8"));
  } catch {
    return [];
  }
  const since = now.getTime() - GEOMETRY_WINDOW_DAYS * 86_400_000;
  const out = new Map<string, GeometryRequest>();
  for (const f of fc.features ?? []) {
    const p = f.properties ?? {};
    if (f.geometry?.type !== "Point" || String(p.eventtype) !== "FL") continue;
    const eventId = String(p.eventid ?? "");
    const episodeId = String(p.episodeid ?? "");
    const from = Date.parse(String(p.fromdate ?? ""));
    if (!/^\d+$/.test(eventId) || !/^\d+$/.test(episodeId) || !(from >= since)) continue;
    const id = `FL-${eventId}`;
    out.set(id, { id, url: `${geometryEndpoint(searchOrigin)}?eventtype=FL&eventid=${eventId}&episodeid=${episodeId}`, file: join("geometry", `${id}.geojson`) });
  }
  return [...out.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}
