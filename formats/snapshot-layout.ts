// Where snapshots live: each feed snapshot (flood, …, outbreaks, ports) has its own root under
// ARTIFACTS_DIR/snapshots/<name>/, published like the drought artifacts (versions/<id>/ and a `current` link).
import { join } from "node:path";

export const SNAPSHOTS_DIR = "snapshots";

export function snapshotRoot(artifactsDir: string, name: string): string {
  return join(artifactsDir, SNAPSHOTS_DIR, name);
}
