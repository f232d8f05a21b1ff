// The settings for reaching a Prometheus that wants credentials, checked without reading a single
// secret: PROMETHEUS_HEADERS and the combinations that cannot work. lib/env.ts runs these checks
// when the app starts; lib/metrics/prometheus/connection.ts reads the files. No message here quotes a
// header value, a password or a token: they may be secrets.

/** The environment variables that say how to reach Prometheus. */
export interface PromSettings {
  PROMETHEUS_URL?: string | undefined;
  PROMETHEUS_USERNAME?: string | undefined;
  PROMETHEUS_PASSWORD_FILE?: string | undefined;
  PROMETHEUS_BEARER_TOKEN_FILE?: string | undefined;
  PROMETHEUS_HEADERS?: string | undefined;
  PROMETHEUS_CA_FILE?: string | undefined;
}

export class PromConfigError extends Error {
  constructor(
    /** the variable at fault */
    readonly variable: keyof PromSettings,
    message: string,
  ) {
    super(message);
    this.name = "PromConfigError";
  }
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a header value may carry here: printable ASCII (spaces inside, no control characters). */
const HEADER_VALUE = /^[\x20-\x7e]+$/;

/** Headers the app sets itself, or that the credential settings cover. */
const RESERVED: Record<string, string> = {
  authorization:
    "set credentials with PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD_FILE, or PROMETHEUS_BEARER_TOKEN_FILE",
  host: "the app sets it from PROMETHEUS_URL",
  "content-type": "the app sets it",
  "content-length": "the app sets it",
  "transfer-encoding": "the app sets it",
  "accept-encoding": "the app sets it",
  connection: "the app sets it",
};

const EXAMPLE = "write Name=value pairs separated by commas, e.g. X-Scope-OrgID=team-a,X-Foo=bar";

/**
 * PROMETHEUS_HEADERS: `Name=value` pairs separated by commas (`X-Scope-OrgID=team-a,X-Foo=bar`).
 * Names and values are trimmed; a value may contain `=` but not a comma.
 */
export function parsePromHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  const entries = text.split(",");
  entries.forEach((raw, i) => {
    const where = `PROMETHEUS_HEADERS entry ${i + 1} of ${entries.length}`;
    const entry = raw.trim();
    if (entry === "")
      throw new PromConfigError("PROMETHEUS_HEADERS", `${where} is empty: ${EXAMPLE}`);
    const eq = entry.indexOf("=");
    if (eq < 0) throw new PromConfigError("PROMETHEUS_HEADERS", `${where} has no "=": ${EXAMPLE}`);
    const name = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1).trim();
    if (name === "")
      throw new PromConfigError("PROMETHEUS_HEADERS", `${where} has no header name: ${EXAMPLE}`);
    if (!HEADER_NAME.test(name))
      throw new PromConfigError(
        "PROMETHEUS_HEADERS",
        `${where}: ${JSON.stringify(name)} is not a header name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
      );
    const key = name.toLowerCase();
    const reserved = RESERVED[key];
    if (reserved)
      throw new PromConfigError(
        "PROMETHEUS_HEADERS",
        `${where}: ${name} cannot be set here (${reserved})`,
      );
    if (seen.has(key))
      throw new PromConfigError("PROMETHEUS_HEADERS", `${where}: ${name} is given twice`);
    seen.add(key);
    if (value === "")
      throw new PromConfigError("PROMETHEUS_HEADERS", `${where}: ${name} has an empty value`);
    if (!HEADER_VALUE.test(value))
      throw new PromConfigError(
        "PROMETHEUS_HEADERS",
        `${where}: the value of ${name} has characters a header cannot carry (printable ASCII only)`,
      );
    out[name] = value;
  });
  return out;
}

const isSet = (v: string | undefined): v is string => v !== undefined && v !== "";

/** Whether a URL carries a user (and maybe a password) before its host. */
export function hasUserinfo(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username !== "" || u.password !== "";
  } catch {
    return false;
  }
}

/** Every combination of settings that cannot work; empty when they can. Empty strings are unset. */
export function promSettingsProblems(s: PromSettings): PromConfigError[] {
  const problems: PromConfigError[] = [];
  const user = isSet(s.PROMETHEUS_USERNAME);
  const passwordFile = isSet(s.PROMETHEUS_PASSWORD_FILE);
  const bearer = isSet(s.PROMETHEUS_BEARER_TOKEN_FILE);
  if (user && !passwordFile)
    problems.push(
      new PromConfigError(
        "PROMETHEUS_USERNAME",
        "PROMETHEUS_USERNAME is set without PROMETHEUS_PASSWORD_FILE: basic auth needs both",
      ),
    );
  if (passwordFile && !user)
    problems.push(
      new PromConfigError(
        "PROMETHEUS_PASSWORD_FILE",
        "PROMETHEUS_PASSWORD_FILE is set without PROMETHEUS_USERNAME: basic auth needs both",
      ),
    );
  if (user && s.PROMETHEUS_USERNAME?.includes(":"))
    problems.push(
      new PromConfigError(
        "PROMETHEUS_USERNAME",
        'PROMETHEUS_USERNAME cannot contain ":" (basic auth splits user and password there)',
      ),
    );
  if ((user || passwordFile) && bearer)
    problems.push(
      new PromConfigError(
        "PROMETHEUS_BEARER_TOKEN_FILE",
        "basic auth (PROMETHEUS_USERNAME, PROMETHEUS_PASSWORD_FILE) and PROMETHEUS_BEARER_TOKEN_FILE " +
          "are both set: a request carries one Authorization header, so set one of them",
      ),
    );
  if (isSet(s.PROMETHEUS_URL) && !/^https?:\/\//i.test(s.PROMETHEUS_URL))
    problems.push(
      new PromConfigError("PROMETHEUS_URL", "PROMETHEUS_URL must start with http:// or https://"),
    );
  if (isSet(s.PROMETHEUS_URL) && hasUserinfo(s.PROMETHEUS_URL) && (user || passwordFile || bearer))
    problems.push(
      new PromConfigError(
        "PROMETHEUS_URL",
        "PROMETHEUS_URL carries a user and password and PROMETHEUS_USERNAME, " +
          "PROMETHEUS_PASSWORD_FILE or PROMETHEUS_BEARER_TOKEN_FILE is set too: give the credentials once",
      ),
    );
  if (isSet(s.PROMETHEUS_CA_FILE) && isSet(s.PROMETHEUS_URL)) {
    let https = false;
    try {
      https = new URL(s.PROMETHEUS_URL).protocol === "https:";
    } catch {
      /* reported as an invalid URL */
    }
    if (!https)
      problems.push(
        new PromConfigError(
          "PROMETHEUS_CA_FILE",
          "PROMETHEUS_CA_FILE is set but PROMETHEUS_URL is not https://: the CA would not be used",
        ),
      );
  }
  if (isSet(s.PROMETHEUS_HEADERS)) {
    try {
      parsePromHeaders(s.PROMETHEUS_HEADERS);
    } catch (e) {
      if (!(e instanceof PromConfigError)) throw e;
      problems.push(e);
    }
  }
  return problems;
}
