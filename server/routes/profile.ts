// GET /api/risk-map/profile: validate → charge one point per part → ProfileService → envelope.
import type { Request, Response } from "express";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { PROFILE_PARTS, profileQuery } from "../schemas-profile.ts";
import type { ProfileService } from "../services/profile-service.ts";

export function profileHandler(deps: { profile: ProfileService; charge: (req: Request, res: Response, points: number) => Promise<void> }) {
  return async (req: Request, res: Response) => {
    const q = parseOrThrow(profileQuery, req.query, "query");
    // The entry gate charged 1 point; a profile costs one per part it computes (docs/api.md "Rate limits").
    await deps.charge(req, res, PROFILE_PARTS - 1);
    sendJson(req, res, 200, { success: true, data: deps.profile.profile(q.lat, q.lng) });
  };
}
