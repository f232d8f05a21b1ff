import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db.ts";
import { freePort, hasPrometheus, PROMETHEUS_BIN } from "../../testing/prometheus.ts";
import { createPromClient } from "./api.ts";
import { promClientFor, promConnectionFromEnv } from "./connection.ts";
import type { PromSettings } from "../../config/prometheus.ts";
import { createPrometheusSource } from "./source.ts";

// Debian's Prometheus on 127.0.0.1 behind its own --web.config.file: TLS with a throwaway
// certificate and basic auth. The app reads it with PROMETHEUS_USERNAME, PROMETHEUS_PASSWORD_FILE
// and PROMETHEUS_CA_FILE, and says clearly what is wrong when one of them is.

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;
if (!hasPrometheus || !hasOpenssl)
  console.warn(
    "NOTICE: /usr/bin/prometheus or openssl not found; skipping the TLS and basic auth test",
  );

const USER = "gpufleet";
const PASSWORD = "right-horse-battery-7";
const WRONG = "wrong-staple-3";

describe.skipIf(!hasPrometheus || !hasOpenssl)("Prometheus with TLS and basic auth", () => {
  let dir: string;
  let child: ChildProcess | undefined;
  let url: string;
  let settings: PromSettings;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "gpufleet-promtls-"));
    const cert = join(dir, "cert.pem");
    const key = join(dir, "key.pem");
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
        ...["-nodes", "-days", "1", "-keyout", key, "-out", cert, "-subj", "/CN=127.0.0.1"],
        ...["-addext", "subjectAltName=IP:127.0.0.1"],
      ],
      { stdio: "ignore" },
    );
    const web = join(dir, "web.yml");
    writeFileSync(
      web,
      `tls_server_config:\n  cert_file: ${cert}\n  key_file: ${key}\n` +
        `basic_auth_users:\n  ${USER}: ${bcrypt.hashSync(PASSWORD, 4)}\n`,
    );
    const config = join(dir, "prometheus.yml");
    writeFileSync(config, "global:\n  scrape_interval: 1m\n");
    const port = await freePort();
    url = `https://127.0.0.1:${port}`;
    settings = {
      PROMETHEUS_URL: url,
      PROMETHEUS_USERNAME: USER,
      PROMETHEUS_PASSWORD_FILE: join(dir, "password"),
      PROMETHEUS_CA_FILE: cert,
    };
    writeFileSync(join(dir, "password"), `${PASSWORD}\n`);
    writeFileSync(join(dir, "wrong"), `${WRONG}\n`);
    const proc = spawn(
      PROMETHEUS_BIN,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
        `--web.config.file=${web}`,
        "--log.level=warn",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    child = proc;
    let stderr = "";
    proc.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const client = promClientFor(promConnectionFromEnv(settings) ?? (null as never));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
      try {
        await client.query("vector(1)");
        break;
      } catch (e) {
        if (Date.now() > deadline)
          throw new Error(`prometheus not ready in 30 s: ${(e as Error).message} ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60_000);

  afterAll(async () => {
    const proc = child;
    if (proc && proc.exitCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("answers a query with the right credentials and PROMETHEUS_CA_FILE", async () => {
    const client = promClientFor(promConnectionFromEnv(settings) ?? (null as never));
    const [sample] = await client.query("vector(1)");
    expect(sample?.value[1]).toBe("1");
    expect(await client.query("up")).toEqual([]);
    // the same credentials in the URL work too
    const inUrl = promConnectionFromEnv({
      PROMETHEUS_URL: `https://${USER}:${PASSWORD}@127.0.0.1:${new URL(url).port}`,
      PROMETHEUS_CA_FILE: settings.PROMETHEUS_CA_FILE,
    });
    expect(await promClientFor(inUrl ?? (null as never)).query("vector(2)")).toHaveLength(1);
  });

  it("says a wrong password was refused, without showing it", async () => {
    const wrong = { ...settings, PROMETHEUS_PASSWORD_FILE: join(dir, "wrong") };
    const client = promClientFor(promConnectionFromEnv(wrong) ?? (null as never));
    const error = await client.query("vector(1)").then(
      () => new Error("the query succeeded"),
      (e: unknown) => e as Error,
    );
    expect(error.message).toBe(
      `401 from Prometheus at ${url}: the credentials were refused (check PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD_FILE)`,
    );
    expect(error.message).not.toContain(WRONG);
    expect(error.message).not.toContain(PASSWORD);
  });

  it("says TLS verification failed and names PROMETHEUS_CA_FILE when no CA is given", async () => {
    const noCa = { ...settings, PROMETHEUS_CA_FILE: undefined };
    const client = promClientFor(promConnectionFromEnv(noCa) ?? (null as never));
    await expect(client.query("vector(1)")).rejects.toThrow(
      new RegExp(
        `^TLS verification of Prometheus at ${url} failed: .*; set PROMETHEUS_CA_FILE to a PEM file with the certificate of the CA that signed it \\(or, if self-signed, the certificate itself\\)$`,
      ),
    );
  });

  it("says so when PROMETHEUS_CA_FILE holds another CA", async () => {
    const other = join(dir, "other");
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
        ...["-nodes", "-days", "1", "-keyout", `${other}.key`, "-out", `${other}.pem`],
        ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
      ],
      { stdio: "ignore" },
    );
    const client = promClientFor(
      promConnectionFromEnv({ ...settings, PROMETHEUS_CA_FILE: `${other}.pem` }) ?? (null as never),
    );
    await expect(client.query("vector(1)")).rejects.toThrow(
      /^TLS verification of Prometheus at .* failed: .*; check that PROMETHEUS_CA_FILE holds the certificate of the CA/,
    );
  });

  it("reports the refusal as the source's health", async () => {
    const wrong = { ...settings, PROMETHEUS_PASSWORD_FILE: join(dir, "wrong") };
    const conn = promConnectionFromEnv(wrong) ?? (null as never);
    const source = createPrometheusSource({} as Db, conn.url, promClientFor(conn));
    const health = await source.health();
    expect(health).toEqual({
      ok: false,
      lastSuccess: null,
      error: `401 from Prometheus at ${url}: the credentials were refused (check PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD_FILE)`,
    });
    const good = promConnectionFromEnv(settings) ?? (null as never);
    const ok = await createPrometheusSource({} as Db, good.url, promClientFor(good)).health();
    expect(ok.ok).toBe(true);
    expect(ok.lastSuccess).toBeInstanceOf(Date);
  });

  it("answers plain http with a clear error, not a crash", async () => {
    const plain = createPromClient(url.replace("https:", "http:"));
    await expect(plain.query("vector(1)")).rejects.toThrow(
      /^Prometheus at http:\/\/127\.0\.0\.1:\d+ answered HTTP 400 with something that is not its API$/,
    );
  });
});
