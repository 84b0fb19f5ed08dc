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
  /** Country → its provinces' indices, in the artifacts' order. */
  private readonly byCountry = new Map<string, number[]>();

  constructor(private readonly provinces: readonly NamedProvince[]) {
    this.countries = [...new Set(provinces.map((p) => p.country))];
    provinces.forEach((p, i) => {
      const own = this.byCountry.get(p.country) ?? [];
      own.push(i);
      this.byCountry.set(p.country, own);
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
    return { unknown: closeMatches(this.of(country).map((i) => this.provinces[i]), name, 3).map((m) => m.nameEn) };
  }

  /** The provinces of a country, by index (none for a country outside the version). */
  of(country: string): readonly number[] {
    return this.byCountry.get(country) ?? [];
  }
}
