// The outbreak radar service: wires the snapshot to a point's place, each disease's assessment and part, the answer.
import { log, type Logger } from "../../lib/log.ts";
import { OUTBREAK_DATA_FILE, OUTBREAK_SNAPSHOT } from "../../formats/outbreak-snapshot.ts";
import type { SurveilledDisease } from "../../lib/outbreaks/series.ts";
import type { Geography } from "../../lib/geo/geography.ts";
import { sharedGeography } from "../../lib/feed-risk/place.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import { openOutbreakSnapshot, type OutbreakSnapshot } from "../data/outbreak-snapshot.ts";
import type { OutbreakBody, OutbreakData, OutbreakStatusData, OutbreakStatusQuery } from "../schemas-outbreak.ts";
import { clockNow } from "../../lib/currency.ts";
import { isoDay } from "../../lib/days.ts";
import { newsAbout } from "./outbreak-assessment.ts";
import { countryNotCurrent, countryStatus, provinceStatuses, queryAnswer, statusCountries, type Gathered } from "./outbreak-answer.ts";
import { isNotCurrent, newsOnlyPart, noDataReason, notCoveredError, seriesPart, type NotCurrent, type Part } from "./outbreak-part.ts";
import { placeOf, type Place } from "./outbreak-place.ts";

export { openOutbreakSnapshot, type OutbreakSnapshot } from "../data/outbreak-snapshot.ts";

/** Order of the diseases in a general answer. */
const GENERAL_ORDER: readonly SurveilledDisease[] = ["dengue", "malaria", "cholera", "covid", "influenza"];

/** The answer of the outbreak routes (and of a profile's outbreak parts) in a process without an outbreak snapshot. */
export const OUTBREAK_NOT_CONFIGURED = "The outbreak radar is not configured on this server";

export interface OutbreakService {
  query(q: OutbreakBody): OutbreakData;
  status(q: OutbreakStatusQuery): OutbreakStatusData;
  dataVersion(): string;
}

/**
 * Outbreak radar answers from the outbreak snapshot, worldwide. Per disease the answer rests on, in this order, the
 * Thai province series (dengue), the country's national series, the WHO Disease Outbreak News items about the
 * disease in the country (news only), or nothing: then 404 NOT_FOUND naming the coverage. Method:
 * docs/methods/outbreaks.md.
 */
export class SnapshotOutbreakService implements OutbreakService {
  constructor(
    private readonly store: ArtifactStore<OutbreakSnapshot>,
    geography: Geography | (() => Geography),
    private readonly now: () => Date = () => new Date(clockNow()),
  ) {
    this.geographyOf = typeof geography === "function" ? geography : () => geography;
  }

  /** Built on first use (lib/feed-risk/place.ts): a server without outbreak data never pays for it. */
  private readonly geographyOf: () => Geography;

  /** Location-independent parts (national series, news only) per "disease country timeframe", per snapshot version, for one day of the clock: their currency and texts count to today. */
  private readonly parts = new WeakMap<OutbreakSnapshot, { day: string; parts: Map<string, Part | NotCurrent> }>();

  private get geography(): Geography {
    return this.geographyOf();
  }

  dataVersion(): string {
    return this.store.versionOrNone();
  }

  query(q: OutbreakBody): OutbreakData {
    const snap = this.store.require().data;
    const place = placeOf(snap, this.geography, q.lat, q.lng);
    const nowDate = this.now();
    const now = nowDate.getTime();
    const general = q.diseaseType === "general";
    const diseases = general ? GENERAL_ORDER : [q.diseaseType as SurveilledDisease];
    const gathered: Gathered = { parts: [], notCovered: [], notCurrent: [] };
    for (const d of diseases) {
      const part = this.part(snap, d, place, q, now);
      if (typeof part === "string") {
        if (!general) throw notCoveredError(snap, d, place, q, part);
        gathered.notCovered.push(part);
      } else if (isNotCurrent(part)) {
        // general: a disease whose score would rest on a window without current data is listed with its reason, not counted.
        if (!general) throw part.error;
        gathered.notCovered.push(part.reason);
        gathered.notCurrent.push(d);
      } else gathered.parts.push(part);
    }
    return queryAnswer(snap, place, q, diseases, gathered, this.geography.coastalToleranceKm, nowDate);
  }

