// The disease modules by name (each module holds its own scale and references).
import type { SurveilledDisease } from "../series.ts";
import { CHOLERA } from "./cholera.ts";
import { COVID } from "./covid.ts";
import { DENGUE } from "./dengue.ts";
import { INFLUENZA } from "./influenza.ts";
import { MALARIA } from "./malaria.ts";
import type { DiseaseProfile } from "./profile.ts";

export const DISEASES: Record<SurveilledDisease, DiseaseProfile> = { dengue: DENGUE, malaria: MALARIA, cholera: CHOLERA, covid: COVID, influenza: INFLUENZA };
export type { DiseaseProfile };
