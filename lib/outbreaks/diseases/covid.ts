// COVID-19: confirmed cases (OWID) per 100,000 in 14 days, the notification rate EU travel rules used.
import type { DiseaseProfile } from "./profile.ts";

export const COVID: DiseaseProfile = {
  disease: "covid",
  name: "COVID-19",
  scale: {
    periodDays: 14,
    per: 100_000,
    unit: "confirmed cases per 100,000 in 14 days",
    // Council Recommendation (EU) 2020/1475: green < 25, orange 25–150, red > 150 per 100,000 in 14 days;
    // Recommendation (EU) 2021/119 added dark red ≥ 500.
    anchors: [
      [1, 10],
      [25, 30],
      [150, 60],
      [500, 80],
      [1500, 100],
    ],
    reference: "Council Recommendation (EU) 2020/1475 and (EU) 2021/119: 14-day notification rate green < 25, orange 25–150, red > 150, dark red ≥ 500 per 100,000",
  },
};