  /**
   * Every area's status for one disease (the map's outbreak layer): each country as the query answers for a point
   * in it (national series, else news only), and each Thai province with a province series.
   */
  status(q: OutbreakStatusQuery): OutbreakStatusData {
    const snap = this.store.require().data;
    const d = q.diseaseType;
    const query: OutbreakBody = { lat: 0, lng: 0, diseaseType: d, timeframe: q.timeframe };
    const now = this.now().getTime();
    const countries: OutbreakStatusData["countries"] = [];
    const notCurrent: OutbreakStatusData["notCurrent"] = [];
    for (const code of statusCountries(snap, d)) {
      const countryName = this.geography.countryName(code) ?? code;
      const part = this.part(snap, d, { country: code, countryName, province: -1 }, query, now);
      if (typeof part === "string") continue;
      if (isNotCurrent(part)) notCurrent.push(countryNotCurrent(code, countryName, part));
      else countries.push(countryStatus(code, part));
    }
    const provinces = provinceStatuses(snap, d, q.timeframe, now);
    return { diseaseType: d, timeframe: q.timeframe, newsAsOf: snap.data.newsAsOf, countries, provinces, notCurrent };
  }

  /** The part of one disease at a place, a string "disease: why there is no data", or why its data are not current. */
  private part(snap: OutbreakSnapshot, d: SurveilledDisease, place: Place, q: OutbreakBody, now: number): Part | NotCurrent | string {
    if (place.province >= 0) {
      const s = snap.series.get(`${d} ${snap.data.provinces[place.province].code}`);
      if (s !== undefined) return seriesPart(snap, s, place, q, now);
    }
    // The parts count ages to today: the cache holds one version's parts of one day.
    const today = isoDay(now);
    let cache = this.parts.get(snap);
    if (cache === undefined || cache.day !== today) this.parts.set(snap, (cache = { day: today, parts: new Map() }));
    const key = `${d} ${place.country} ${q.timeframe}`;
    const cached = cache.parts.get(key);
    if (cached !== undefined) return cached;
    const national = snap.series.get(`${d} ${place.country}`);
    let part: Part | NotCurrent | undefined;
    if (national !== undefined) part = seriesPart(snap, national, place, q, now);
    else if (newsAbout(snap, place.country, d, today).length > 0) part = newsOnlyPart(snap, d, place, now);
    if (part === undefined) return noDataReason(snap, d, place);
    cache.parts.set(key, part);
    return part;
  }
}

export interface OutbreakServiceOptions {
  /** The geography to locate points with; default the process's shared one (lib/feed-risk/place.ts, built once). */
  geography?: Geography;
  /** The service clock ("today" for currency, ages and news windows); default clockNow (CLOCK_TODAY fixes it). */
  now?: () => Date;
}

/** Opens the outbreak snapshot store under ARTIFACTS_DIR/snapshots/outbreaks and its service. */
export async function openOutbreakService(
  artifactsDir: string,
  logger: Logger = log,
  options: OutbreakServiceOptions = {},
): Promise<{ service: SnapshotOutbreakService; store: ArtifactStore<OutbreakSnapshot> }> {
  const store = new ArtifactStore<OutbreakSnapshot>({
    root: snapshotRoot(artifactsDir, OUTBREAK_SNAPSHOT),
    open: openOutbreakSnapshot,
    openedFiles: new Set([OUTBREAK_DATA_FILE]),
    logger,
    kind: OUTBREAK_SNAPSHOT,
    label: "outbreak snapshot",
  });
  await store.reload();
  store.start();
  return { service: new SnapshotOutbreakService(store, options.geography ?? sharedGeography, options.now), store };
}
