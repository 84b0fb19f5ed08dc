// One member of a downloaded ZIP archive (fflate, a maintained pure-JS inflater): release extracts come zipped while
// the builders read the CSV inside. A member that is missing, too large or does not inflate is a content error, so
// the previous copy stays.
import { unzipSync } from "fflate";
import { ContentError } from "./content-check.ts";

export function unzipMember(archive: Uint8Array, member: string, maxBytes: number): Uint8Array {
  let found: Uint8Array | undefined;
  const names: string[] = [];
  try {
    const files = unzipSync(archive, {
      filter: (f) => {
        names.push(f.name);
        if (f.name.split("/").at(-1) !== member) return false;
        if (f.originalSize > maxBytes) throw new ContentError(member, `the archive's ${member} inflates to ${f.originalSize} bytes, more than the ${maxBytes} allowed`);
        return true;
      },
    });
    found = Object.values(files)[0];
  } catch (err) {
    if (err instanceof ContentError) throw err;
    throw new ContentError(member, `not a readable ZIP archive (${(err as Error).message})`);
  }
  if (!found) throw new ContentError(member, `the archive has no ${member} (members: ${names.slice(0, 5).join(", ") || "none"})`);
  return found;
}
