// Malaria: WHO's estimated incidence per 1,000 population at risk (World Malaria Report, GHO MALARIA_EST_INCIDENCE)
// for the score; where WHO makes no estimate (malaria-free countries), confirmed cases per 1,000 population.
import type { DiseaseProfile } from "./profile.ts";

export const MALARIA: DiseaseProfile = {
  disease: "malaria",
  name: "Malaria",
  scale: {
    periodDays: 365,
    per: 1000,
    unit: "cases per 1,000 population at risk a year",
    // WHO, A framework for malaria elimination (2017), transmission strata by annual parasite incidence: very low
    // < 100, low 100–250, moderate 250–450, high ≥ 450 per 1,000. 0.01 per 1,000 is 1 per 100,000.
    anchors: [
      [0.01, 5],
      [100, 30],
      [250, 60],
      [450, 80],
      [900, 100],
    ],
    reference:
      "WHO, A framework for malaria elimination (2017): annual parasite incidence very low < 100, low 100–250, moderate 250–450, high ≥ 450 per 1,000; estimates from the World Malaria Report (GHO MALARIA_EST_INCIDENCE)",
  },
};
