// Header-keyed records over the project's RFC 4180 reader (pipeline/feeds/csv.ts), with required columns checked
// and the count parsing the WHO and OpenDengue files need.
import { parseCsv } from "../feeds/csv.ts";

/** Rows as header-keyed records; throws naming the source when a required column is missing. */
export function parseCsvRecords(text: string, source: string, required: readonly string[] = []): Record<string, string>[] {
  const rows = parseCsv(text);
  const header = rows.shift();
  if (header === undefined) throw new Error(`${source}: empty file`);
  for (const name of required) {
    if (!header.includes(name)) throw new Error(`${source}: missing column "${name}"`);
  }
  return rows.map((r) => {
    const rec: Record<string, string> = {};
    for (let c = 0; c < header.length; c++) rec[header[c]] = r[c] ?? "";
    return rec;
  });
}

/** A count field: "NA", "" and non-numbers are missing (NaN); GHO writes thousands with spaces ("28 569"). */
export function parseCount(s: string | undefined): number {
  if (s === undefined) return NaN;
  const t = s.replace(/\s/g, "");
  if (t === "" || t === "NA") return NaN;
  const n = Number(t);
  return Number.isFinite(n) ? n : NaN;
}
