// Which cloud is this? `auto` asks every provider's metadata service at once, each request
// bounded by --host.detect.timeout, and takes the first answer that is valid in a fixed
// preference order; a named provider is asked alone. The result fills gpu_host_info under any
// --host.* flag given explicitly.

import { HOST_FIELDS, type HostConfig } from "../config.ts";
import { alibabaClient } from "./alibaba.ts";
import { awsClient } from "./aws.ts";
import { azureClient } from "./azure.ts";
import { gcpClient } from "./gcp.ts";
import { baseFor, PROVIDERS, type DetectConfig, type Provider } from "./options.ts";
import { tencentClient } from "./tencent.ts";
import type { ClientOptions, HostFacts, ProviderClient } from "./types.ts";

/** AWS and Azure share 169.254.169.254 but not paths; the order only settles a tie. */
export const PREFERENCE: readonly Provider[] = PROVIDERS;

const FACTORIES: Record<Provider, (o: ClientOptions) => ProviderClient> = {
  aws: awsClient,
  gcp: gcpClient,
  azure: azureClient,
  alibaba: alibabaClient,
  tencent: tencentClient,
};

export function createClient(provider: Provider, opts: ClientOptions): ProviderClient {
  return FACTORIES[provider](opts);
}

export interface Detected {
  facts: HostFacts;
  client: ProviderClient;
}

export interface DetectContext {
  detect: DetectConfig;
  simulate: boolean;
  signal?: AbortSignal;
  now?: () => number;
}

function clientFor(p: Provider, ctx: DetectContext): ProviderClient | undefined {
  const base = baseFor(ctx.detect, p, ctx.simulate);
  if (base === undefined) return undefined;
  return createClient(p, {
    base,
    timeoutMs: ctx.detect.timeoutMs,
    signal: ctx.signal,
    now: ctx.now,
  });
}

/** Ask one known provider again (the hourly refresh). Throws with the reason. */
export async function detectWith(client: ProviderClient): Promise<Detected> {
  return { facts: await client.detect(), client };
}

/**
 * Run the configured detection. Returns undefined when `auto` found no metadata service
 * (on-prem), with one reason per provider in `tried`; throws when a named provider failed.
 */
export async function detectHost(
  ctx: DetectContext,
  tried: string[] = [],
): Promise<Detected | undefined> {
  const mode = ctx.detect.mode;
  if (mode === "none") return undefined;
  if (mode !== "auto") {
    const client = clientFor(mode, ctx);
    if (!client) throw new Error(`no metadata endpoint for ${mode}`);
    return detectWith(client);
  }
  const clients = PREFERENCE.map((p) => clientFor(p, ctx)).filter(
    (c): c is ProviderClient => c !== undefined,
  );
  const results = await Promise.allSettled(clients.map((c) => c.detect()));
  let found: Detected | undefined;
  results.forEach((r, i) => {
    const client = clients[i];
    if (!client) return;
    if (r.status === "fulfilled") found ??= { facts: r.value, client };
    else
      tried.push(`${client.provider}: ${r.reason instanceof Error ? r.reason.message : r.reason}`);
  });
  return found;
}

/**
 * gpu_host_info labels: `base` with the detected facts where no flag was given. With
 * `flagsOver` (a simulated host, whose labels do not come from flags) the given flags are
 * written over the result too.
 */
export function mergeHostInfo(
  base: Record<string, string>,
  host: HostConfig,
  facts: HostFacts | undefined,
  flagsOver = false,
): Record<string, string> {
  const out = { ...base };
  for (const [field, label] of Object.entries(HOST_FIELDS) as [
    keyof typeof HOST_FIELDS,
    string,
  ][]) {
    if (host.given.includes(field)) {
      if (flagsOver) out[label] = host[field];
      continue;
    }
    const v = facts?.[field];
    if (v !== undefined && v !== "") out[label] = v;
  }
  return out;
}
