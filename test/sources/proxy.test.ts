// Downloads behind an HTTPS proxy (issue 23): a CONNECT proxy on loopback that counts its tunnels and the
// Proxy-Authorization it was sent, an origin on loopback. With HTTPS_PROXY/HTTP_PROXY set, each fetcher of the
// pipeline (source refresh, FEED_URL_* feeds, the CDS client) tunnels through it; a host NO_PROXY matches goes
// direct. NO_PROXY is always set explicitly: whether loopback is exempt by default differs between clients.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { fetchFeed } from "../../pipeline/feeds/fetch.ts";
import { CdsError, retrieveFromCds } from "../../pipeline/sources/cds.ts";
import { fetchWithPolicy } from "../../pipeline/sources/http-fetch.ts";
import { proxyForLog, proxySettings, useProxyFromEnv } from "../../pipeline/sources/proxy.ts";
import { startReplay, type Replay } from "./origin-replay.ts";

const BODY = Buffer.from("year,month,anomaly\n2026,1,1.2\n");
const PASSWORD = "s3cr3t-p@ss";

interface Proxy {
  url: string;
  tunnels: string[];
  auth: (string | undefined)[];
  close(): Promise<void>;
}

/** An HTTP proxy that only tunnels (CONNECT), as HTTPS needs; a plain forwarded request gets a 502. */
async function startConnectProxy(): Promise<Proxy> {
  const tunnels: string[] = [];
  const auth: (string | undefined)[] = [];
  const server: Server = createServer((_req, res) => {
    res.writeHead(502);
    res.end("this proxy only tunnels");
  });
  server.on("connect", (req, client, head) => {
    tunnels.push(req.url!);
    auth.push(req.headers["proxy-authorization"]);
    const [host, port] = req.url!.split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    auth,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

let proxy: Proxy;
let origin: Replay;
let restore = () => {};
let logged = "";
const capture = pino({ level: "info" }, new Writable({ write: (chunk, _enc, done) => ((logged += String(chunk)), done()) }));
const withCredentials = () => proxy.url.replace("http://", `http://pipeline:${encodeURIComponent(PASSWORD)}@`);
const originHostPort = () => origin.base.replace("http://", "");
const policy = { timeoutMs: 2000, retries: 0, backoffMs: 1, maxBytes: 1 << 20 };

beforeAll(async () => {
  proxy = await startConnectProxy();
  // Any path: the file; /api/… is the CDS, which refuses the key (enough to see where the request went).
  origin = await startReplay((path) => (path.startsWith("/api/") ? undefined : BODY));
});
afterEach(() => {
  restore();
  restore = () => {};
});
afterAll(async () => {
  await proxy.close();
  await origin.close();
});

describe("downloads behind a proxy", () => {
  it("reads the proxy variables: lower case first, http:// when no scheme, none set → no proxy", () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ HTTPS_PROXY: "" })).toBeUndefined();
    expect(proxySettings({ HTTPS_PROXY: "proxy.example:3128", https_proxy: "http://lower:8080", NO_PROXY: "localhost" })).toEqual({
      httpProxy: undefined,
      httpsProxy: "http://lower:8080",
      noProxy: "localhost",
    });
    expect(proxySettings({ HTTP_PROXY: "proxy.example:3128" })).toEqual({ httpProxy: "http://proxy.example:3128", httpsProxy: undefined, noProxy: "" });
    expect(proxyForLog(`http://u:${PASSWORD}@proxy.example:3128/x?y`)).toBe("http://proxy.example:3128 (with credentials)");
  });

  it("a source download, a feed and the CDS client tunnel through HTTPS_PROXY/HTTP_PROXY, with the credentials sent and never logged", async () => {
    const url = withCredentials();
    restore = useProxyFromEnv({ HTTPS_PROXY: url, HTTP_PROXY: url, NO_PROXY: "" }, capture);
    const asked = origin.asked.length;

    const got = await fetchWithPolicy(`${origin.base}/data/file.csv`, policy);
    expect(got.kind === "body" && Buffer.from(got.bytes).equals(BODY)).toBe(true);
    const feed = await fetchFeed({ name: "PROXY_TEST", fallbackPath: "/nonexistent" }, { env: { FEED_URL_PROXY_TEST: `${origin.base}/feed.json` }, retries: 0 });
    expect(feed).toMatchObject({ from: "url", text: BODY.toString() });
    await expect(retrieveFromCds({ baseUrl: `${origin.base}/api`, key: "k", dataset: "d", request: {}, output: join(tmpdir(), "never.nc") })).rejects.toThrow(CdsError);

    // Each request went through its own tunnel to the origin (keep-alive may share one; at least one, all to the origin).
    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
    expect(new Set(proxy.tunnels)).toEqual(new Set([originHostPort()]));
    expect(origin.asked.slice(asked)).toEqual(["/data/file.csv", "/feed.json", "/api/retrieve/v1/processes/d/execution"]);
    expect(proxy.auth.every((a) => a === `Basic ${Buffer.from(`pipeline:${PASSWORD}`).toString("base64")}`)).toBe(true);
    expect(logged).toContain("downloads go through the proxy");
    expect(logged).toContain(`${proxy.url} (with credentials)`);
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toContain(encodeURIComponent(PASSWORD));
  });

  it("goes direct to a host NO_PROXY names, through the proxy for the rest", async () => {
    restore = useProxyFromEnv({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" }, capture);
    const before = proxy.tunnels.length;
    const direct = await fetchWithPolicy(`${origin.base}/direct.csv`, policy);
    expect(direct.kind).toBe("body");
    expect(proxy.tunnels.length).toBe(before);
    restore();
    // localhost is the same origin by another name: not in NO_PROXY, so it tunnels.
    restore = useProxyFromEnv({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" }, capture);
    const port = new URL(origin.base).port;
    await fetchWithPolicy(`http://localhost:${port}/via-proxy.csv`, policy);
    expect(proxy.tunnels.slice(before)).toEqual([`localhost:${port}`]);
  });

  it("a proxy that refuses: the download fails with the network reason, and the error names no credentials", async () => {
    const url = withCredentials().replace(/:\d+$/, ":1");
    restore = useProxyFromEnv({ HTTPS_PROXY: url, HTTP_PROXY: url, NO_PROXY: "" }, capture);
    const err = await fetchWithPolicy(`${origin.base}/x.csv`, policy).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/ECONNREFUSED|fetch failed/);
    expect((err as Error).message).not.toContain(PASSWORD);
  });

  it("the pipeline CLI installs the proxy at start, naming it without its credentials", async () => {
    // Any command does (a refresh reads the whole data mirror: about a minute); usage is printed, exit 2.
    const url = withCredentials();
    const env: NodeJS.ProcessEnv = { ...process.env, HTTPS_PROXY: url, HTTP_PROXY: url, NO_PROXY: "", https_proxy: undefined, http_proxy: undefined, no_proxy: undefined, LOG_FORMAT: "json", LOG_LEVEL: "info" };
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "pipeline", "cli.ts")], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (d) => (text += d));
      child.stderr.on("data", (d) => (text += d));
      child.on("error", reject);
      child.on("close", (c) => resolve({ code: c, out: text }));
    });
    expect(code).toBe(2);
    expect(out).toContain("downloads go through the proxy");
    expect(out).toContain(`${proxy.url} (with credentials)`);
    expect(out).not.toContain(PASSWORD);
    expect(out).not.toContain(encodeURIComponent(PASSWORD));
  });
});
