// The storm hooks of the event assessment (events.ts): the basin's track record whose box holds the point, wind on the
// scale of scoring.ts INTENSITY, and the track record in the answer's details (docs/methods/feed-risks.md, "Storm").
import type { EventHazard } from "./events.ts";
import { inBbox, span } from "./answer.ts";
import { INTENSITY } from "./scoring.ts";
import { r1 } from "../round.ts";

/** A storm record shorter than this samples a basin's cyclones too thinly for a return period to mean much. */
const SHORT_STORM_RECORD_YEARS = 10;
const shortStormRecordNote = (years: number) =>
  `Only the recent global record (${span(years)}) reaches this basin here: its rates come from those years alone; the long record (IBTrACS since 1980 for every basin) answers where a refresh brings it, the West Pacific record does now.`;

/** Tropical cyclones in the event assessment. */
export const STORM: EventHazard = {
  noun: "tropical cyclones",
  chooseRecord: (s, q) => (s.records ?? []).find((r) => r.bbox && inBbox(r.bbox, q.lat, q.lng)),
  recentRef: (params) => params.recentRef,
  intensity: () => INTENSITY.storm,
  recordDetails: (_s, rec, recordYears) => ({
    trackRecord: {
      id: rec.id,
      name: rec.name,
      start: rec.start,
      end: rec.end,
      years: r1(recordYears),
      windStart: rec.windStart ?? rec.start,
      windYears: r1(rec.windYears ?? recordYears),
      ...(recordYears < SHORT_STORM_RECORD_YEARS ? { note: shortStormRecordNote(recordYears) } : {}),
    },
  }),
  recordLabel: () => "",
  summaryNote: (_rec, recordYears) => (recordYears < SHORT_STORM_RECORD_YEARS ? ` ${shortStormRecordNote(recordYears)}` : ""),
  confidence: { full: 0.8, basis: "IBTrACS best tracks within 300 km" },
};
