// The exports of the drought version being served (formats/drought-export.ts): which files it carries, with
// their checksums from the manifest, and where each is on disk for the download route.
import { join } from "node:path";
import { EXPORT_FILE_NAMES, EXPORT_FILES } from "../../formats/drought-export.ts";
import type { ArtifactStore } from "../data/artifact-store.ts";
import type { DroughtArtifacts } from "../../formats/drought-version.ts";
import { ApiError, NotFoundError } from "../errors.ts";

export const EXPORTS_PATH = "/api/risk-map/drought/exports";

const DESCRIPTIONS: Record<string, { contentType: string; description: string }> = {
  [EXPORT_FILES.cellsParquet]: {
    contentType: "application/vnd.apache.parquet",
    description: "GeoParquet 1.1: every grid cell and month — cell id, grid id, country, lat, lng, month, the indices (float32, null where missing), valid, and the cell's square as WKB",
  },
  [EXPORT_FILES.cellsCsv]: {
    contentType: "application/gzip",
    description: "gzip CSV of the same rows without the geometry (a cell is the square lat/lng ± resolution/2), indices to 4 decimals",
  },
  [EXPORT_FILES.provincesParquet]: {
    contentType: "application/vnd.apache.parquet",
    description: "Parquet: every province and month — code, English and Thai name, month, the province means of the indices, cells used",
  },
  [EXPORT_FILES.provincesCsv]: {
    contentType: "application/gzip",
    description: "gzip CSV of the province summaries, indices to 4 decimals",
  },
};

export interface ExportFile {
  name: string;
  url: string;
  contentType: string;
  description: string;
  bytes: number;
  sha256: string;
}

export class ExportService {
  constructor(private readonly store: ArtifactStore<DroughtArtifacts>) {}

  /**
   * The exports of the served version (empty for a version built before exports existed, and for one published with
   * its exports deferred: `pending` then says so).
   */
  list(): { version: string; files: ExportFile[]; pending?: string } {
    const v = this.store.require();
    const files = EXPORT_FILE_NAMES.flatMap((name) => {
      const a = v.manifest.artifacts[name];
      return a ? [{ name, url: `${EXPORTS_PATH}/${name}`, ...DESCRIPTIONS[name], bytes: a.bytes, sha256: a.sha256 }] : [];
    });
    return { version: v.version, files, ...(deferred(v.manifest.deferred) ? { pending: pendingMessage(v.version) } : {}) };
  }

  /**
   * One export file of the served version; a 503 when the version was published with its exports deferred (they come
   * with the next version of the same data), else a 404 naming what the version has.
   */
  file(name: string): ExportFile & { path: string; version: string } {
    const v = this.store.require();
    const a = v.manifest.artifacts[name];
    if (!a && EXPORT_FILE_NAMES.includes(name) && deferred(v.manifest.deferred)) {
      throw new ApiError("SERVICE_UNAVAILABLE", pendingMessage(v.version), { file: name, version: v.version, reason: "exports-deferred" });
    }
    if (!a || !EXPORT_FILE_NAMES.includes(name)) {
      throw new NotFoundError(`version ${v.version} has no export ${name} (rebuild with \`make artifacts\` to add exports)`, { file: name, version: v.version });
    }
    return { name, url: `${EXPORTS_PATH}/${name}`, ...DESCRIPTIONS[name], bytes: a.bytes, sha256: a.sha256, path: join(v.dir, name), version: v.version };
  }
}

function deferred(products: string[] | undefined): boolean {
  return products?.includes("exports") ?? false;
}

function pendingMessage(version: string): string {
  return `data version ${version} was published before its exports (make serve's first run); they are being built and come with the next version of the same data (\`npm run pipeline -- build\`)`;
}
