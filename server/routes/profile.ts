// GET /api/risk-map/profile: validate → charge one point per part → ProfileService → envelope.
import type { Request, Response } from "express";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { PROFILE_PARTS, profileQuery } from "../schemas-profile.ts";
import { errorResponses, ok, queryParameters } from "../openapi-parts.ts";
import { RISK_TYPES, successEnvelope } from "../schemas.ts";
import { PROFILE_DISEASES, profileData } from "../schemas-profile.ts";
import { ProfileService } from "../services/profile-service.ts";
import type { Route } from "./route.ts";

export function profileHandler(deps: { profile: ProfileService; charge: (req: Request, res: Response, points: number) => Promise<void> }) {
  return async (req: Request, res: Response) => {
    const q = parseOrThrow(profileQuery, req.query, "query");
    // The entry gate charged 1 point; a profile costs one per part it computes (docs/api.md "Rate limits").
    await deps.charge(req, res, PROFILE_PARTS - 1);
    sendJson(req, res, 200, { success: true, data: deps.profile.profile(q.lat, q.lng) });
  };
}

/** Every risk at one place. */
export const profileRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/risk-map/profile",
    auth: true,
    doc: () => ({
      operationId: "profileAtPoint",
      summary: "Every risk, the outbreak radar of five diseases and the nearest port at one place",
      description:
        `One part per risk type (${RISK_TYPES.join(", ")}), per disease (${PROFILE_DISEASES.join(", ")}) and the nearest port. Each ` +
        "part is asked of the same service call as its own endpoint, with the body that endpoint would get (its `request`: " +
        "POST /api/risk-map/score, POST /api/outbreak-radar/query with the default timeframe 30d, POST /api/supply-chain/query " +
        "with queryType congestion), so its riskScore, riskLevel, summary, confidence and asOf are that answer's; a part " +
        "its endpoint answers with an error (NOT_FOUND naming the coverage, SERVICE_UNAVAILABLE) is `{error: {code, message, " +
        "details}, request}` with that error, and no port is nearestPort null with nearestPortReason. The request itself fails " +
        `only on bad coordinates (400), the key (401) and the rate limit (429). Costs ${PROFILE_PARTS} rate-limit points, one per part.`,
      parameters: queryParameters(profileQuery),
      responses: {
        "200": ok("Profile", { "application/json": successEnvelope(profileData) }),
        ...errorResponses(["400", "401", "405", "408", "417", "429", "431", "500", "503"]),
      },
    }),
    handlers: (ctx) => [profileHandler({ profile: new ProfileService({ score: ctx.drought, outbreak: ctx.outbreak, supplyChain: ctx.supplyChain, freshness: ctx.freshness }), charge: ctx.charge })],
  },
];
