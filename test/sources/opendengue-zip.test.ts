// OpenDengue's release extracts come as ZIPs of one worldwide CSV each. `make refresh` unpacks the CSV, checks it
// like the mirror's and links it into the inputs tree; the dengue adapter then reads the worldwide spatial and
// temporal extracts instead of the mirror's SEARO splits, with the same Thai province series. A ZIP without the
// member, or cut short, is refused and the previous copy kept.
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { OPENDENGUE_DIR, openDengueInputs, readOpenDengue } from "../../pipeline/health/opendengue.ts";
import { aliasIndex, buildAliases, loadAliasSources } from "../../pipeline/provinces/aliases.ts";
import { loadProvinces } from "../../pipeline/provinces/boundaries.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { unzipMember } from "../../pipeline/sources/unzip.ts";

const mirror = (f: string) => readFileSync(join(dataDir(), OPENDENGUE_DIR, f));
/** WPRO rows in the "worldwide" spatial extract: enough for another region's rows to be read past (its whole 12.7 MB
 *  only made every reading of the file slower). */
const WPRO_ROWS = 5000;
/** A "worldwide" extract: the SEARO split followed by WPRO_ROWS of the WPRO split's rows (header once). */
function worldwide(kind: "Spatial" | "Temporal"): Buffer {
  const searo = mirror(`${kind}_extract_SEARO_V1_3.csv`).toString("utf8");
  if (kind === "Temporal") return Buffer.from(searo);
  const wpro = mirror(`${kind}_extract_WPRO_V1_3.csv`).toString("utf8").split("\n").slice(1, 1 + WPRO_ROWS);
  return Buffer.from(searo.trimEnd() + "\n" + wpro.join("\n") + "\n");
}
const zip = (name: string, bytes: Uint8Array) => Buffer.from(zipSync({ [name]: bytes }));

describe("unzipMember", () => {
  it("returns the named member; a missing member, a cut archive or an oversized member is a content error", () => {
    const z = zip("Spatial_extract_V1_3.csv", Buffer.from("a,b\n1,2\n"));
    expect(Buffer.from(unzipMember(z, "Spatial_extract_V1_3.csv", 1e6)).toString()).toBe("a,b\n1,2\n");
    expect(() => unzipMember(z, "National_extract_V1_3.csv", 1e6)).toThrow("National_extract_V1_3.csv: the archive has no National_extract_V1_3.csv (members: Spatial_extract_V1_3.csv)");
    expect(() => unzipMember(z.subarray(0, z.length - 30), "Spatial_extract_V1_3.csv", 1e6)).toThrow(/^Spatial_extract_V1_3\.csv: not a readable ZIP archive/);
    expect(() => unzipMember(z, "Spatial_extract_V1_3.csv", 4)).toThrow("Spatial_extract_V1_3.csv: the archive's Spatial_extract_V1_3.csv inflates to 8 bytes, more than the 4 allowed");
  });
});

describe("OpenDengue release ZIPs from a replay of the release folder", () => {
  let server: Server;
  let base = "";
  let bodies: Record<string, Buffer> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = bodies[req.url ?? ""];
      res.writeHead(body ? 200 : 404, { "content-type": "application/zip" });
      res.end(body ?? "");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const provinces = loadProvinces();
  const index = aliasIndex(buildAliases(loadAliasSources(provinces, dataDir())));
  const plain = (d: ReturnType<typeof readOpenDengue>) => d.provinces.series.map((s) => [s.area, s.start, Array.from(s.values)]);

  it("unpacks the worldwide extracts into the inputs tree; the Thai province series are the mirror's", async () => {
    bodies = {
      "/releases/V1.3/National_extract_V1_3.zip": zip("National_extract_V1_3.csv", mirror("National_extract_V1_3.csv")),
      "/releases/V1.3/Spatial_extract_V1_3.zip": zip("Spatial_extract_V1_3.csv", worldwide("Spatial")),
      "/releases/V1.3/Temporal_extract_V1_3.zip": zip("Temporal_extract_V1_3.csv", worldwide("Temporal")),
    };
    const artifacts = mkdtempSync(join(tmpdir(), "opendengue-zip-"));
    const env = { SOURCE_URL_OPENDENGUE: `${base}/releases/V1.3`, SOURCES_RETRIES: "0" };
    const quiet = { start() {}, source() {} };
    const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env, only: ["opendengue"], progress: quiet });
    expect(r).toMatchObject({ source: "opendengue", outcome: "updated", failed: 0 });
    const { dir: tree } = await writeInputOverlay(dataDir(), artifacts, env);
    expect(openDengueInputs(tree)).toEqual({
      national: join(OPENDENGUE_DIR, "National_extract_V1_3.csv"),
      spatial: join(OPENDENGUE_DIR, "Spatial_extract_V1_3.csv"),
      temporal: join(OPENDENGUE_DIR, "Temporal_extract_V1_3.csv"),
    });
    expect(openDengueInputs(dataDir()).spatial).toBe(join(OPENDENGUE_DIR, "Spatial_extract_SEARO_V1_3.csv"));
    const fromZip = readOpenDengue(tree, index);
    const fromMirror = readOpenDengue(dataDir(), index);
    expect(fromZip.provinces.series.length).toBe(77);
    expect(plain(fromZip)).toEqual(plain(fromMirror));
    expect(fromZip.qc.spatialRows).toBe(fromMirror.qc.spatialRows);

    // The next night the spatial ZIP lacks its CSV: refused, the previous copy stays in the tree.
    bodies["/releases/V1.3/Spatial_extract_V1_3.zip"] = zip("README.txt", Buffer.from("moved"));
    const [again] = await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env, only: ["opendengue"], progress: quiet });
    expect(again.reason).toContain("Spatial_extract_V1_3.csv: the archive has no Spatial_extract_V1_3.csv (members: README.txt)");
    const { dir: tree2 } = await writeInputOverlay(dataDir(), artifacts, env);
    expect(plain(readOpenDengue(tree2, index))).toEqual(plain(fromMirror));
  }, 60_000);
});
