// Event hazards (wildfire, storm): every event within the radius weighted by intensity and distance, the long-record
// rate and the recent window to today (scoring.ts), from the record that answers the point. A record under a year gives
// no level unless it covers the window to today (docs/methods/currency.md). What differs between hazards (which record
// answers, an event's intensity, the record's details) is each hazard's EventHazard (wildfire.ts, storm.ts). Pure: the
// snapshot and the point's place in, the answer out.
import { riskLevel } from "../drought-scale.ts";
import type { EventRecord, FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { DAY_MS, eventScore, TIMEFRAME_DAYS, scoreEvents, type IntensityFn, type RecordWindow } from "./scoring.ts";
import { clockNow, HORIZON_DAYS } from "../currency.ts";
import { recentDetails, recentText, recentWindow } from "./recent-window.ts";
import { MIN_RATE_YEARS, notCovered, onLandOrCoast, recordConfidence, span, type AssessQuery, type Assessment, type Place } from "./answer.ts";
import { r1, r2 } from "../round.ts";
import { isoDay as day } from "../days.ts";

const year = (iso: string) => iso.slice(0, 4);

/** The record an answer counts over, its window and its name in the answer. */
export interface ChosenRecord {
  window: RecordWindow;
  record?: EventRecord;
  dataset: string;
  period: { start: string; end: string };
}

/** What one event hazard decides for itself; assessEvents does the rest the same way for every hazard. */
export interface EventHazard {
  /** The events in prose, plural ("fire detections"). */
  noun: string;
  /** The record of the snapshot (with boxes) that answers the point; undefined when none holds it. May throw a NotCoveredError naming why. */
  chooseRecord(s: FeedSnapshot, q: AssessQuery, place: Place): EventRecord | undefined;
  /** The recent window's reference count for a window of this many days. */
  recentRef(params: Record<string, number>, windowDays: number): number;
  /** The intensity of one event on the scale the rate reference is calibrated on; may refuse a record it cannot put on that scale. */
  intensity(s: FeedSnapshot, chosen: ChosenRecord): IntensityFn;
  /** Details of the answering record under the hazard's own keys. */
  recordDetails(s: FeedSnapshot, rec: EventRecord, recordYears: number): Record<string, unknown>;
  /** Text after the record's period in "in the <record> (<period><this>)". */
  recordLabel(rec: EventRecord): string;
  /** Sentence appended to the summary ("" for none). */
  summaryNote(rec: EventRecord | undefined, recordYears: number): string;
  /** Confidence: the full-record share and the basis text (answer.ts recordConfidence). */
  confidence: { full: number; basis: string };
}

/** The record an event answer counts over: the hazard's record for the point when the records have boxes, else the whole snapshot. */
function chooseRecord(s: FeedSnapshot, q: AssessQuery, place: Place, hazard: EventHazard): ChosenRecord {
  const { meta } = s;
  const ev = s.events!;
  const records = s.records ?? [];
  const dataset = records.length ? records.map((r) => `${r.name} ${r.start}..${r.end}`).join(" + ") : meta.dataSources.join(" + ");
  const whole = { start: meta.recordStart.slice(0, 10), end: meta.asOf.slice(0, 10) };
  if (!records.some((r) => r.bbox)) return { window: { start: Date.parse(meta.recordStart), years: meta.recordYears }, dataset, period: whole };
  const rec = hazard.chooseRecord(s, q, place);
  if (!rec || rec.years === undefined) throw new Error(`${meta.riskType} snapshot: no record answers this point`);
  const setNo = rec.set === undefined ? -1 : ev.sets.indexOf(rec.set);
  const window: RecordWindow = {
    start: Date.parse(rec.start),
    years: rec.years,
    ...(rec.windStart ? { rateStart: Date.parse(rec.windStart), rateYears: rec.windYears } : {}),
    ...(setNo >= 0 ? { inRecord: (g: number) => ev.groupSet[g] === setNo } : {}),
  };
  return { window, record: rec, dataset: `${rec.name} ${rec.start}..${rec.end}`, period: { start: rec.start, end: rec.end } };
}

/** The assessor of an event hazard (lib/feed-risk/assess.ts). */
export const eventAssessor = (hazard: EventHazard) => (s: FeedSnapshot, q: AssessQuery, place: Place) => assessEvents(s, q, place, hazard);

function assessEvents(s: FeedSnapshot, q: AssessQuery, place: Place, hazard: EventHazard): Assessment {
  const { meta } = s;
  const ev = s.events!;
  if (meta.coverage.surface === "land" && !onLandOrCoast(place)) {
    throw notCovered(s, `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
  }
  const windowDays = TIMEFRAME_DAYS[q.timeframe];
  const p = { radiusKm: meta.params.radiusKm, decayKm: meta.params.decayKm, annualRateRef: meta.params.annualRateRef, recentRef: hazard.recentRef(meta.params, windowDays) };
  const chosen = chooseRecord(s, q, place, hazard);
  const recordYears = chosen.window.years;
  const now = q.now ?? clockNow();
  // A rate needs a record of a year or more: a 48-hour or two-month fire file gives no events per year, no return
  // period and no level. It answers only while it covers the requested window up to today: then the answer is the
  // current activity, labelled so (docs/methods/currency.md#no-level-from-a-record-under-a-year).
  const intensity = hazard.intensity(s, chosen);
  const rated = recordYears >= MIN_RATE_YEARS;
  const recordStart = Date.parse(chosen.period.start);
  const dataEnd = chosen.record ? Date.parse(chosen.period.end) + DAY_MS - 1 : Date.parse(meta.asOf);
  const win = recentWindow(now, windowDays, recordStart, dataEnd, HORIZON_DAYS.daily);
  if (!rated && win.observed !== "full") {
    throw notCovered(
      s,
      `the ${hazard.noun.replace(/s$/, "")} record here, ${chosen.dataset}, spans ${span(recordYears)}: too short for a level (a record of ${MIN_RATE_YEARS} year at least), and it does not cover the ${q.timeframe} to ${day(now)}`,
    );
  }
  const asOf = win.end;
  const near = ev.near(q.lat, q.lng, p.radiusKm);
  const h = scoreEvents(ev, near, intensity, p, asOf, windowDays, chosen.window);
  if (!rated) h.score = eventScore(0, h.recentWeighted, p);
  const magnitude = (i: number) => (Number.isFinite(ev.magnitude[i]) ? r2(ev.magnitude[i]) : null);
  const describe = (c: { index: number; distanceKm: number; weight: number }) => ({
    id: ev.groups.get(ev.group[c.index]),
    name: ev.names.get(c.index),
    source: ev.sources[ev.sourceNo[c.index]],
    date: day(ev.time[c.index]),
    endDate: day(ev.endTime[c.index]),
    distanceKm: r1(c.distanceKm),
    magnitude: magnitude(c.index),
    unit: meta.unit,
    weight: Math.round(c.weight * 1000) / 1000,
  });
  const rec = chosen.record;
  const details: Record<string, unknown> = {
    radiusKm: p.radiusKm,
    decayKm: p.decayKm,
    record: { start: chosen.period.start, end: chosen.period.end, years: r2(recordYears), days: r1(recordYears * 365.2425) },
    eventsInRadius: h.eventCount,
    eventsPerYear: rated ? r2(h.eventCount / recordYears) : null,
    weightedAnnualRate: rated ? Math.round(h.annualRate * 1000) / 1000 : null,
    returnPeriodYears: rated && h.returnPeriodYears !== null ? r1(h.returnPeriodYears) : null,
    ...(rated ? {} : { rateNote: `a record of ${span(recordYears)} is too short for a rate (${MIN_RATE_YEARS} year at least): no events per year, no return period; the score is the activity over the whole record, to its end` }),
    recent: {
      ...recentDetails(q.timeframe, win),
      events: win.observed === "none" ? null : h.recentCount,
      weighted: win.observed === "none" ? null : Math.round(h.recentWeighted * 1000) / 1000,
      ...(rated ? {} : { currentActivity: true }),
    },
    baseline: `${chosen.dataset}; λref ${p.annualRateRef}/yr, recent ref ${r2(p.recentRef)}`,
    contributingEvents: h.strongest.map(describe),
  };
  if (rec) Object.assign(details, hazard.recordDetails(s, rec, recordYears));
  if (q.includeHistorical) {
    const byYear = new Map<number, number>();
    for (const c of h.contributions) {
      const y = new Date(ev.time[c.index]).getUTCFullYear();
      byYear.set(y, (byYear.get(y) ?? 0) + 1);
    }
    const y0 = Number(year(chosen.period.start));
    const y1 = new Date(Math.min(asOf, dataEnd)).getUTCFullYear();
    details.historical = { eventsPerYear: Array.from({ length: y1 - y0 + 1 }, (_, i) => ({ year: y0 + i, events: byYear.get(y0 + i) ?? 0 })) };
  }
  const top = h.strongest[0];
  const topMagnitude = top === undefined ? null : magnitude(top.index);
  const topText = top
    ? ` Strongest: ${ev.names.get(top.index)} (${ev.sources[ev.sourceNo[top.index]]}, ${day(ev.time[top.index])}, ${r1(top.distanceKm)} km, ${topMagnitude === null ? "no wind reported" : `${topMagnitude} ${meta.unit}`}).`
    : "";
  const where = rec ? ` in the ${rec.name} (${chosen.period.start}..${chosen.period.end}${hazard.recordLabel(rec)})` : "";
  const windText = rec?.windStart
    ? ` Intensity weights use the storms from ${rec.windStart.slice(0, 4)} on (wind reported from then).`
    : "";
  const summary =
    (h.eventCount === 0
      ? `No ${hazard.noun} within ${p.radiusKm} km${where || ` in ${chosen.dataset}`}, ${span(recordYears)} searched`
      : `${h.eventCount} ${hazard.noun} within ${p.radiusKm} km${where} over ${span(recordYears)}` +
        (h.returnPeriodYears === null || !rated ? "" : ` (one every ${span(h.returnPeriodYears)})`)) +
    (rated ? `; ${recentText(q.timeframe, win, h.recentCount)}.` : ".") +
    `${topText}${windText}` +
    (rated ? "" : ` Current activity: the record (${span(recordYears)}) is too short for a rate; it covers the ${q.timeframe} to ${day(now)}.`) +
    hazard.summaryNote(rec, recordYears);
  return {
    riskScore: h.score,
    riskLevel: riskLevel(h.score),
    summary,
    details,
    coverage: { country: place.country, dataset: chosen.dataset, period: chosen.period, area: meta.coverage.description },
    dataSources: meta.dataSources,
    ...recordConfidence(recordYears, hazard.confidence.full, hazard.confidence.basis),
    time: { period: { from: chosen.period.start, to: day(dataEnd) }, asOf: day(dataEnd), cadence: "daily" },
  };
}

