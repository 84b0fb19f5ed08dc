// Colour classes of the drought rasters. The dry side is the D0–D4 scale of lib/drought-scale.ts with the U.S.
// Drought Monitor colours; the wet side mirrors the same thresholds (W0–W4) with ColorBrewer GnBu colours.
// Class 0 is "no data" and is fully transparent. Documented in docs/methods/tiles.md.
import { droughtLevel, D_LEVEL_NAMES } from "../lib/drought-scale.ts";

export interface ColourClass {
  /** Class number written into the tile (0 = no data). */
  id: number;
  key: string;
  label: string;
  /** Index value range [min, max], inclusive where the thresholds of droughtLevel() are inclusive. */
  min: number | null;
  max: number | null;
  rgba: readonly [number, number, number, number];
  hex: string;
}

function cls(id: number, key: string, label: string, min: number | null, max: number | null, hex: string, alpha = 255): ColourClass {
  const n = Number.parseInt(hex.slice(1), 16);
  return { id, key, label, min, max, rgba: [(n >> 16) & 255, (n >> 8) & 255, n & 255, alpha], hex };
}

/** All classes, in class-number order (dry → wet after the no-data class). */
export const COLOUR_CLASSES: readonly ColourClass[] = [
  cls(0, "none", "No data", null, null, "#000000", 0),
  cls(1, "D4", `D4 ${D_LEVEL_NAMES.D4}`, null, -2.0, "#730000"),
  cls(2, "D3", `D3 ${D_LEVEL_NAMES.D3}`, -2.0, -1.6, "#E60000"),
  cls(3, "D2", `D2 ${D_LEVEL_NAMES.D2}`, -1.6, -1.3, "#FFAA00"),
  cls(4, "D1", `D1 ${D_LEVEL_NAMES.D1}`, -1.3, -0.8, "#FCD37F"),
  cls(5, "D0", `D0 ${D_LEVEL_NAMES.D0}`, -0.8, -0.5, "#FFFF00"),
  cls(6, "N", "Near normal", -0.5, 0.5, "#EEEEEE"),
  cls(7, "W0", "W0 Abnormally wet", 0.5, 0.8, "#CCEBC5"),
  cls(8, "W1", "W1 Moderately wet", 0.8, 1.3, "#A8DDB5"),
  cls(9, "W2", "W2 Severely wet", 1.3, 1.6, "#7BCCC4"),
  cls(10, "W3", "W3 Extremely wet", 1.6, 2.0, "#43A2CA"),
  cls(11, "W4", "W4 Exceptionally wet", 2.0, null, "#0868AC"),
];

const DRY_CLASS = { D4: 1, D3: 2, D2: 3, D1: 4, D0: 5 } as const;

/** Class number of a standardised index value: NaN → 0; dry side as droughtLevel(); wet side v ≥ 0.5, 0.8, 1.3, 1.6, 2.0. */
export function colourClassOf(value: number): number {
  if (Number.isNaN(value)) return 0;
  const d = droughtLevel(value);
  if (d !== null) return DRY_CLASS[d];
  if (value >= 2.0) return 11;
  if (value >= 1.6) return 10;
  if (value >= 1.3) return 9;
  if (value >= 0.8) return 8;
  if (value >= 0.5) return 7;
  return 6;
}

/** RGBA of every class, 4 bytes per class number, for fast pixel expansion. */
export const CLASS_RGBA: Uint8Array = Uint8Array.from(COLOUR_CLASSES.flatMap((c) => [...c.rgba]));

export interface Legend {
  title: string;
  appliesTo: string[];
  classes: Array<Omit<ColourClass, "rgba" | "id"> & { id: number; rgba: number[] }>;
  notes: string;
}

/** The legend served at /tiles/legend.json and drawn by the map page. */
export function legend(indices: readonly string[]): Legend {
  return {
    title: "Drought index (standardised, SPEI / SPI / mcdi)",
    appliesTo: [...indices],
    classes: COLOUR_CLASSES.map((c) => ({ ...c, rgba: [...c.rgba] })),
    notes:
      "Dry classes: D-levels of the U.S. Drought Monitor thresholds (value ≤ max). Wet classes mirror them (value ≥ min). " +
      "Class 'none' (no data) is transparent.",
  };
}
