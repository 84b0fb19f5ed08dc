// zod parsing with one error shape: 400 VALIDATION_ERROR whose message names the first offending field path
// (`locations[3].lat`) and whose details list every issue.
import type { z } from "zod";
import { ValidationError } from "../errors.ts";

/** `["locations", 3, "lat"]` → `locations[3].lat`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

export interface FieldIssue {
  path: string;
  message: string;
}

export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, where: "body" | "query"): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues: FieldIssue[] = result.error.issues.flatMap((issue) => {
    // One issue per unknown field, named by its own path.
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: "unknown field" }));
    const missing = isAbsent(input, issue.path);
    return [{ path: formatPath(issue.path), message: missing ? "required" : issue.message }];
  });
  const first = issues[0];
  const label = first.path === "" ? where : first.path;
  throw new ValidationError(`${label}: ${first.message}`, { issues });
}

/** True when the field at `path` is absent from the input (so the issue is a missing required field). */
function isAbsent(input: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  if (path.length === 0) return input === undefined;
  let node = input;
  for (let i = 0; i < path.length - 1; i++) {
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<PropertyKey, unknown>)[path[i]];
  }
  if (node === null || typeof node !== "object") return false;
  return !Object.prototype.hasOwnProperty.call(node, path[path.length - 1]) || (node as Record<PropertyKey, unknown>)[path[path.length - 1]] === undefined;
}

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Path of the first prototype-pollution key (`__proto__`, `constructor`, `prototype`) anywhere in a parsed
 * JSON value, or undefined. JSON.parse makes `__proto__` an own property, so Object.keys sees it.
 */
export function findForbiddenKey(value: unknown, path: PropertyKey[] = []): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findForbiddenKey(value[i], [...path, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) return formatPath([...path, key]);
    const found = findForbiddenKey((value as Record<string, unknown>)[key], [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
