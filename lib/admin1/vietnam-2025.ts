// Vietnam's provinces merged on 2025-07-01 (National Assembly Resolution 202/2025/QH15 of 12 June 2025): 63
// provincial units became 34, 23 of them new units formed from 52 old ones, each named after one of them (Huế after
// Thừa Thiên Huế, which it was). The boundary file and most data, the drought grid's included, use the 63 units, so a
// name of a new unit answers as the old unit of that name, and the answer names the units merged into it.

/** New unit → the old units it was formed from, the one it is named after first (names as the boundary file spells them). */
export const VIETNAM_2025_MERGERS: Readonly<Record<string, readonly string[]>> = {
  "Tuyên Quang": ["Tuyên Quang", "Hà Giang"],
  "Lào Cai": ["Lào Cai", "Yên Bái"],
  "Thái Nguyên": ["Thái Nguyên", "Bắc Kạn"],
  "Phú Thọ": ["Phú Thọ", "Vĩnh Phúc", "Hòa Bình"],
  "Bắc Ninh": ["Bắc Ninh", "Bắc Giang"],
  "Hưng Yên": ["Hưng Yên", "Thái Bình"],
  "Hải Phòng": ["Hải Phòng", "Hải Dương"],
  "Ninh Bình": ["Ninh Bình", "Hà Nam", "Nam Định"],
  "Quảng Trị": ["Quảng Trị", "Quảng Bình"],
  "Đà Nẵng": ["Đà Nẵng", "Quảng Nam"],
  "Quảng Ngãi": ["Quảng Ngãi", "Kon Tum"],
  "Gia Lai": ["Gia Lai", "Bình Định"],
  "Khánh Hòa": ["Khánh Hòa", "Ninh Thuận"],
  "Lâm Đồng": ["Lâm Đồng", "Đắk Nông", "Bình Thuận"],
  "Đắk Lắk": ["Đắk Lắk", "Phú Yên"],
  "TP. Hồ Chí Minh": ["TP. Hồ Chí Minh", "Bình Dương", "Bà Rịa - Vũng Tàu"],
  "Đồng Nai": ["Đồng Nai", "Bình Phước"],
  "Tây Ninh": ["Tây Ninh", "Long An"],
  "Cần Thơ": ["Cần Thơ", "Sóc Trăng", "Hậu Giang"],
  "Vĩnh Long": ["Vĩnh Long", "Bến Tre", "Trà Vinh"],
  "Đồng Tháp": ["Đồng Tháp", "Tiền Giang"],
  "Cà Mau": ["Cà Mau", "Bạc Liêu"],
  "An Giang": ["An Giang", "Kiên Giang"],
};

/** The 11 units the reform left as they were (Huế: Thừa Thiên Huế renamed). */
export const VIETNAM_2025_UNCHANGED: readonly string[] = [
  "Hà Nội", "Thừa Thiên Huế", "Lai Châu", "Điện Biên", "Sơn La", "Lạng Sơn", "Quảng Ninh", "Thanh Hóa", "Nghệ An", "Hà Tĩnh", "Cao Bằng",
];

export const VIETNAM_2025_EFFECTIVE = "2025-07-01";

/**
 * Units of the boundary file that are part of a province rather than provinces: Côn Đảo, a district of Bà Rịa - Vũng
 * Tàu drawn as a unit of its own, went with it into TP. Hồ Chí Minh.
 */
export const VIETNAM_2025_PART_OF: Readonly<Record<string, string>> = { "Côn Đảo": "Bà Rịa - Vũng Tàu" };
