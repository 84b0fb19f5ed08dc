// One page of an ordered list of features. The order is total (ties broken by a unique id, then the snapshot's own
// order), so walking the pages of one snapshot version gives every feature exactly once.
import { NotFoundError } from "../errors.ts";
import type { Cursor } from "../schemas-paging.ts";

export interface Page<T> {
  items: T[];
  numberMatched: number;
  /** The cursor of the next page, or null on the last. */
  nextCursor: string | null;
}

export function pageOf<T>(ordered: readonly T[], limit: number, cursor: Cursor | undefined, version: string): Page<T> {
  if (cursor !== undefined && cursor.version !== version) {
    throw new NotFoundError(`the cursor's snapshot version ${cursor.version} is no longer served (now ${version}): start again from the first page, without cursor`, {
      cursorVersion: cursor.version,
      servedVersion: version,
    });
  }
  const from = cursor?.offset ?? 0;
  const end = from + limit;
  return { items: ordered.slice(from, end), numberMatched: ordered.length, nextCursor: end < ordered.length ? `${end}@${version}` : null };
}
