// One builder per feed risk type: fetch (URL when configured, else DATA_DIR), parse with the adapters, keep
// the events, write events.bin + snapshot.json, and report rejected rows and the score distribution over Thai
// and world locations. A builder throws when a feed fails to validate; build-snapshots.ts then keeps the previous
// snapshot. Coverage is where the inputs reach (docs/methods/feed-risks.md): flood on land worldwide, storm
// everywhere, sea level near the coast, heatwave near a GHCN-Daily station whose latest full year is current, wildfire in the extent
// of the fire files (everywhere once a refresh brought FIRMS' global near-real-time archive).
// The builders themselves live one per file in feeds/ (their shared code in feeds/common.ts); this module lists them.
import type { FeedRiskType } from "../../formats/feed-snapshot.ts";
import type { BuildContext, BuiltSnapshot } from "./feeds/common.ts";
import { buildFlood } from "./feeds/flood.ts";
import { buildWildfire } from "./feeds/wildfire.ts";
import { buildStorm } from "./feeds/storm.ts";
import { buildSeaLevel } from "./feeds/sea-level.ts";
import { buildHeatwave } from "./feeds/heatwave.ts";

export * from "./feeds/common.ts";
export * from "./feeds/flood.ts";
export * from "./feeds/wildfire.ts";
export * from "./feeds/storm.ts";
export * from "./feeds/sea-level.ts";
export * from "./feeds/heatwave.ts";

export const FEED_BUILDERS: Record<FeedRiskType, (ctx: BuildContext) => Promise<BuiltSnapshot>> = {
  flood: buildFlood,
  wildfire: buildWildfire,
  heatwave: buildHeatwave,
  storm: buildStorm,
  sea_level_rise: buildSeaLevel,
};
