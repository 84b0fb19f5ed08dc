// Every route of the API, in one list: app.ts routes, authenticates and dispatches from it, openapi.ts documents it.
// The map page and the tiles have routers of their own (tiles.ts), mounted before the gate.
import { bulkRoutes } from "./bulk.ts";
import { eventsRoutes } from "./events.ts";
import { exportsRoutes } from "./exports.ts";
import { outbreakRoutes } from "./outbreak.ts";
import { profileRoutes } from "./profile.ts";
import { riskMapRoutes } from "./risk-map.ts";
import type { Route } from "./route.ts";
import { serviceRoutes } from "./service.ts";
import { stationsRoutes } from "./stations.ts";
import { supplyChainRoutes } from "./supply-chain.ts";

export const API_ROUTES: ReadonlyArray<Route> = [
  ...serviceRoutes,
  ...riskMapRoutes,
  ...bulkRoutes,
  ...eventsRoutes,
  ...stationsRoutes,
  ...profileRoutes,
  ...supplyChainRoutes,
  ...outbreakRoutes,
  ...exportsRoutes,
];
