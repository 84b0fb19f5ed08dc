// The time of an answer (lib/currency.ts, docs/methods/currency.md): the period its data span, the newest datum it
// used and whether that datum reaches the present. Every answer's `details` carries these three fields.
import { z } from "zod";
import { HORIZON_DAYS } from "../lib/currency.ts";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");

export const dataPeriod = z
  .object({ from: day, to: day })
  .describe("the span of the data the answer rests on, as days (both ends included)");

export const currency = z
  .object({
    current: z.boolean().describe("the newest datum used is within the series' horizon of today; false: the answer describes the period, not the present"),
    cadence: z.enum(["daily", "weekly", "monthly", "yearly"]).describe("how often the series used is released"),
    horizonDays: z.int().describe(`how long after its newest datum a series counts as current: ${Object.entries(HORIZON_DAYS).map(([k, v]) => `${k} ${v}`).join(", ")} days`),
    ageDays: z.int().min(0).describe("whole days from the end of asOf to today"),
    note: z.string().describe("the same in one sentence"),
  })
  .describe("whether the answer's data reach the present (docs/methods/currency.md)");

/** The three time fields of every answer's details. */
export const timeFields = {
  period: dataPeriod,
  asOf: day.describe("the newest datum the answer used (never later than period.to)"),
  currency,
};

export const timeDetails = z.object(timeFields);
