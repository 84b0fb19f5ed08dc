// A small RFC 4180 CSV reader: quoted fields with doubled quotes and embedded commas/newlines. The feeds are
// a few MB at most, so the whole text is split at once.

export function parseCsv(text: string, sep = ","): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === sep) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      field = "";
      if (row.length > 1 || row[0] !== "") rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Rows as objects keyed by the header row (trimmed names). */
export function csvObjects(text: string, sep = ","): { header: string[]; rows: Record<string, string>[] } {
  const all = parseCsv(text, sep);
  const header = (all[0] ?? []).map((h) => h.trim());
  const rows = all.slice(1).map((r) => {
    const o: Record<string, string> = {};
    header.forEach((h, j) => (o[h] = (r[j] ?? "").trim()));
    return o;
  });
  return { header, rows };
}

/** Number of a CSV field; blank or non-numeric → NaN. */
export function num(s: string | undefined): number {
  if (s === undefined) return NaN;
  const t = s.trim();
  return t === "" ? NaN : Number(t);
}
