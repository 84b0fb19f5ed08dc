// Downloads behind an outbound proxy. Node's global fetch ignores HTTPS_PROXY / HTTP_PROXY / NO_PROXY; undici's
// EnvHttpProxyAgent honours them (lower-case names too; NO_PROXY as curl reads it: host names, domain suffixes,
// host:port, "*"). Installed as the global dispatcher when the pipeline starts, so every fetch of the pipeline (the
// source refresh, FEED_URL_* feeds, the CDS client) goes through it. Credentials in a proxy URL are sent as
// Proxy-Authorization and never logged: the log names the proxy as scheme://host:port only.
import { EnvHttpProxyAgent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from "undici";
import { log, type Logger } from "../../lib/log.ts";

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/** A variable by its name, the lower-case spelling first (as curl and undici read them); empty counts as unset. */
const envVar = (env: NodeJS.ProcessEnv, name: string) => env[name.toLowerCase()] || env[name] || undefined;

/** "proxy.example:3128" as curl reads it: http:// when no scheme is given. */
const withScheme = (url: string | undefined) => (url && !url.includes("://") ? `http://${url}` : url);

/** The proxy variables of env, or undefined when neither HTTPS_PROXY nor HTTP_PROXY is set. */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const httpProxy = withScheme(envVar(env, "HTTP_PROXY"));
  const httpsProxy = withScheme(envVar(env, "HTTPS_PROXY"));
  if (!httpProxy && !httpsProxy) return undefined;
  return { httpProxy, httpsProxy, noProxy: envVar(env, "NO_PROXY") ?? "" };
}

/** A proxy URL as it may be logged: scheme, host and port, no user, password, path or query. */
export function proxyForLog(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.username || u.password ? " (with credentials)" : ""}`;
  } catch {
    return "(not a URL)";
  }
}

/**
 * Routes the process's fetches through the proxy of env (when one is set) and logs where they go. Returns a function
 * that puts the previous dispatcher back (tests).
 */
export function useProxyFromEnv(env: NodeJS.ProcessEnv = process.env, logger: Logger = log): () => void {
  const settings = proxySettings(env);
  if (!settings) return () => undefined;
  const previous: Dispatcher = getGlobalDispatcher();
  const agent = new EnvHttpProxyAgent(settings);
  setGlobalDispatcher(agent);
  logger.info(
    { httpsProxy: proxyForLog(settings.httpsProxy), httpProxy: proxyForLog(settings.httpProxy), noProxy: settings.noProxy || undefined },
    "downloads go through the proxy",
  );
  return () => {
    setGlobalDispatcher(previous);
    void agent.close();
  };
}
