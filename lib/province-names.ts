// Province names as lookup keys, and "did you mean" matches: used by the build (alias table) and the server
// (province endpoint).

export interface ProvinceAliases {
  code: string; // "TH-10"
  nameEn: string;
  nameTh: string;
  /** Distinct spellings (case-insensitively distinct), canonical names first. */
  aliases: string[];
}

export const THAI = /[\u0E00-\u0E7F]/;
// Zero-width characters (ZWSP, ZWNJ, ZWJ, BOM) appear in copied Thai text and are never meaningful in a name.
export const ZERO_WIDTH = /[\u200B-\u200D\uFEFF]/g;

/**
 * Lookup key of a name. Latin text: NFKD, diacritics stripped, lower case, everything but letters and digits dropped
 * (spaces, hyphens, apostrophes, dots), so "Buri Ram" = "buriram" = "Burī-Rām". Thai text is kept as is after trimming
 * and removing zero-width characters: NFKD would split SARA AM and stripping marks would delete Thai vowels and tones.
 */
export function normalizeName(s: string): string {
  const t = s.replace(ZERO_WIDTH, "").trim();
  if (THAI.test(t)) return t;
  return t
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * A looser key for Latin names, tolerant of the common variants of Thai romanisation: final "rn" for "n"
 * (Samutprakarn / Samut Prakan), aspirates written with or without "h" (ph/p, th/t, kh/k), doubled vowels
 * (Chaiyaphoom / Chaiyaphum is not covered: only doubled letters, "ee"/"e", "oo"/"o"), on top of normalizeName's
 * dropping of spaces, hyphens and diacritics. Two provinces may share a loose key: then the name is ambiguous.
 * Thai text is returned as normalizeName gives it.
 */
export function looseName(s: string): string {
  const n = normalizeName(s);
  if (THAI.test(n)) return n;
  return n
    .replace(/rn/g, "n")
    .replace(/([ptk])h/g, "$1")
    .replace(/([aeiou])\1+/g, "$1");
}

export interface CloseMatch {
  code: string;
  nameEn: string;
  /** Edit distance between the normalised query and the nearest alias of this province. */
  distance: number;
}

/**
 * The k provinces whose nearest alias is closest to the query (optimal-string-alignment Damerau–Levenshtein over
 * normalised names), for "did you mean" details in 404 answers. Ties keep province order.
 */
export function closeMatches(table: readonly ProvinceAliases[], query: string, k = 3): CloseMatch[] {
  const q = normalizeName(query);
  const best = table.map((e) => {
    let d = Infinity;
    for (const a of e.aliases) d = Math.min(d, damerauLevenshtein(q, normalizeName(a)));
    return { code: e.code, nameEn: e.nameEn, distance: d };
  });
  return best
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.distance - b.m.distance || a.i - b.i)
    .slice(0, k)
    .map((x) => x.m);
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), by code units. */
export function damerauLevenshtein(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  const w = m + 1;
  const d = new Uint16Array((n + 1) * w);
  for (let i = 0; i <= n; i++) d[i * w] = i;
  for (let j = 0; j <= m; j++) d[j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * w + j - 2] + 1);
      d[i * w + j] = v;
    }
  }
  return d[n * w + m];
}
