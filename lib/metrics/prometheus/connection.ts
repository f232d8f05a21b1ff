import { readFileSync } from "node:fs";
import { env } from "../../env.ts";
import { createPromClient, parsePromUrl, type PromClient, type PromClientOptions } from "./api.ts";
import {
  parsePromHeaders,
  PromConfigError,
  promSettingsProblems,
  type PromSettings,
} from "../../config/prometheus.ts";

// The one place a Prometheus client is made from the environment: the metrics source, the
// collector and the alert evaluator all share it (and its open connections). Secrets are read
// from files and never logged or put in a message; only the variable and the file's path are.

export interface PromConnection {
  /** PROMETHEUS_URL as messages show it: no credentials, no query */
  url: string;
  /** the URL requests go to, with any `user:password@` moved into `options.auth` */
  requestUrl: string;
  options: PromClientOptions;
}

const isSet = (v: string | undefined): v is string => v !== undefined && v !== "";

function readSetting(variable: keyof PromSettings, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "unreadable";
    throw new PromConfigError(variable, `${variable}: cannot read ${path} (${code})`);
  }
}

/** A password or token from its file, without the trailing newline editors and `echo` add. */
function readSecret(variable: keyof PromSettings, path: string): string {
  const secret = readSetting(variable, path).replace(/[\r\n]+$/, "");
  if (secret === "") throw new PromConfigError(variable, `${variable}: ${path} is empty`);
  if (/[\r\n\0]/.test(secret))
    throw new PromConfigError(variable, `${variable}: ${path} holds more than one line`);
  return secret;
}

/**
 * How to reach Prometheus according to `settings` (the environment, or a test's own), or null
 * when PROMETHEUS_URL is unset. Reads the password, token and CA files; throws PromConfigError
 * for settings that cannot work.
 */
export function promConnectionFromEnv(settings: PromSettings): PromConnection | null {
  if (!isSet(settings.PROMETHEUS_URL)) return null;
  const [problem] = promSettingsProblems(settings);
  if (problem) throw problem;
  const parsed = parsePromUrl(settings.PROMETHEUS_URL);
  const options: PromClientOptions = {};
  if (isSet(settings.PROMETHEUS_USERNAME) && isSet(settings.PROMETHEUS_PASSWORD_FILE)) {
    options.auth = {
      kind: "basic",
      username: settings.PROMETHEUS_USERNAME,
      password: readSecret("PROMETHEUS_PASSWORD_FILE", settings.PROMETHEUS_PASSWORD_FILE),
    };
  } else if (isSet(settings.PROMETHEUS_BEARER_TOKEN_FILE)) {
    const token = readSecret("PROMETHEUS_BEARER_TOKEN_FILE", settings.PROMETHEUS_BEARER_TOKEN_FILE);
    if (!/^[\x21-\x7e]+$/.test(token))
      throw new PromConfigError(
        "PROMETHEUS_BEARER_TOKEN_FILE",
        `PROMETHEUS_BEARER_TOKEN_FILE: ${settings.PROMETHEUS_BEARER_TOKEN_FILE} holds characters a token cannot carry (spaces or non-ASCII)`,
      );
    options.auth = { kind: "bearer", token };
  } else if (parsed.auth) {
    options.auth = parsed.auth;
  }
  if (isSet(settings.PROMETHEUS_HEADERS))
    options.headers = parsePromHeaders(settings.PROMETHEUS_HEADERS);
  if (isSet(settings.PROMETHEUS_CA_FILE)) {
    const ca = readSetting("PROMETHEUS_CA_FILE", settings.PROMETHEUS_CA_FILE);
    if (!ca.includes("-----BEGIN CERTIFICATE-----"))
      throw new PromConfigError(
        "PROMETHEUS_CA_FILE",
        `PROMETHEUS_CA_FILE: ${settings.PROMETHEUS_CA_FILE} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
      );
    options.ca = ca;
  }
  return { url: parsed.shown, requestUrl: parsed.target.toString(), options };
}

/** A client for a connection. */
export function promClientFor(conn: PromConnection): PromClient {
  return createPromClient(conn.requestUrl, conn.options);
}

const g = globalThis as unknown as {
  gpufleetProm?: { connection: PromConnection; client: PromClient } | null;
};

/** The app's Prometheus (from the environment) and its one client; null without PROMETHEUS_URL. */
export function promFromEnv(): { connection: PromConnection; client: PromClient } | null {
  if (g.gpufleetProm === undefined) {
    const connection = promConnectionFromEnv(env);
    g.gpufleetProm = connection ? { connection, client: promClientFor(connection) } : null;
  }
  return g.gpufleetProm;
}
