// POST /api/supply-chain/query: validate → SupplyChainService → envelope. GET /api/supply-chain/ports: the ports in a
// box with their congestion index, as GeoJSON (the map's ports layer). GET /api/supply-chain/chokepoints: the straits
// and canals with their latest transits.
import type { Request, Response } from "express";
import { readJsonBody } from "../http/body.ts";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { pageLinks } from "../http/paging.ts";
import { ApiError } from "../errors.ts";
import { portsQuery, supplyChainBody } from "../schemas-supply-chain.ts";
import { SUPPLY_CHAIN_NOT_CONFIGURED, type SupplyChainService } from "../services/supply-chain-service.ts";
import type { Freshness } from "../services/source-status-service.ts";
import { bodyLimitNote, errorResponses, GET_ERRORS, jsonBody, ok, POST_ERRORS, queryParameters } from "../openapi-parts.ts";
import { successEnvelope } from "../schemas.ts";
import { chokepointAnswerData, chokepointList, portsCollection, supplyChainData } from "../schemas-supply-chain.ts";
import { z } from "zod";
import { freshnessFields } from "../schemas-freshness.ts";
import type { Route } from "./route.ts";

export function supplyChainHandlers(deps: { supplyChain?: SupplyChainService; bodyLimit: number; freshness: Freshness }) {
  return {
    async query(req: Request, res: Response) {
      const body = parseOrThrow(supplyChainBody, await readJsonBody(req, deps.bodyLimit), "body");
      if (deps.supplyChain === undefined) throw new ApiError("SERVICE_UNAVAILABLE", SUPPLY_CHAIN_NOT_CONFIGURED);
      sendJson(req, res, 200, { success: true, data: { ...deps.supplyChain.query(body), ...deps.freshness("supply_chain") } });
    },
    ports(req: Request, res: Response) {
      const q = parseOrThrow(portsQuery, req.query, "query");
      if (deps.supplyChain === undefined) throw new ApiError("SERVICE_UNAVAILABLE", SUPPLY_CHAIN_NOT_CONFIGURED);
      const { nextCursor, ...page } = deps.supplyChain.portsInBox(q);
      sendJson(req, res, 200, { ...page, ...pageLinks(req, portsQuery, nextCursor), ...deps.freshness("supply_chain") }, "application/geo+json");
    },
    chokepoints(req: Request, res: Response) {
      parseOrThrow(z.strictObject({}), req.query, "query");
      if (deps.supplyChain === undefined) throw new ApiError("SERVICE_UNAVAILABLE", SUPPLY_CHAIN_NOT_CONFIGURED);
      sendJson(req, res, 200, { success: true, data: { ...deps.supplyChain.chokepoints(), ...deps.freshness("supply_chain") } });
    },
  };
}

/** The supply-chain routes. */
export const supplyChainRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/supply-chain/query",
    auth: true,
    doc: (d) => ({
      operationId: "supplyChainQuery",
      summary: "Port congestion, vessel counts, delays and disruption for a port (UN/LOCODE), a chokepoint or a coordinate",
      description:
        "portCode wins over chokepoint, which wins over lat/lng. A coordinate within 50 km of a chokepoint (strait or canal) with " +
        "transits and nearer to it than to every port with PortWatch records answers for the chokepoint (port null, chokepoint set, vesselCount its " +
        "transits of the latest 7 days, disruptionRisk its fall in transits); otherwise it selects the nearest port within 50 km. " +
        "Unknown port or chokepoint, or no port in range: 404 NOT_FOUND naming how to list the known ones. Fields without data are " +
        `null and listed in details.missing. Methods: docs/methods/supply-chain.md. ${bodyLimitNote(d.bodyLimit)}`,
      requestBody: jsonBody(supplyChainBody),
      responses: {
        "200": ok("Supply chain result: a port's, or a chokepoint's (port null)", { "application/json": successEnvelope(z.union([supplyChainData.extend(freshnessFields), chokepointAnswerData.extend(freshnessFields)])) }),
        ...errorResponses(POST_ERRORS),
      },
    }),
    handlers: (ctx) => [supplyChainHandlers(ctx).query],
  },
  {
    method: "GET",
    path: "/api/supply-chain/ports",
    auth: true,
    doc: () => ({
      operationId: "portsInBox",
      summary: "The ports inside a box with their congestion index, as GeoJSON (map layer), a page at a time",
      description:
        "Located ports of UN/LOCODE, the World Port Index and PortWatch, every feature a Point; congestionIndex as in the " +
        "congestion answer, null with its reason where the port has no PortWatch daily port calls. Ports with an index first, " +
        "then the busiest, then by name and id. A bbox with west > east crosses the antimeridian. Paging as GET " +
        "/api/risk-map/events: `limit` a page, `next` (and `links`, rel next) while truncated, numberMatched over all pages. " +
        "Click-through: POST /api/supply-chain/query with the feature's code (or its coordinates when code is null).",
      parameters: queryParameters(portsQuery),
      responses: { "200": ok("FeatureCollection", { "application/geo+json": portsCollection.extend(freshnessFields) }), ...errorResponses(GET_ERRORS) },
    }),
    handlers: (ctx) => [supplyChainHandlers(ctx).ports],
  },
  {
    method: "GET",
    path: "/api/supply-chain/chokepoints",
    auth: true,
    doc: () => ({
      operationId: "chokepoints",
      summary: "PortWatch's chokepoints (straits and canals) with their latest transits against 2019–2022",
      description:
        "Each chokepoint the data hold transits for, in PortWatch's id order: its latest 30 days of transits against the same days " +
        "of 2019–2022 (median), in all and by vessel type, the risk level that makes, its dates and whether they are current, and " +
        "the countries whose ports' trade risk it enters. The ids are those POST /api/supply-chain/query takes as chokepoint.",
      responses: { "200": ok("Chokepoints", { "application/json": successEnvelope(chokepointList.extend(freshnessFields)) }), ...errorResponses(GET_ERRORS) },
    }),
    handlers: (ctx) => [supplyChainHandlers(ctx).chokepoints],
  },
];
