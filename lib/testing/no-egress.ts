import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";

// Loaded by every test that builds a cloud SDK client: no connection and no DNS lookup may leave
// the machine. Any TCP connect (http, https, fetch/undici, the SDKs' own agents all end in
// net.Socket#connect) or lookup to a non-loopback address throws. It also sets the variables that
// stop the SDKs' credential chains from probing metadata addresses (STACK.md) and clears proxies.

Object.assign(process.env, {
  AWS_EC2_METADATA_DISABLED: "true",
  AWS_CONFIG_FILE: "/nonexistent/gpufleet-test-aws-config",
  AWS_SHARED_CREDENTIALS_FILE: "/nonexistent/gpufleet-test-aws-credentials",
  METADATA_SERVER_DETECTION: "none",
  GCE_METADATA_HOST: "127.0.0.1:1",
  GCE_METADATA_IP: "127.0.0.1:1",
  ALIBABA_CLOUD_ECS_METADATA_DISABLED: "true",
});
for (const k of [
  "AWS_PROFILE",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CLOUD_PROJECT",
  "ALIBABA_CLOUD_ACCESS_KEY_ID",
  "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
  "TENCENTCLOUD_SECRET_ID",
  "TENCENTCLOUD_SECRET_KEY",
  "IDENTITY_ENDPOINT",
  "IDENTITY_HEADER",
  "IDENTITY_SERVER_THUMBPRINT",
  "IMDS_ENDPOINT",
  "MSI_ENDPOINT",
  "MSI_SECRET",
  "AZURE_CLIENT_ID",
  "AZURE_CLIENT_SECRET",
  "AZURE_TENANT_ID",
  "AZURE_CLIENT_CERTIFICATE_PATH",
  "AZURE_CLIENT_CERTIFICATE_PASSWORD",
  "AZURE_USERNAME",
  "AZURE_PASSWORD",
  "AZURE_FEDERATED_TOKEN_FILE",
  "AZURE_AUTHORITY_HOST",
  "AZURE_SUBSCRIPTION_ID",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "http_proxy",
  "https_proxy",
]) {
  delete process.env[k];
}

export class EgressRefusedError extends Error {
  constructor(what: string) {
    super(`test egress guard: refused ${what} (tests reach 127.0.0.1 only)`);
    this.name = "EgressRefusedError";
  }
}

export function isLoopback(host: string | undefined | null): boolean {
  if (host === undefined || host === null || host === "") return true; // Node's default: localhost
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || h === "::ffff:127.0.0.1"
  );
}

const GUARDED = Symbol.for("gpufleet.noEgress");
type Guarded = { [GUARDED]?: true };

if (!(net.Socket.prototype as Guarded)[GUARDED]) {
  (net.Socket.prototype as Guarded)[GUARDED] = true;
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    let host: string | undefined;
    let path: string | undefined;
    if (typeof first === "object" && first !== null) {
      ({ host, path } = first as { host?: string; path?: string });
    } else if (typeof first === "string" && !/^\d+$/.test(first)) path = first;
    else host = typeof args[1] === "string" ? args[1] : undefined;
    if (path === undefined && !isLoopback(host))
      throw new EgressRefusedError(`a connection to ${host}`);
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  const lookup = dns.lookup;
  dns.lookup = function guardedLookup(hostname: string, ...rest: unknown[]) {
    if (!isLoopback(hostname)) throw new EgressRefusedError(`a DNS lookup of ${hostname}`);
    return (lookup as (...a: unknown[]) => void)(hostname, ...rest);
  } as typeof dns.lookup;
  const lookupP = dns.promises.lookup;
  dns.promises.lookup = function guardedLookupP(hostname: string, ...rest: unknown[]) {
    if (!isLoopback(hostname)) {
      return Promise.reject(new EgressRefusedError(`a DNS lookup of ${hostname}`));
    }
    return (lookupP as (...a: unknown[]) => Promise<unknown>)(hostname, ...rest);
  } as typeof dns.promises.lookup;
  for (const m of ["resolve", "resolve4", "resolve6", "resolveAny"] as const) {
    (dns as unknown as Record<string, unknown>)[m] = (name: string) => {
      throw new EgressRefusedError(`a DNS query for ${name}`);
    };
  }

  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!isLoopback(url.hostname)) {
      return Promise.reject(new EgressRefusedError(`a fetch of ${url.origin}`));
    }
    return realFetch(input, init);
  };
  syncBuiltinESMExports();
}
