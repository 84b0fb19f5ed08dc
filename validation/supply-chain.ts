// The trade-risk section of `npm run validate`: the Red Sea crisis (attacks on shipping from 2023-11, diversions round
// the Cape through 2024–2025) seen from ports on its routes and from ports on Malacca's, as of days before and after
// it. Each answer is the service's own (server/services/supply-chain-answer.ts) on the ports snapshot with the
// chokepoint transits cut at that day: the trade-route part of trade_risk as it would have been answered then (the
// port's own hazards and calls are today's, so the table shows the chokepoint part and the latest answer in full).
import type { Logger } from "../lib/log.ts";
import { dayOf } from "../lib/days.ts";
import { chokepointsFor, percent } from "../server/services/supply-chain-chokepoints.ts";
import { emptyNotes } from "../server/services/supply-chain-notes.ts";
import { openChokepoint, openSupplyChainService, type PortsSnapshot } from "../server/services/supply-chain-service.ts";
import type { SupplyChainData } from "../server/schemas-supply-chain.ts";

/** Ports on the Red Sea route (and the Asia–Europe trade through it) against ports on Malacca's. */
export const TRADE_RISK_PORTS = [
  { code: "DJJIB", group: "Red Sea" },
  { code: "EGPSD", group: "Red Sea" },
  { code: "SAJED", group: "Red Sea" },
  { code: "NLRTM", group: "Asia–Europe via Suez" },
  { code: "GRPIR", group: "Asia–Europe via Suez" },
  { code: "SGSIN", group: "Malacca" },
  { code: "MYPKG", group: "Malacca" },
  { code: "THLCH", group: "Malacca" },
] as const;
/** Before the crisis, in it, and the newest transits of the mirror. */
export const TRADE_RISK_DAYS = ["2023-06-30", "2024-06-30", "2024-12-31", "2025-11-02"] as const;

export interface TradeRiskRow {
  code: string;
  name: string;
  group: string;
  /** Per day: the chokepoint part of trade risk and the chokepoint that sets it (with its change). */
  asOf: { day: string; risk: string; worst: string | null }[];
  /** The service's answer today, in full. */
  latest: { disruptionRisk: string; setBy: string; summary: string };
}

/** The snapshot with every chokepoint's transits cut at `day` (YYYY-MM-DD). */
function cutAt(s: PortsSnapshot, day: string): PortsSnapshot {
  const last = dayOf(day);
  const chokepoints = s.chokepoints.map((c) => {
    if (!c.series) return c;
    const n = Math.max(0, Math.min(last - c.series.firstDay + 1, c.series.columns.n_total.length));
    const columns = Object.fromEntries(Object.entries(c.series.columns).map(([k, v]) => [k, v.subarray(0, n)]));
    return openChokepoint(c, { ...c.series, columns });
  });
  return { ...s, chokepoints };
}

export async function validateTradeRisk(artifactsDir: string, logger: Logger, now: number): Promise<{ rows: TradeRiskRow[]; snapshot: string }> {
  const { service, store } = await openSupplyChainService(artifactsDir, logger, () => new Date(now));
  try {
    const loaded = store.require();
    const rows = TRADE_RISK_PORTS.map(({ code, group }) => {
      const latest = service.portQuery({ portCode: code, queryType: "trade_risk" }) as SupplyChainData;
      const iso3 = latest.details.port.iso3;
      const asOf = TRADE_RISK_DAYS.map((day) => {
        const r = chokepointsFor(cutAt(loaded.data, day), iso3, emptyNotes(), Date.parse(`${day}T12:00:00Z`));
        const w = r.worst;
        return { day, risk: r.risk, worst: w ? `${w.name} ${percent(w.change ?? 0)}` : null };
      });
      return { code, name: latest.port.name, group, asOf, latest: { disruptionRisk: latest.disruptionRisk, setBy: latest.details.disruption.setBy, summary: latest.summary } };
    });
    return { rows, snapshot: loaded.version };
  } finally {
    store.stop();
  }
}

export function tradeRiskMarkdown(v: { rows: TradeRiskRow[]; snapshot: string }): string[] {
  const out = [
    "",
    "## Supply chain: trade risk through the Red Sea crisis",
    "",
    `Ports snapshot ${v.snapshot}. The trade-route part of \`trade_risk\` (docs/methods/supply-chain.md, "Chokepoints"): the`,
    "largest fall in transits, over the 30 days to each day, among the chokepoints on the port's routes, against the same",
    "days of 2019–2022 (high from −40 %, medium from −30 %). Attacks on shipping began in 2023-11; 2023-06-30 is before.",
    "The last column is the service's answer today (the higher of the port's own risk and its routes').",
    "",
    `| port | routes | ${TRADE_RISK_DAYS.join(" | ")} | answer today |`,
    `|---|---|${TRADE_RISK_DAYS.map(() => "---").join("|")}|---|`,
  ];
  for (const r of v.rows) {
    const cells = r.asOf.map((a) => (a.worst ? `${a.risk} (${a.worst})` : a.risk));
    out.push(`| ${r.name} (${r.code}) | ${r.group} | ${cells.join(" | ")} | ${r.latest.disruptionRisk} (set by ${r.latest.setBy}) |`);
  }
  return out;
}
