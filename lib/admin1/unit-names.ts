// Lookup keys for the first-level units of Vietnam and Malaysia (provinces, states, federal territories): the
// province key of lib/province-names.ts (diacritics, case, spaces and punctuation dropped) with "Đ" read as "D" and
// the administrative words around a name left out, so "TP. Hồ Chí Minh", "Ho Chi Minh City" and "hochiminh" are one
// key, and "W.P. Kuala Lumpur" is "Kuala Lumpur".
import { normalizeName } from "../province-names.ts";

/**
 * Words that say what kind of unit a name is, not which, compared after normalizing: before a name the Vietnamese
 * (thành phố / TP, tỉnh) and Malay (Wilayah Persekutuan / W.P.) and English (federal territory) ones, after it the
 * English ones (city, province, state). Only in those places: "Hà Tĩnh" ends in "tinh", and "Negeri Sembilan" is a
 * name, not the word "negeri" before one.
 */
const BEFORE = ["thanhpho", "tp", "tinh", "wilayahpersekutuan", "wp", "federalterritoryof", "federalterritory"];
const AFTER = ["city", "province", "state"];

/** A unit's name as a lookup key: "TP. Hồ Chí Minh" → "hochiminh", "Đắk Lắk" → "daklak", "W.P. Labuan" → "labuan". */
export function unitKey(name: string): string {
  let key = normalizeName(name).replace(/đ/g, "d");
  // Taken off repeatedly: "Thanh pho Ho Chi Minh city".
  for (let changed = true; changed; ) {
    changed = false;
    for (const w of BEFORE) {
      if (key.length > w.length && key.startsWith(w)) {
        key = key.slice(w.length);
        changed = true;
      }
    }
    for (const w of AFTER) {
      if (key.length > w.length && key.endsWith(w)) {
        key = key.slice(0, -w.length);
        changed = true;
      }
    }
  }
  return key;
}
