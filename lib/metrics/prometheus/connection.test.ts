import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../db.ts";
import { parseEnv } from "../../env.ts";
import { createPromClient, parsePromUrl } from "./api.ts";
import { parsePromHeaders, PromConfigError } from "../../config/prometheus.ts";
import { promClientFor, promConnectionFromEnv } from "./connection.ts";
import { createPrometheusSource } from "./source.ts";

// Credentials and extra headers for Prometheus: the settings, their errors, and what a fake
// Prometheus on 127.0.0.1 receives. No message may show a password, a token or a header value.

const PASSWORD = "pa55-w0rd-Xq9";
const TOKEN = "tok-7f3a9c";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gpufleet-promconn-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The error `fn` throws; fails the test when it does not throw. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

/** The error `fn` throws or rejects with; fails the test when it does not. */
async function errorOf(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("PROMETHEUS_HEADERS", () => {
  it("parses Name=value pairs, trimmed, with = allowed in values", () => {
    expect(parsePromHeaders("X-Scope-OrgID=team-a,X-Foo=bar")).toEqual({
      "X-Scope-OrgID": "team-a",
      "X-Foo": "bar",
    });
    expect(parsePromHeaders(" X-Scope-OrgID = team-a|team-b , X-Sig=a=b==")).toEqual({
      "X-Scope-OrgID": "team-a|team-b",
      "X-Sig": "a=b==",
    });
  });

  it.each([
    ["X-Foo", /entry 1 of 1 has no "=": write Name=value pairs/],
    ["X-Foo=bar,", /entry 2 of 2 is empty/],
    ["=bar", /entry 1 of 1 has no header name/],
    ["X Foo=bar", /entry 1 of 1: "X Foo" is not a header name/],
    ["X-Foo=", /X-Foo has an empty value/],
    ["X-A=1,x-a=2", /entry 2 of 2: x-a is given twice/],
    ["Host=evil", /Host cannot be set here/],
  ])("refuses %j", (text, message) => {
    const e = thrown(() => parsePromHeaders(text));
    expect(e).toBeInstanceOf(PromConfigError);
    expect(e.message).toMatch(message);
  });

  it("never quotes a value it refuses", () => {
    for (const text of [
      `Authorization=Bearer ${TOKEN}`,
      `X-Key=${TOKEN}\u00e9`,
      `X-Key=a\t${TOKEN}`,
    ]) {
      expect(thrown(() => parsePromHeaders(text)).message).not.toContain(TOKEN);
    }
    expect(() => parsePromHeaders(`Authorization=Bearer ${TOKEN}`)).toThrow(
      /PROMETHEUS_BEARER_TOKEN_FILE/,
    );
  });
});

describe("environment checks", () => {
  const base = { PROMETHEUS_URL: "https://127.0.0.1:9090" };
  const problem = (extra: Record<string, string>) =>
    thrown(() => parseEnv({ ...base, ...extra })).message;

  it("accepts basic auth, a bearer token, headers and a CA", () => {
    expect(
      parseEnv({
        ...base,
        PROMETHEUS_USERNAME: "alice",
        PROMETHEUS_PASSWORD_FILE: "/run/secrets/p",
        PROMETHEUS_HEADERS: "X-Scope-OrgID=team-a",
        PROMETHEUS_CA_FILE: "/etc/ca.pem",
      }).PROMETHEUS_HEADERS,
    ).toBe("X-Scope-OrgID=team-a");
    expect(parseEnv({ ...base, PROMETHEUS_BEARER_TOKEN_FILE: "/t" }).PROMETHEUS_URL).toBe(
      base.PROMETHEUS_URL,
    );
  });

  it("refuses a user without a password file, and the reverse", () => {
    expect(problem({ PROMETHEUS_USERNAME: "alice" })).toMatch(
      /PROMETHEUS_USERNAME is set without PROMETHEUS_PASSWORD_FILE: basic auth needs both/,
    );
    expect(problem({ PROMETHEUS_PASSWORD_FILE: "/p" })).toMatch(
      /PROMETHEUS_PASSWORD_FILE is set without PROMETHEUS_USERNAME/,
    );
  });

  it("refuses basic auth together with a bearer token", () => {
    expect(
      problem({
        PROMETHEUS_USERNAME: "alice",
        PROMETHEUS_PASSWORD_FILE: "/p",
        PROMETHEUS_BEARER_TOKEN_FILE: "/t",
      }),
    ).toMatch(/PROMETHEUS_BEARER_TOKEN_FILE are both set/);
  });

  it("refuses credentials both in the URL and in settings, without showing them", () => {
    const msg = problem({
      PROMETHEUS_URL: `https://alice:${PASSWORD}@127.0.0.1:9090`,
      PROMETHEUS_BEARER_TOKEN_FILE: "/t",
    });
    expect(msg).toMatch(/PROMETHEUS_URL carries a user and password .* give the credentials once/);
    expect(msg).not.toContain(PASSWORD);
  });

  it("refuses a CA for an http:// Prometheus, a ':' in the user, and bad headers", () => {
    expect(problem({ PROMETHEUS_URL: "http://127.0.0.1:9090", PROMETHEUS_CA_FILE: "/ca" })).toMatch(
      /PROMETHEUS_CA_FILE is set but PROMETHEUS_URL is not https/,
    );
    expect(problem({ PROMETHEUS_URL: "ftp://127.0.0.1:9090" })).toMatch(
      /PROMETHEUS_URL must start with http:\/\/ or https:\/\//,
    );
    expect(problem({ PROMETHEUS_USERNAME: "a:b", PROMETHEUS_PASSWORD_FILE: "/p" })).toMatch(
      /cannot contain ":"/,
    );
    expect(problem({ PROMETHEUS_HEADERS: `X-Scope-OrgID` })).toMatch(
      /PROMETHEUS_HEADERS: PROMETHEUS_HEADERS entry 1 of 1 has no "="/,
    );
  });

  it("lets credentials in the URL through, and an invalid URL's error does not repeat it", () => {
    expect(() =>
      parseEnv({ PROMETHEUS_URL: `http://alice:${PASSWORD}@127.0.0.1:9090` }),
    ).not.toThrow();
    const msg = problem({ PROMETHEUS_URL: `http://alice:${PASSWORD}@[::1` });
    expect(msg).toMatch(/PROMETHEUS_URL/);
    expect(msg).not.toContain(PASSWORD);
  });
});

describe("the Prometheus URL", () => {
  it("moves user:password@ into basic auth, decoded, and shows the address without it", () => {
    const u = parsePromUrl(
      `http://alice:${encodeURIComponent(`${PASSWORD}@/:`)}@127.0.0.1:9090/prom/?x=1#f`,
    );
    expect(u.auth).toEqual({ kind: "basic", username: "alice", password: `${PASSWORD}@/:` });
    expect(u.shown).toBe("http://127.0.0.1:9090/prom");
    expect(u.basePath).toBe("/prom");
    expect(u.target.toString()).toBe("http://127.0.0.1:9090/prom/?x=1");
    expect(parsePromUrl("https://127.0.0.1:9090/").shown).toBe("https://127.0.0.1:9090");
    expect(parsePromUrl("https://127.0.0.1:9090").auth).toBeUndefined();
  });

  it("refuses what is not an http(s) URL without repeating it", async () => {
    const e = await errorOf(() => createPromClient(`alice:${PASSWORD}@nowhere`));
    expect(e.message).toMatch(/not a valid URL|must start with http/);
    expect(e.message).not.toContain(PASSWORD);
  });
});

describe("promConnectionFromEnv", () => {
  it("is null without PROMETHEUS_URL", () => {
    expect(promConnectionFromEnv({})).toBeNull();
    expect(promConnectionFromEnv({ PROMETHEUS_URL: "" })).toBeNull();
  });

  it("reads the password and token files without their trailing newline", () => {
    const conn = promConnectionFromEnv({
      PROMETHEUS_URL: "http://127.0.0.1:9090/",
      PROMETHEUS_USERNAME: "alice",
      PROMETHEUS_PASSWORD_FILE: file("password", `${PASSWORD}\r\n`),
      PROMETHEUS_HEADERS: "X-Scope-OrgID=team-a",
    });
    expect(conn?.options.auth).toEqual({ kind: "basic", username: "alice", password: PASSWORD });
    expect(conn?.options.headers).toEqual({ "X-Scope-OrgID": "team-a" });
    expect(conn?.url).toBe("http://127.0.0.1:9090");
    const bearer = promConnectionFromEnv({
      PROMETHEUS_URL: "http://127.0.0.1:9090",
      PROMETHEUS_BEARER_TOKEN_FILE: file("token", `${TOKEN}\n`),
    });
    expect(bearer?.options.auth).toEqual({ kind: "bearer", token: TOKEN });
  });

  it("takes basic auth from the URL and sends requests to the URL without it", () => {
    const conn = promConnectionFromEnv({ PROMETHEUS_URL: `http://bob:${PASSWORD}@127.0.0.1:9090` });
    expect(conn?.options.auth).toEqual({ kind: "basic", username: "bob", password: PASSWORD });
    expect(conn?.requestUrl).toBe("http://127.0.0.1:9090/");
    expect(conn?.url).toBe("http://127.0.0.1:9090");
  });

  it("says which file cannot be used, never what is in it", () => {
    const url = { PROMETHEUS_URL: "https://127.0.0.1:9090" };
    const msg = (s: Record<string, string>) =>
      thrown(() => promConnectionFromEnv({ ...url, ...s })).message;
    const missing = join(dir, "missing");
    expect(msg({ PROMETHEUS_USERNAME: "alice", PROMETHEUS_PASSWORD_FILE: missing })).toBe(
      `PROMETHEUS_PASSWORD_FILE: cannot read ${missing} (ENOENT)`,
    );
    expect(
      msg({ PROMETHEUS_USERNAME: "alice", PROMETHEUS_PASSWORD_FILE: file("empty", "\n") }),
    ).toMatch(/PROMETHEUS_PASSWORD_FILE: .*empty is empty/);
    const twoLines = msg({
      PROMETHEUS_USERNAME: "alice",
      PROMETHEUS_PASSWORD_FILE: file("two", `${PASSWORD}\n${PASSWORD}\n`),
    });
    expect(twoLines).toMatch(/holds more than one line/);
    expect(twoLines).not.toContain(PASSWORD);
    const spaced = msg({ PROMETHEUS_BEARER_TOKEN_FILE: file("spaced", `Bearer ${TOKEN}\n`) });
    expect(spaced).toMatch(
      /PROMETHEUS_BEARER_TOKEN_FILE: .* holds characters a token cannot carry/,
    );
    expect(spaced).not.toContain(TOKEN);
    expect(msg({ PROMETHEUS_CA_FILE: file("ca.txt", "not a certificate") })).toMatch(
      /PROMETHEUS_CA_FILE: .* holds no PEM certificate/,
    );
    expect(msg({ PROMETHEUS_USERNAME: "alice" })).toMatch(/basic auth needs both/);
    expect(
      thrown(() => promConnectionFromEnv({ ...url, PROMETHEUS_CA_FILE: missing })),
    ).toBeInstanceOf(PromConfigError);
  });
});

/** A fake Prometheus: answers as `reply` says and keeps the last request's headers and path. */
describe("requests to a fake Prometheus on 127.0.0.1", () => {
  let server: Server;
  let origin: string;
  let last: { path: string; headers: IncomingMessage["headers"]; body: string } | null = null;
  let reply: (req: IncomingMessage, res: ServerResponse) => void;
  const vector = JSON.stringify({
    status: "success",
    data: { resultType: "vector", result: [{ metric: {}, value: [1, "1"] }] },
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        last = { path: req.url ?? "", headers: req.headers, body };
        reply(req, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    last = null;
  });

  /** Answers the vector to a request carrying `authorization` and X-Scope-OrgID team-a; else 401. */
  const expecting = (authorization: string) => (req: IncomingMessage, res: ServerResponse) => {
    const ok =
      req.headers.authorization === authorization && req.headers["x-scope-orgid"] === "team-a";
    if (ok) res.writeHead(200, { "content-type": "application/json" }).end(vector);
    else res.writeHead(401, { "www-authenticate": "Bearer" }).end("Unauthorized\n");
  };

  it("sends the bearer token and the extra headers, to the URL's path", async () => {
    reply = expecting(`Bearer ${TOKEN}`);
    const client = promClientFor(
      promConnectionFromEnv({
        PROMETHEUS_URL: `${origin}/prom/`,
        PROMETHEUS_BEARER_TOKEN_FILE: file("t", `${TOKEN}\n`),
        PROMETHEUS_HEADERS: "X-Scope-OrgID=team-a,X-Extra=yes",
      }) ?? (null as never),
    );
    expect(await client.query("vector(1)")).toEqual([{ metric: {}, value: [1, "1"] }]);
    expect(last?.path).toBe("/prom/api/v1/query");
    expect(last?.headers["x-extra"]).toBe("yes");
    expect(last?.body).toBe("query=vector%281%29");
  });

  it("sends the URL's user and password as basic auth, and never shows them", async () => {
    const basic = `Basic ${Buffer.from(`bob:${PASSWORD}`).toString("base64")}`;
    reply = expecting(basic);
    const headers = { "X-Scope-OrgID": "team-a" };
    const url = `http://bob:${PASSWORD}@${origin.slice("http://".length)}/prom`;
    expect(await createPromClient(url, { headers }).query("vector(1)")).toHaveLength(1);
    const wrong = url.replace(PASSWORD, "nope");
    const e = await errorOf(() => createPromClient(wrong, { headers }).query("vector(1)"));
    expect(e.message).toBe(
      `401 from Prometheus at ${origin}/prom: the credentials were refused (check the user and password in PROMETHEUS_URL)`,
    );
    expect(e.message).not.toContain("nope");
  });

  it("names the settings to check on a 401 and a 403", async () => {
    reply = (_req, res) => res.writeHead(401).end("no org id");
    const none = await errorOf(() => createPromClient(origin).query("up"));
    expect(none.message).toMatch(
      /^401 from Prometheus at http:\/\/127\.0\.0\.1:\d+: it wants credentials and none were sent \(set PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD_FILE, or PROMETHEUS_BEARER_TOKEN_FILE; .*X-Scope-OrgID/,
    );
    const basic = await errorOf(() =>
      createPromClient(origin, {
        auth: { kind: "basic", username: "alice", password: PASSWORD },
      }).query("up"),
    );
    expect(basic.message).toBe(
      `401 from Prometheus at ${origin}: the credentials were refused (check PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD_FILE)`,
    );
    const bearer = await errorOf(() =>
      createPromClient(origin, { auth: { kind: "bearer", token: TOKEN } }).query("up"),
    );
    expect(bearer.message).toMatch(
      /the credentials were refused \(check PROMETHEUS_BEARER_TOKEN_FILE\)/,
    );
    reply = (_req, res) => res.writeHead(403).end("forbidden");
    const refused = await errorOf(() =>
      createPromClient(origin, { auth: { kind: "bearer", token: TOKEN } }).query("up"),
    );
    expect(refused.message).toBe(
      `403 from Prometheus at ${origin}: access was refused (check PROMETHEUS_BEARER_TOKEN_FILE, and the tenant or other headers in PROMETHEUS_HEADERS)`,
    );
    expect((await errorOf(() => createPromClient(origin).query("up"))).message).toBe(
      `403 from Prometheus at ${origin}: access was refused (check the tenant or other headers in PROMETHEUS_HEADERS)`,
    );
    expect(refused.message).toMatch(
      /^403 from Prometheus at .*: access was refused \(check PROMETHEUS_BEARER_TOKEN_FILE/,
    );
    for (const m of [none, basic, bearer, refused].map((x) => x.message)) {
      expect(m).not.toContain(PASSWORD);
      expect(m).not.toContain(TOKEN);
    }
  });

  it("reports the source unhealthy with that message", async () => {
    reply = (_req, res) => res.writeHead(401).end();
    const client = createPromClient(`http://alice:${PASSWORD}@${origin.slice(7)}`);
    const health = await createPrometheusSource({} as Db, origin, client).health();
    expect(health.ok).toBe(false);
    expect(health.error).toMatch(
      /^401 from Prometheus at http:\/\/127\.0\.0\.1:\d+: the credentials/,
    );
    expect(health.error).not.toContain(PASSWORD);
  });

  it("reads a gzipped answer", async () => {
    reply = (req, res) => {
      expect(req.headers["accept-encoding"]).toContain("gzip");
      res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(vector));
    };
    expect(await createPromClient(origin).query("vector(1)")).toHaveLength(1);
  });

  it("does not follow a redirect, and shows where it points without credentials", async () => {
    reply = (_req, res) =>
      res.writeHead(302, { location: `https://u:${PASSWORD}@127.0.0.1:1/other?token=x` }).end();
    const e = await errorOf(() => createPromClient(origin).query("up"));
    expect(e.message).toBe(
      `Prometheus at ${origin} answered HTTP 302, a redirect to https://127.0.0.1:1/other: set PROMETHEUS_URL to the address that answers`,
    );
  });

  it("says what answered when it is not the API, and relays the API's own errors", async () => {
    reply = (_req, res) => res.writeHead(502).end("<html>bad gateway</html>");
    expect((await errorOf(() => createPromClient(origin).query("up"))).message).toBe(
      `Prometheus at ${origin} answered HTTP 502 with something that is not its API`,
    );
    reply = (_req, res) =>
      res
        .writeHead(400)
        .end(JSON.stringify({ status: "error", errorType: "bad_data", error: "parse error" }));
    expect((await errorOf(() => createPromClient(origin).query("up("))).message).toBe(
      "Prometheus query failed: bad_data parse error",
    );
  });

  it("gives up after the timeout, and names an address that does not answer", async () => {
    reply = () => {}; // never answers
    const slow = await errorOf(() =>
      createPromClient(`http://u:${PASSWORD}@${origin.slice(7)}`, { timeoutMs: 200 }).query("up"),
    );
    expect(slow.message).toBe(`Prometheus at ${origin} did not answer within 200 ms`);
    reply = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).write('{"status":'); // stalls
    };
    const stalled = await errorOf(() => createPromClient(origin, { timeoutMs: 200 }).query("up"));
    expect(stalled.message).toBe(`Prometheus at ${origin} did not answer within 200 ms`);
    reply = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).write('{"status":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const cut = await errorOf(() => createPromClient(origin).query("up"));
    expect(cut.message).toBe(`Prometheus at ${origin} broke off its answer: aborted`);
    server.closeAllConnections();
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const down = await errorOf(() =>
      createPromClient(`http://u:${PASSWORD}@127.0.0.1:${port}`).query("up"),
    );
    expect(down.message).toBe(
      `Prometheus unreachable at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});
