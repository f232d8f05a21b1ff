import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { request } from "node:https";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "./log.ts";
import { startExporter, type RunningExporter } from "./server.ts";
import { HAVE_OPENSSL, selfSignedCert } from "./test/helpers.ts";

const HASH = bcrypt.hashSync("s3cret", 4);
const basic = (user: string, pass: string) =>
  `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

function httpsGet(url: string, ca: Buffer | string, authorization?: string) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = request(url, { ca, headers: authorization ? { authorization } : {} }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on("error", reject);
      req.end();
    },
  );
}

describe.skipIf(!HAVE_OPENSSL)("--web.config.file with TLS and basic auth", () => {
  let e: RunningExporter;
  let cert: string;
  beforeAll(async () => {
    const tls = selfSignedCert();
    cert = tls.cert;
    const file = join(tls.dir, "web.yml");
    // relative paths resolve against the config file's directory, as in exporter-toolkit
    writeFileSync(
      file,
      `tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\nbasic_auth_users:\n  alice: ${HASH}\n`,
    );
    e = await startExporter({
      listenAddress: "127.0.0.1:0",
      webConfigFile: file,
      simulate: true,
      logger: silentLogger,
    });
  });
  afterAll(() => e.close());

  it("serves metrics over https to the right user", async () => {
    expect(e.url).toMatch(/^https:/);
    const ca = readFileSync(cert);
    const ok = await httpsGet(`${e.url}/metrics`, ca, basic("alice", "s3cret"));
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("gpu_host_info");
    const again = await httpsGet(`${e.url}/metrics`, ca, basic("alice", "s3cret")); // cached check
    expect(again.status).toBe(200);
  });

  it("refuses a wrong password, an unknown user and no credentials with 401", async () => {
    const ca = readFileSync(cert);
    for (const auth of [
      basic("alice", "wrong"),
      basic("mallory", "s3cret"),
      undefined,
      "Bearer x",
    ]) {
      const r = await httpsGet(`${e.url}/metrics`, ca, auth);
      expect(r.status).toBe(401);
      expect(String(r.headers["www-authenticate"])).toMatch(/^Basic/);
      expect(r.body).not.toContain("gpu_");
    }
    expect((await httpsGet(`${e.url}/targets.json`, ca)).status).toBe(401);
  });

  it("keeps /healthz open without credentials", async () => {
    expect((await httpsGet(`${e.url}/healthz`, readFileSync(cert))).status).toBe(200);
  });

  it("lists https targets so Prometheus scrapes the right scheme", async () => {
    const r = await httpsGet(`${e.url}/targets.json`, readFileSync(cert), basic("alice", "s3cret"));
    expect(JSON.parse(r.body)[0].labels.__scheme__).toBe("https");
  });
});

describe("web config validation", () => {
  const write = (text: string) => {
    const file = join(mkdtempSync(join(tmpdir(), "webcfg-")), "web.yml");
    writeFileSync(file, text);
    return file;
  };
  it("refuses unknown keys, non-bcrypt passwords and missing files", async () => {
    const start = (file: string) =>
      startExporter({
        listenAddress: "127.0.0.1:0",
        webConfigFile: file,
        simulate: true,
        logger: silentLogger,
      });
    await expect(start(write("basic_auth_user:\n  a: b\n"))).rejects.toThrow(/basic_auth_user/);
    await expect(start(write("basic_auth_users:\n  alice: plaintext\n"))).rejects.toThrow(/bcrypt/);
    await expect(
      start(write("tls_server_config:\n  cert_file: nope.pem\n  key_file: nope.key\n")),
    ).rejects.toThrow(/nope.pem/);
    await expect(start("/nonexistent/web.yml")).rejects.toThrow(/web.config.file/);
  });

  it("basic auth works without TLS too", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "webcfg-")), "auth-only.yml");
    writeFileSync(file, `basic_auth_users:\n  bob: ${HASH}\n`);
    const e = await startExporter({
      listenAddress: "127.0.0.1:0",
      webConfigFile: file,
      simulate: true,
      logger: silentLogger,
    });
    try {
      expect((await fetch(`${e.url}/metrics`)).status).toBe(401);
      const ok = await fetch(`${e.url}/metrics`, {
        headers: { authorization: basic("bob", "s3cret") },
      });
      expect(ok.status).toBe(200);
      expect((await fetch(`${e.url}/healthz`)).status).toBe(200);
    } finally {
      await e.close();
    }
  });
});
