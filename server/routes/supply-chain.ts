// POST /api/supply-chain/query: validate → SupplyChainService → envelope. GET /api/supply-chain/ports: the ports in a
// box with their congestion index, as GeoJSON (the map's ports layer).
import type { Request, Response } from "express";
import { readJsonBody } from "../http/body.ts";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { pageLinks } from "../http/paging.ts";
import { ApiError } from "../errors.ts";
import { portsQuery, supplyChainBody } from "../schemas-supply-chain.ts";
import { SUPPLY_CHAIN_NOT_CONFIGURED, type SupplyChainService } from "../services/supply-chain-service.ts";
import type { Freshness } from "../services/source-status-service.ts";

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
  };
}
