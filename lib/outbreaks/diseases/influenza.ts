// Influenza: FluNet counts positive specimens, which depend on how many are tested, so there is no population rate;
// the score stays the endemic channel's (unusual for the place), said in every answer.
import type { DiseaseProfile } from "./profile.ts";

export const INFLUENZA: DiseaseProfile = {
  disease: "influenza",
  name: "Influenza",
  scale: null,
  noBurden: "FluNet counts laboratory-positive specimens, which follow how many are tested, not cases in the population: no rate per 100,000; the score is the endemic channel's",
};
