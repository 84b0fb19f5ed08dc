// The batch scorer of a drought service (bulk requests, server/routes/bulk.ts): its own, pinned to one version, or,
// for a service without one, its batch item and time as they are.
import type { BatchScorer, DroughtService } from "./types.ts";

export function scorerOf(d: DroughtService): BatchScorer {
  return (
    d.batchScorer?.() ?? {
      dataVersion: d.dataVersion(),
      item: (id, lat, lng) => d.batchItem(id, lat, lng),
      time: (from, to) => d.batchTime([{ month: from }, { month: to }]),
    }
  );
}
