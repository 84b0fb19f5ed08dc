// A province of the drought region by country and any of its spellings, for the province routes: Thai names by the
// keys of province-names.ts (exact, then the looser romanisation key), Vietnamese and Malaysian ones by
// admin1/unit-names.ts's unitKey (diacritics, "Đ", "TP.", "W.P." and "city" left out). Built once per version.
import { unitKey } from "./admin1/unit-names.ts";
import { closeMatches, looseName, normalizeName } from "./province-names.ts";

export interface NamedProvince {
  code: string;
  country: string;
  nameEn: string;
  nameTh: string;
  slug: string;
  aliases: string[];
}

/** What find answers: the province's index, or why there is none. */
export type ProvinceMatch = { province: number } | { ambiguous: number[] } | { unknown: string[] };

const exactKey = (country: string, name: string) => (country === "THA" ? normalizeName(name) : unitKey(name));

export class ProvinceLookup {
  /** The countries with provinces, in the artifacts' order. */
  readonly countries: string[];
  private readonly exact = new Map<string, number>();
  private readonly loose = new Map<string, number[]>();

  constructor(private readonly provinces: readonly NamedProvince[]) {
    this.countries = [...new Set(provinces.map((p) => p.country))];
    provinces.forEach((p, i) => {
      for (const name of [p.code, p.code.slice(3), p.nameEn, p.nameTh, p.slug, ...p.aliases]) {
        if (name === "") continue;
        const key = `${p.country} ${exactKey(p.country, name)}`;
        const prev = this.exact.get(key);
        if (prev !== undefined && prev !== i) throw new Error(`alias "${name}" names two provinces (${provinces[prev].code}, ${p.code})`);
        this.exact.set(key, i);
      }
      if (p.country !== "THA") return;
      for (const name of [p.nameEn, p.slug, ...p.aliases]) {
        const key = looseName(name);
        const list = this.loose.get(key) ?? [];
        if (!list.includes(i)) list.push(i);
        this.loose.set(key, list);
      }
    });
  }

  /** The province of `country` named `name`; ambiguous and unknown names come with the names to offer instead. */
  find(country: string, name: string): ProvinceMatch {
    const exact = this.exact.get(`${country} ${exactKey(country, name)}`);
    if (exact !== undefined) return { province: exact };
    if (country === "THA") {
      const loose = this.loose.get(looseName(name)) ?? [];
      if (loose.length === 1) return { province: loose[0] };
      if (loose.length > 1) return { ambiguous: loose };
    }
    const own = this.provinces.filter((p) => p.country === country);
    return { unknown: closeMatches(own, name, 3).map((m) => m.nameEn) };
  }

  /** The provinces of a country, by index. */
  of(country: string): number[] {
    const out: number[] = [];
    this.provinces.forEach((p, i) => p.country === country && out.push(i));
    return out;
  }
}
