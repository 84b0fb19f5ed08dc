// WHO Disease Outbreak News items as the outbreak snapshot stores them and the radar serves them.
export const DON_SOURCE = "WHO Disease Outbreak News dataset (Torres Munguía et al. 2022, Sci Data 9:683)";

export type NewsDisease = "dengue" | "influenza" | "covid" | "cholera" | "malaria" | "other";

export interface NewsItem {
  id: string; // "DON2938"
  date: string; // YYYY-MM-DD
  disease: NewsDisease;
  /** Disease as named in the dataset ("Influenza due to identified zoonotic or pandemic influenza virus"). */
  diseaseName: string;
  /** Country as the dataset names it, and its ISO alpha-3 code. */
  country: string;
  iso3: string;
  link: string;
}

const DAY_MS = 86_400_000;

/** Items (newest first) dated within the `days` days up to `asOf` (YYYY-MM-DD). */
export function newsWithin(items: readonly NewsItem[], asOf: string, days: number): NewsItem[] {
  const to = Date.parse(asOf);
  const from = to - days * DAY_MS;
  return items.filter((n) => {
    const t = Date.parse(n.date);
    return t > from && t <= to;
  });
}
