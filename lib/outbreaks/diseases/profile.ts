// What a disease module says about itself: its name, the burden scale its score uses (or why it has none), and
// the references behind the scale. The outbreak service reads these; it does not know any disease's numbers.
import type { BurdenScale } from "../burden.ts";
import type { SurveilledDisease } from "../series.ts";

export interface DiseaseProfile {
  disease: SurveilledDisease;
  name: string;
  /** null: the counts are not cases in a population; `noBurden` says why and the score is the endemic channel's. */
  scale: BurdenScale | null;
  noBurden?: string;
  /**
   * A country whose median yearly rate over its record stays under this (per 100,000) has no established local
   * transmission in the data: its reported cases cannot be told apart from travel-acquired ones.
   */
  sporadicBelowPer100k?: number;
}
