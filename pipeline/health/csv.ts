// A small RFC 4180 CSV reader for the health extracts: quoted fields with doubled quotes and embedded newlines
// (the WHO DON texts), CRLF or LF. Rows come back as objects keyed by the header.

/** Parses CSV text into rows of fields. */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // BOM
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== "");
}

/** Rows as header-keyed records; throws naming the source when a required column is missing. */
export function parseCsvRecords(text: string, source: string, required: readonly string[] = []): Record<string, string>[] {
  const rows = parseCsvRows(text);
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
