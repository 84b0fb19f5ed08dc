// Members of a downloaded ZIP archive (fflate, a maintained pure-JS inflater): release extracts come zipped while
// the builders read the CSV inside, and the CDS answers a request whose variables differ in step type with a ZIP of
// one NetCDF per step type. A member that is missing, too large or does not inflate is a content error, so the
// previous copy stays.
import { unzipSync } from "fflate";
import { ContentError } from "./content-check.ts";

/** A ZIP archive starts with a local file header, "PK\x03\x04" (or "PK\x05\x06" when empty). */
export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05);
}

/**
 * The members whose base name `wanted` accepts, by their name in the archive. `what` names the download in errors;
 * each member may inflate to at most `maxBytes`.
 */
export function unzipMembers(archive: Uint8Array, wanted: (baseName: string) => boolean, maxBytes: number, what: string): { members: Record<string, Uint8Array>; names: string[] } {
  const names: string[] = [];
  let members: Record<string, Uint8Array>;
  try {
    members = unzipSync(archive, {
      filter: (f) => {
        names.push(f.name);
        if (!wanted(f.name.split("/").at(-1)!)) return false;
        if (f.originalSize > maxBytes) throw new ContentError(what, `the archive's ${f.name} inflates to ${f.originalSize} bytes, more than the ${maxBytes} allowed`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof ContentError) throw err;
    throw new ContentError(what, `not a readable ZIP archive (${(err as Error).message})`);
  }
  return { members, names };
}

export function unzipMember(archive: Uint8Array, member: string, maxBytes: number): Uint8Array {
  const { members, names } = unzipMembers(archive, (name) => name === member, maxBytes, member);
  const found = Object.values(members)[0];
  if (!found) throw new ContentError(member, `the archive has no ${member} (members: ${names.slice(0, 5).join(", ") || "none"})`);
  return found;
}
