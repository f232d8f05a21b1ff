import "server-only";
import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { env } from "../../env.ts";
import { targetLookup } from "../../net/target-lookup.ts";
import { checkUrlStatically } from "../../net/webhook-target.ts";
import { redactText } from "../../notify/url.ts";
import { adminAllowsPrivate, vetTarget, type AllowPrivate } from "../../notify/target-policy.ts";
import {
  ExecutorError,
  type ActionTarget,
  type Executor,
  type ResizeTarget,
  type RunTarget,
  type ScaleTarget,
} from "./types.ts";

// The signed generic webhook: a JSON POST of the action to the policy's URL, for SkyPilot, Slurm
// wrappers, Terraform, autoscalers or power control. Headers `x-gpufleet-timestamp` (Unix seconds)
// and `x-gpufleet-signature: v1=<hex HMAC-SHA256 over "<timestamp>.<body>">` with
// GPUFLEET_POLICY_WEBHOOK_SECRET; a receiver checks both and refuses old timestamps. The target
// goes through the webhook target policy of lib/net (no private or metadata address unless the
// admin allows private targets), no redirects, a hard timeout. 5xx, 429 and network failures are
// retryable; other 4xx are not.

export const SIGNATURE_HEADER = "x-gpufleet-signature";
export const TIMESTAMP_HEADER = "x-gpufleet-timestamp";

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export interface WebhookOptions {
  url: string;
  secret?: string | undefined;
  timeoutMs?: number;
  allowPrivate?: AllowPrivate;
  clock?: () => Date;
}

function post(url: URL, body: string, headers: Record<string, string>, opts: http.RequestOptions) {
  return new Promise<number>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(url, { ...opts, method: "POST", headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Signs and posts one JSON body; a non-2xx answer throws (5xx, 429, 408 retryable). */
async function signedPost(o: WebhookOptions, payload: object, idempotencyKey: string) {
  const secret = o.secret ?? env.GPUFLEET_POLICY_WEBHOOK_SECRET;
  if (!secret) {
    throw new ExecutorError("GPUFLEET_POLICY_WEBHOOK_SECRET is not set: calls go unsigned", false);
  }
  const vetted = await vetTarget(o.url, o.allowPrivate ?? adminAllowsPrivate);
  if (!vetted.ok) throw new ExecutorError(`webhook target refused: ${vetted.reason}`, false);
  const target = checkUrlStatically(o.url, { allowPrivate: vetted.allowPrivate });
  if (!target.verdict.ok) {
    throw new ExecutorError(`webhook target refused: ${target.verdict.reason}`, false);
  }
  const now = (o.clock ?? (() => new Date()))();
  const timestamp = Math.floor(now.getTime() / 1000);
  const body = JSON.stringify({ ...payload, at: now.toISOString() });
  const headers = {
    "content-type": "application/json",
    "user-agent": "gpufleet-policies/1",
    "idempotency-key": idempotencyKey,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
    "content-length": String(Buffer.byteLength(body)),
  };
  let status: number;
  try {
    status = await post(new URL(o.url), body, headers, {
      lookup: targetLookup(target.port, { allowPrivate: vetted.allowPrivate }),
      signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
    });
  } catch (e) {
    throw new ExecutorError(redactText(`webhook: ${(e as Error).message}`, o.url), true);
  }
  if (status >= 200 && status < 300) return { detail: `webhook answered ${status}` };
  const retryable = status >= 500 || status === 429 || status === 408;
  throw new ExecutorError(`webhook answered HTTP ${status}`, retryable, String(status));
}

export function webhookExecutor(o: WebhookOptions): Executor {
  return {
    name: "webhook",
    run: (t: ActionTarget) =>
      signedPost(o, { type: `gpufleet.policy.${t.action}`, ...t }, `${t.episodeId}:${t.action}`),
    // the receiver gets fromInstanceType and toInstanceType with the host's facts
    resize: (t: ResizeTarget) =>
      signedPost(o, { type: "gpufleet.policy.resize", ...t }, `${t.episodeId}:resize`),
    // a job's or pod's run: `gpufleet.policy.cancel_job` / `gpufleet.policy.delete_pod` (README)
    endRun: (t: RunTarget) =>
      signedPost(o, { type: `gpufleet.policy.${t.action}`, ...t }, `${t.episodeId}:${t.action}`),
    scale: (t: ScaleTarget) =>
      signedPost(o, { type: "gpufleet.policy.scale", ...t }, `${t.signalId}:scale`),
  };
}
