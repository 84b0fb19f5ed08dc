// API key administration: `npm run keys -- create --plan NAME [--expires ISO-DATE]`, `list`, `revoke ID`.
// The key file (API_KEYS_FILE, default ./keys.json, or --file PATH) stores hashes only; `create` prints the
// new key once and it cannot be shown again. `dev` (make serve) keeps a development key in .dev-key and reuses it
// (server/auth/dev-key.ts).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  generateKey,
  generateKeyId,
  hashKey,
  isUsable,
  readKeyFile,
  writeKeyFile,
  type ApiKeyRecord,
} from "./auth/key-store.ts";
import { devKeyPath, ensureDevKey } from "./auth/dev-key.ts";

const USAGE = `usage:
  keys create --plan NAME [--expires ISO-DATE] [--file PATH]
  keys list [--file PATH]
  keys revoke ID [--file PATH]
  keys dev [--file PATH] [--dev-key-file PATH]
                              the development key of make serve: the one in .dev-key while it is usable,
                              else a new one (plan enterprise, 7 days) saved there with mode 0600
key file: --file, else API_KEYS_FILE, else ./keys.json; dev key file: --dev-key-file, else DEV_KEY_FILE, else ./.dev-key`;

class UsageError extends Error {}

export function runKeysCli(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void, now = new Date()): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { plan: { type: "string" }, expires: { type: "string" }, file: { type: "string" }, "dev-key-file": { type: "string" } },
  });
  const file = resolve(values.file ?? env.API_KEYS_FILE ?? "./keys.json");
  const [command, ...rest] = positionals;
  if (command === "dev") {
    const devFile = values["dev-key-file"] !== undefined ? resolve(values["dev-key-file"]) : devKeyPath(env);
    const { record, reused } = ensureDevKey(file, devFile, now);
    const what = `development key ${record.id} (${record.plan}, expires ${record.expiresAt})`;
    out(reused ? `${what}: reusing the one in ${devFile}` : `${what}: new, saved in ${devFile} (mode 0600)`);
    return;
  }
  switch (command) {
    case "create": {
      const plan = values.plan;
      if (plan === undefined || !/^[a-z][a-z0-9_-]*$/.test(plan)) throw new UsageError("create needs --plan NAME (lowercase letters, digits, _ or -)");
      let expiresAt: string | undefined;
      if (values.expires !== undefined) {
        const t = Date.parse(values.expires);
        if (Number.isNaN(t)) throw new UsageError(`--expires: not an ISO date: ${values.expires}`);
        if (t <= now.getTime()) throw new UsageError(`--expires: ${values.expires} is in the past`);
        expiresAt = new Date(t).toISOString();
      }
      const key = generateKey();
      const record: ApiKeyRecord = { id: generateKeyId(), hash: hashKey(key), plan, status: "active", createdAt: now.toISOString() };
      if (expiresAt !== undefined) record.expiresAt = expiresAt;
      const keys = readKeyFile(file);
      keys.keys.push(record);
      writeKeyFile(file, keys);
      out(`id:   ${record.id}`);
      out(`plan: ${plan}`);
      out(`key:  ${key}`);
      out("Store the key now: only its hash is kept, it cannot be shown again.");
      return;
    }
    case "list": {
      const { keys } = readKeyFile(file);
      out(["id", "plan", "status", "createdAt", "expiresAt"].join("\t"));
      for (const k of keys) {
        const status = k.status === "active" && !isUsable(k, now) ? "expired" : k.status;
        out([k.id, k.plan, status, k.createdAt, k.expiresAt ?? "-"].join("\t"));
      }
      return;
    }
    case "revoke": {
      const id = rest[0];
      if (id === undefined) throw new UsageError("revoke needs a key id");
      const keys = readKeyFile(file);
      const record = keys.keys.find((k) => k.id === id);
      if (record === undefined) throw new UsageError(`no key with id ${id} in ${file}`);
      record.status = "revoked";
      writeKeyFile(file, keys);
      out(`revoked ${id}`);
      return;
    }
    default:
      throw new UsageError(command === undefined ? "missing command" : `unknown command: ${command}`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    runKeysCli(process.argv.slice(2), process.env, (line) => process.stdout.write(line + "\n"));
  } catch (err) {
    process.stderr.write(`keys: ${(err as Error).message}\n`);
    if (err instanceof UsageError) process.stderr.write(USAGE + "\n");
    process.exitCode = err instanceof UsageError ? 2 : 1;
  }
}
