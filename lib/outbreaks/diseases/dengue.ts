// Dengue: reported cases (OpenDengue, national and Thai provinces) per 100,000 a year.
import { reportedPer100kAYear } from "../burden.ts";
import type { DiseaseProfile } from "./profile.ts";

export const DENGUE: DiseaseProfile = {
  disease: "dengue",
  name: "Dengue",
  scale: reportedPer100kAYear(
    // Brazil's Ministry of Health incidence bands (Diretrizes nacionais para a prevenção e controle de epidemias de
    // dengue, 2009): low < 100, medium 100–300, high > 300 per 100,000 a year; ≥ 1,000 is epidemic (critical).
    [
      [1, 10],
      [100, 30],
      [300, 60],
      [1000, 80],
      [3000, 100],
    ],
    "Ministério da Saúde do Brasil, Diretrizes nacionais para a prevenção e controle de epidemias de dengue (2009): incidence low < 100, medium 100–300, high > 300 per 100,000 a year; ≥ 1,000 per 100,000 epidemic",
  ),
  sporadicBelowPer100k: 1,
};
