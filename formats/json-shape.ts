// Parsing a JSON artifact against a zod shape, with one message naming the first offending field.
import type { z } from "zod";

/** Parses `text` and checks it against `shape`; throws "<field path>: <problem>". Returns the parsed value. */
export function checkJson<T>(text: string, shape: z.ZodType<T>): T {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`not valid JSON (${(err as Error).message})`);
  }
  const parsed = shape.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue.path.join(".") || "document"}: ${issue.message}`);
  }
  return parsed.data;
}
