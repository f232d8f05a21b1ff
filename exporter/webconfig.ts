// The Prometheus exporter-toolkit web config (--web.config.file): TLS and basic auth, read
// once at start. Unknown keys are refused as exporter-toolkit does, so a typo cannot silently
// leave an endpoint open. Relative file paths are relative to the config file.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { SecureVersion } from "node:tls";
import bcrypt from "bcryptjs";
import { parse } from "yaml";
import { z } from "zod";
import { ConfigError } from "./config.ts";

const TLS_VERSIONS: Record<string, SecureVersion> = {
  TLS10: "TLSv1",
  TLS11: "TLSv1.1",
  TLS12: "TLSv1.2",
  TLS13: "TLSv1.3",
};

const schema = z
  .object({
    tls_server_config: z
      .object({
        cert_file: z.string().min(1),
        key_file: z.string().min(1),
        client_auth_type: z
          .enum(["NoClientCert", "RequireAndVerifyClientCert", "VerifyClientCertIfGiven"])
          .optional(),
        client_ca_file: z.string().min(1).optional(),
        min_version: z.enum(["TLS10", "TLS11", "TLS12", "TLS13"]).optional(),
        max_version: z.enum(["TLS10", "TLS11", "TLS12", "TLS13"]).optional(),
      })
      .strict()
      .optional(),
    http_server_config: z
      .object({
        http2: z.boolean().optional(),
        headers: z.record(z.string(), z.string()).optional(),
      })
      .strict()
      .optional(),
    basic_auth_users: z.record(z.string(), z.string()).optional(),
  })
  .strict();

export interface TlsSettings {
  cert: Buffer;
  key: Buffer;
  ca?: Buffer;
  requestCert: boolean;
  rejectUnauthorized: boolean;
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
}

export interface WebConfig {
  tls?: TlsSettings;
  headers: Record<string, string>;
  /** undefined: no authentication */
  users?: Map<string, string>;
}

export function loadWebConfig(file: string): WebConfig {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, "utf8")) ?? {};
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ConfigError(`--web.config.file ${file}: ${why}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new ConfigError(`--web.config.file ${file}: ${issues.join("; ")}`);
  }
  const c = parsed.data;
  const dir = dirname(resolve(file));
  const read = (p: string) => {
    try {
      return readFileSync(resolve(dir, p));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ConfigError(`--web.config.file: cannot read ${p}: ${why}`);
    }
  };
  const out: WebConfig = { headers: c.http_server_config?.headers ?? {} };
  const t = c.tls_server_config;
  if (t) {
    const auth = t.client_auth_type ?? "NoClientCert";
    if (auth !== "NoClientCert" && !t.client_ca_file) {
      throw new ConfigError(`--web.config.file: client_auth_type ${auth} needs client_ca_file`);
    }
    out.tls = {
      cert: read(t.cert_file),
      key: read(t.key_file),
      ca: t.client_ca_file ? read(t.client_ca_file) : undefined,
      requestCert: auth !== "NoClientCert",
      rejectUnauthorized: auth === "RequireAndVerifyClientCert",
      minVersion: TLS_VERSIONS[t.min_version ?? "TLS12"],
      maxVersion: t.max_version ? TLS_VERSIONS[t.max_version] : undefined,
    };
  }
  if (c.basic_auth_users && Object.keys(c.basic_auth_users).length > 0) {
    for (const [user, hash] of Object.entries(c.basic_auth_users)) {
      if (!/^\$2[abxy]\$\d\d\$/.test(hash)) {
        throw new ConfigError(`--web.config.file: basic_auth_users.${user} is not a bcrypt hash`);
      }
    }
    out.users = new Map(Object.entries(c.basic_auth_users));
  }
  return out;
}

// Compared against when the user is unknown, so a wrong name costs as long as a wrong password.
let dummyHash: string | undefined;

/**
 * Checks "Authorization: Basic ..." against bcrypt hashes. bcrypt is slow on purpose, so a
 * successful check is remembered (keyed by a SHA-256 of the credentials), as exporter-toolkit does.
 */
export function createBasicAuth(
  users: Map<string, string>,
): (header: string | undefined) => Promise<boolean> {
  const good = new Set<string>();
  return async (header) => {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
    if (!m?.[1]) return false;
    const decoded = Buffer.from(m[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return false;
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const key = createHash("sha256").update(user).update("\0").update(password).digest("hex");
    if (good.has(key)) return true;
    const hash = users.get(user);
    dummyHash ??= bcrypt.hashSync("gpu-exporter-dummy", 10);
    const ok = await bcrypt.compare(password, hash ?? dummyHash);
    if (ok && hash !== undefined) {
      if (good.size > 1000) good.clear();
      good.add(key);
      return true;
    }
    return false;
  };
}
