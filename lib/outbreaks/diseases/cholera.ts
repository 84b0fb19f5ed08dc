// Cholera: cases reported to WHO (GHO, yearly) per 100,000 a year.
import { reportedPer100kAYear } from "../burden.ts";
import type { DiseaseProfile } from "./profile.ts";

export const CHOLERA: DiseaseProfile = {
  disease: "cholera",
  name: "Cholera",
  scale: reportedPer100kAYear(
    // GTFCC measures cholera burden by mean annual incidence per 100,000 (Identification of PAMIs for cholera
    // control, 2023) without fixed bands; these are decades: 10 per 100,000 is a national outbreak, 100 a large
    // epidemic (Yemen 2017–18 and Haiti 2011 exceeded 1,000).
    [
      [1, 10],
      [10, 30],
      [100, 60],
      [1000, 80],
      [10_000, 100],
    ],
    "GTFCC, Identification of Priority Areas for Multisectoral Interventions for cholera control (2023): mean annual incidence per 100,000; decade bands (10 medium, 100 high, 1,000 critical) are this service's",
  ),
};
