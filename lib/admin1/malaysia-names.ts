// The names Malaysia's 13 states and 3 federal territories go by besides the boundary file's (geoBoundaries MYS ADM1,
// English names), by ISO 3166-2 code. Malay official names, the English ones, and older spellings still in use;
// "Wilayah Persekutuan" / "W.P." / "Federal Territory of" are left out by unitKey, so they need no entry of their own.
// No published variant list was found (../shared/data PROVENANCE.md): written from the states' own names.
export const MALAYSIA_NAMES: Readonly<Record<string, readonly string[]>> = {
  "MY-01": ["Johor", "Johore", "Johor Darul Ta'zim"],
  "MY-02": ["Kedah", "Kedah Darul Aman"],
  "MY-03": ["Kelantan", "Kelantan Darul Naim"],
  "MY-04": ["Melaka", "Malacca"],
  "MY-05": ["Negeri Sembilan", "Negri Sembilan", "Negeri Sembilan Darul Khusus"],
  "MY-06": ["Pahang", "Pahang Darul Makmur"],
  "MY-07": ["Pulau Pinang", "Penang"],
  "MY-08": ["Perak", "Perak Darul Ridzuan"],
  "MY-09": ["Perlis", "Perlis Indera Kayangan"],
  "MY-10": ["Selangor", "Selangor Darul Ehsan"],
  "MY-11": ["Terengganu", "Trengganu", "Terengganu Darul Iman"],
  "MY-12": ["Sabah"],
  "MY-13": ["Sarawak"],
  "MY-14": ["Kuala Lumpur", "KL"],
  "MY-15": ["Labuan"],
  "MY-16": ["Putrajaya"],
};
