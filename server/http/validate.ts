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

interface PathNode {
  parent: PathNode | undefined;
  key: string | number;
}

function pathOf(node: PathNode): string {
  const parts: Array<string | number> = [];
  for (let n: PathNode | undefined = node; n !== undefined; n = n.parent) parts.push(n.key);
  return formatPath(parts.reverse());
}

/**
 * Path of the first prototype-pollution key (`__proto__`, `constructor`, `prototype`) anywhere in a parsed
 * JSON value, or undefined. JSON.parse makes `__proto__` an own property, so Object.keys sees it.
 * Depth-first in key order with an explicit stack, and the path is kept as parent links (built into a string
 * only for the key found), so a deeply nested value costs linear time and no call stack.
 */
export function findForbiddenKey(root: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: PathNode | undefined }> = [{ value: root, path: undefined }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { value, path } = top;
    if (path !== undefined && typeof path.key === "string" && FORBIDDEN_KEYS.has(path.key)) return pathOf(path);
    if (value === null || typeof value !== "object") continue;
    // Pushed in reverse so that the first key (or item) is visited first. A number, string, boolean or null under a
    // key that is not forbidden can hold nothing to find: not pushed (a batch body's 300 coordinates and ids).
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (item !== null && typeof item === "object") stack.push({ value: item, path: { parent: path, key: i } });
      }
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const item = (value as Record<string, unknown>)[keys[i]];
        if ((item !== null && typeof item === "object") || FORBIDDEN_KEYS.has(keys[i])) stack.push({ value: item, path: { parent: path, key: keys[i] } });
      }
    }
  }
  return undefined;
}
