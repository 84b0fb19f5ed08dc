// Event hazards (wildfire, storm): every event within the radius weighted by intensity and distance, the long-record
// rate and the recent window to today (scoring.ts), from the record that answers the point (a storm basin's track
// record, a fire file's extent). A record under a year gives no level unless it covers the window to today
// (docs/methods/currency.md). Pure: the snapshot and the point's place in, the answer out.
import { riskLevel } from "../drought-scale.ts";
import type { EventRecord, FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { DAY_MS, INTENSITY, eventScore, TIMEFRAME_DAYS, scoreEvents, type RecordWindow } from "./scoring.ts";
import { clockNow, HORIZON_DAYS } from "../currency.ts";
import { recentDetails, recentText, recentWindow } from "./recent-window.ts";
import { inBbox, MIN_RATE_YEARS, notCovered, onLandOrCoast, recordConfidence, span, type AssessQuery, type Assessment, type Place } from "./answer.ts";
import { r1, r2 } from "../round.ts";
import { isoDay as day } from "../days.ts";
import { chooseFireRecord, sensorLabel, wildfireIntensity } from "./wildfire.ts";

const year = (iso: string) => iso.slice(0, 4);

const NOUN: Record<string, string> = { flood: "flood events", wildfire: "fire detections", storm: "tropical cyclones" };

/** The record an event answer counts over: the storm track record whose box holds the point, else the whole snapshot. */
function chooseRecord(s: FeedSnapshot, q: AssessQuery, place: Place): { window: RecordWindow; record?: EventRecord; dataset: string; period: { start: string; end: string } } {
  const { meta } = s;
  const ev = s.events!;
  const records = s.records ?? [];
  const dataset = records.length ? records.map((r) => `${r.name} ${r.start}..${r.end}`).join(" + ") : meta.dataSources.join(" + ");
  const whole = { start: meta.recordStart.slice(0, 10), end: meta.asOf.slice(0, 10) };
  const byBox = records.some((r) => r.bbox);
  if (meta.riskType === "flood" || !byBox) return { window: { start: Date.parse(meta.recordStart), years: meta.recordYears }, dataset, period: whole };
  const rec = meta.riskType === "wildfire" ? chooseFireRecord(records, q.lat, q.lng, place.country) : records.find((r) => r.bbox && inBbox(r.bbox, q.lat, q.lng));
  if (!rec && meta.riskType === "wildfire") throw notCovered(s, "outside the extent of every fire file (a country's file answers only inside that country)");
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

export function assessEvents(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  const { meta } = s;
  const ev = s.events!;
  const type = meta.riskType as "flood" | "wildfire" | "storm";
  if (meta.coverage.surface === "land" && !onLandOrCoast(place)) {
    throw notCovered(s, `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
  }
  const windowDays = TIMEFRAME_DAYS[q.timeframe];
  // Wildfire: the recent window's reference is never below the rate reference's share of that window (λref × days /
  // 365.25): a year of detections weighs as a year of the rate, a week as before (recentRef).
  const recentRef = type === "wildfire" ? Math.max(meta.params.recentRef, (meta.params.annualRateRef * windowDays) / 365.2425) : meta.params.recentRef;
  const p = { radiusKm: meta.params.radiusKm, decayKm: meta.params.decayKm, annualRateRef: meta.params.annualRateRef, recentRef };
  const chosen = chooseRecord(s, q, place);
  const recordYears = chosen.window.years;
  const now = q.now ?? clockNow();
  // A rate needs a record of a year or more: a 48-hour or two-month fire file gives no events per year, no return
  // period and no level. It answers only while it covers the requested window up to today: then the answer is the
  // current activity, labelled so (docs/methods/currency.md#no-level-from-a-record-under-a-year).
  // Wildfire: VIIRS detections count 1/k of a MODIS one (k measured where both sensors overlap, lib/feed-risk/wildfire.ts).
  const viirsPerModis = type === "wildfire" && Number.isFinite(meta.params.viirsPerModis) ? meta.params.viirsPerModis : undefined;
  const viirsUnscaled = type === "wildfire" && chosen.record?.sensors?.VIIRS !== undefined && viirsPerModis === undefined;
  if (viirsUnscaled && recordYears >= MIN_RATE_YEARS) {
    throw notCovered(s, `the fire record here, ${chosen.dataset}, holds VIIRS detections and no record of this snapshot gives a MODIS/VIIRS factor (both sensors over the same days): no level on the MODIS scale`);
  }
  const rated = recordYears >= MIN_RATE_YEARS;
  const recordStart = Date.parse(chosen.period.start);
  const dataEnd = chosen.record ? Date.parse(chosen.period.end) + DAY_MS - 1 : Date.parse(meta.asOf);
  const win = recentWindow(now, windowDays, recordStart, dataEnd, HORIZON_DAYS.daily);
  if (!rated && win.observed !== "full") {
    throw notCovered(
      s,
      `the ${NOUN[type].replace(/s$/, "")} record here, ${chosen.dataset}, spans ${span(recordYears)}: too short for a level (a record of ${MIN_RATE_YEARS} year at least), and it does not cover the ${q.timeframe} to ${day(now)}`,
    );
  }
  const asOf = win.end;
  const near = ev.near(q.lat, q.lng, p.radiusKm);
  const intensity = type === "wildfire" ? wildfireIntensity(viirsPerModis) : INTENSITY[type];
  const h = scoreEvents(ev, near, intensity, p, asOf, windowDays, chosen.window);
  if (!rated) h.score = eventScore(0, h.recentWeighted, p);
  const magnitude = (i: number) => (Number.isFinite(ev.magnitude[i]) ? r2(ev.magnitude[i]) : null);
  const describe = (c: { index: number; distanceKm: number; weight: number }) => ({
    id: ev.groups[ev.group[c.index]],
    name: ev.names[c.index],
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
  if (rec && type === "wildfire") {
    details.fireRecord = {
      id: rec.id,
      name: rec.name,
      start: rec.start,
      end: rec.end,
      days: r1(recordYears * 365.2425),
      years: r2(recordYears),
      sensor: sensorLabel(rec.sensors),
      sensors: rec.sensors ?? {},
      ...(rec.country ? { country: rec.country } : {}),
    };
    details.sensorScale = viirsPerModis !== undefined
      ? { viirsPerModis: r2(viirsPerModis), note: `each VIIRS detection weighs 1/${r2(viirsPerModis)} of a MODIS one: the VIIRS/MODIS ratio of weighted detections where both sensors saw the same area on the same days` }
      : { viirsPerModis: null, note: rec.sensors?.VIIRS ? "no MODIS/VIIRS factor measured in this snapshot (no record with both sensors on the same days): VIIRS detections count as they are, several per fire that MODIS sees once, and give no level" : "MODIS detections only: the scale the rate reference is calibrated on" };
  }
  else if (rec) {
    details.trackRecord = {
      id: rec.id,
      name: rec.name,
      start: rec.start,
      end: rec.end,
      years: r1(recordYears),
      windStart: rec.windStart ?? rec.start,
      windYears: r1(rec.windYears ?? recordYears),
      ...(recordYears < SHORT_STORM_RECORD_YEARS ? { note: shortStormRecordNote(recordYears) } : {}),
    };
  }
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
    ? ` Strongest: ${ev.names[top.index]} (${ev.sources[ev.sourceNo[top.index]]}, ${day(ev.time[top.index])}, ${r1(top.distanceKm)} km, ${topMagnitude === null ? "no wind reported" : `${topMagnitude} ${meta.unit}`}).`
    : "";
  const where = rec ? ` in the ${rec.name} (${chosen.period.start}..${chosen.period.end}${type === "wildfire" ? `, ${sensorLabel(rec.sensors)}` : ""})` : "";
  const windText = rec?.windStart
    ? ` Intensity weights use the storms from ${rec.windStart.slice(0, 4)} on (wind reported from then).`
    : "";
  const summary =
    (h.eventCount === 0
      ? `No ${NOUN[type]} within ${p.radiusKm} km${where || ` in ${chosen.dataset}`}, ${span(recordYears)} searched`
      : `${h.eventCount} ${NOUN[type]} within ${p.radiusKm} km${where} over ${span(recordYears)}` +
        (h.returnPeriodYears === null || !rated ? "" : ` (one every ${span(h.returnPeriodYears)})`)) +
    (rated ? `; ${recentText(q.timeframe, win, h.recentCount)}.` : ".") +
    `${topText}${windText}` +
    (rated ? "" : ` Current activity: the record (${span(recordYears)}) is too short for a rate; it covers the ${q.timeframe} to ${day(now)}.`) +
    (type === "storm" && recordYears < SHORT_STORM_RECORD_YEARS ? ` ${shortStormRecordNote(recordYears)}` : "");
  return {
    riskScore: h.score,
    riskLevel: riskLevel(h.score),
    summary,
    details,
    coverage: { country: place.country, dataset: chosen.dataset, period: chosen.period, area: meta.coverage.description },
    dataSources: meta.dataSources,
    ...recordConfidence(recordYears, type === "storm" ? 0.8 : 0.7, type === "storm" ? "IBTrACS best tracks within 300 km" : "satellite fire detections (FIRMS) within 100 km"),
    time: { period: { from: chosen.period.start, to: day(dataEnd) }, asOf: day(dataEnd), cadence: "daily" },
  };
}


/** A storm record shorter than this samples a basin's cyclones too thinly for a return period to mean much. */
const SHORT_STORM_RECORD_YEARS = 10;
const shortStormRecordNote = (years: number) =>
  `Only the recent global record (${span(years)}) reaches this basin here: its rates come from those years alone; the long record (IBTrACS since 1980 for every basin) answers where a refresh brings it, the West Pacific record does now.`;

