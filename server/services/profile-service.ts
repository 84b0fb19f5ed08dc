// One place's profile (GET /api/risk-map/profile): every risk type, the five surveilled diseases and the nearest
// port, each asked of the same service call as its own endpoint with the body that endpoint would get
// (POST /api/risk-map/score, POST /api/outbreak-radar/query, POST /api/supply-chain/query with queryType
// congestion), its defaults applied by the same schemas, so the numbers are the same. A part whose own endpoint
// answers an error carries that error instead; nothing is filled in.
import { ApiError } from "../errors.ts";
import { RISK_TYPES } from "../schemas-common.ts";
import { scoreBody } from "../schemas-score.ts";
import { outbreakBody } from "../schemas-outbreak.ts";
import { supplyChainBody } from "../schemas-supply-chain.ts";
import { PROFILE_DISEASES, type OutbreakPart, type PartError, type ProfileData, type RiskPart } from "../schemas-profile.ts";
import { OUTBREAK_NOT_CONFIGURED, type OutbreakService } from "./outbreak-service.ts";
import type { Freshness } from "./source-status-service.ts";
import { SUPPLY_CHAIN_NOT_CONFIGURED, type SupplyChainService } from "./supply-chain-service.ts";
import type { DroughtService, ScoreData } from "./types.ts";

export interface ProfileDeps {
  /** The score endpoint's service (ScoreService: drought and the feed risk types). */
  score: Pick<DroughtService, "score">;
  outbreak?: OutbreakService;
  supplyChain?: SupplyChainService;
  freshness: Freshness;
}

type Request = { method: "POST"; path: string; body: Record<string, unknown> };

function partError(err: ApiError): PartError {
  return { code: err.code, message: err.message, details: err.details };
}

/** The part's answer, or the error its endpoint would answer (an ApiError); anything else is a fault and is thrown. */
function attempt<T>(answer: () => T): T | { error: PartError } {
  try {
    return answer();
  } catch (err) {
    if (err instanceof ApiError) return { error: partError(err) };
    throw err;
  }
}

function riskAnswer(d: ScoreData, request: Request, freshness: Freshness): RiskPart {
  const current = d.details.currentConditions; // drought only
  return {
    riskType: d.riskType,
    riskScore: d.riskScore,
    riskLevel: d.riskLevel,
    summary: d.summary,
    confidence: (current ? current.confidence : d.details.confidence) ?? null,
    confidenceLabel: (current ? current.confidenceLabel : d.details.confidenceLabel) ?? null,
    confidenceNote: (current ? current.confidenceReason : d.details.confidenceBasis) ?? null,
    period: d.details.period,
    asOf: d.details.asOf,
    currency: d.details.currency,
    request,
    ...freshness(d.riskType),
  };
}

export class ProfileService {
  constructor(private readonly deps: ProfileDeps) {}

  profile(lat: number, lng: number): ProfileData {
    const { freshness } = this.deps;
    const risks = {} as ProfileData["risks"];
    for (const riskType of RISK_TYPES) {
      const request: Request = { method: "POST", path: "/api/risk-map/score", body: { lat, lng, riskType } };
      const d = attempt(() => this.deps.score.score(scoreBody.parse(request.body)));
      risks[riskType] = "error" in d ? { error: d.error, request } : riskAnswer(d, request, freshness);
    }
    const outbreaks = {} as ProfileData["outbreaks"];
    for (const diseaseType of PROFILE_DISEASES) {
      const request: Request = { method: "POST", path: "/api/outbreak-radar/query", body: { lat, lng, diseaseType } };
      const d = attempt(() => {
        if (!this.deps.outbreak) throw new ApiError("SERVICE_UNAVAILABLE", OUTBREAK_NOT_CONFIGURED);
        return this.deps.outbreak.query(outbreakBody.parse(request.body));
      });
      outbreaks[diseaseType] = "error" in d ? { error: d.error, request } : outbreakAnswer(diseaseType, d, request, freshness);
    }
    const request: Request = { method: "POST", path: "/api/supply-chain/query", body: { lat, lng, queryType: "congestion" } };
    const port = attempt(() => {
      if (!this.deps.supplyChain) throw new ApiError("SERVICE_UNAVAILABLE", SUPPLY_CHAIN_NOT_CONFIGURED);
      return this.deps.supplyChain.portQuery(supplyChainBody.parse(request.body));
    });
    const nearestPort =
      "error" in port
        ? null
        : {
            port: port.port,
            distanceKm: port.details.resolution.distanceKm,
            rule: port.details.resolution.rule,
            congestionIndex: port.congestionIndex,
            vesselCount: port.vesselCount,
            avgDwellDays: port.avgDwellDays,
            etaDelayHours: port.etaDelayHours,
            disruptionRisk: port.disruptionRisk,
            summary: port.summary,
            missing: port.details.missing,
            asOf: port.asOf,
            period: port.details.period,
            currency: port.details.currency,
            request,
            ...freshness("supply_chain"),
          };
    return {
      location: { lat, lng },
      risks,
      outbreaks,
      nearestPort,
      nearestPortReason: "error" in port ? port.error : null,
      timestamp: new Date().toISOString(),
    };
  }
}

function outbreakAnswer(diseaseType: (typeof PROFILE_DISEASES)[number], d: ReturnType<OutbreakService["query"]>, request: Request, freshness: Freshness): OutbreakPart {
  return {
    diseaseType,
    country: d.country,
    province: d.province,
    riskScore: d.riskScore,
    riskLevel: d.riskLevel,
    outbreakStatus: d.outbreakStatus,
    trend: d.trend,
    summary: d.summary,
    confidence: d.details.confidence,
    confidenceLabel: d.details.confidenceLabel,
    confidenceNote: d.details.confidenceBasis,
    asOf: d.asOf,
    period: d.details.period,
    currency: d.details.currency,
    request,
    ...freshness("outbreak"),
  };
}
