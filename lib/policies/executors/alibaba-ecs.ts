import "server-only";
import { ExecutorError, type ActionTarget, type Executor } from "./types.ts";

// Alibaba Cloud ECS StopInstance (StoppedMode=StopCharging: a pay-as-you-go instance in a VPC
// stops billing its vCPUs, memory and GPUs while stopped) or DeleteInstance (Force) through
// @alicloud/ecs20140526, loaded on first use. Credentials come only from @alicloud/credentials'
// default chain (ALIBABA_CLOUD_ACCESS_KEY_ID / _SECRET, ~/.alibabacloud/credentials, the ECS RAM
// role named by ALIBABA_CLOUD_ECS_METADATA, OIDC); the RAM principal needs ecs:StopInstance and,
// for terminate, ecs:DeleteInstance. The SDK does not retry: the lifecycle does.

export interface AlibabaEcsOptions {
  /** tests: "http://127.0.0.1:PORT" and explicit keys */
  endpoint?: string;
  credentials?: { accessKeyId: string; accessKeySecret: string };
}

/** ECS error codes that retrying cannot fix. */
const PERMANENT =
  /^(InvalidInstanceId|Forbidden|InvalidAccessKey|SignatureDoesNotMatch|IncorrectInstanceStatus|InstanceLockedForSecurity|OperationDenied|InvalidParameter|MissingParameter|InvalidAccountStatus)/;

/** The class a CommonJS module exports as `default`: Node's import wraps it once more than a
 * bundler does (`mod.default.default` under Node, `mod.default` under Vite and Next). */
function cjsDefault<T>(d: T | { default: T }): T {
  return typeof d === "function" ? (d as T) : (d as { default: T }).default;
}

/** The host's instance id, checked: an Alibaba Cloud host with a region. */
export function alibabaInstance(
  t: Pick<ActionTarget, "instanceId" | "provider" | "region" | "hostname">,
): string {
  if (t.provider !== "alibaba") {
    throw new ExecutorError(`${t.hostname} is on ${t.provider}, not Alibaba Cloud`, false);
  }
  if (!t.instanceId) throw new ExecutorError(`${t.hostname} has no instance id`, false);
  if (!/^[a-z]{2}(-[a-z0-9]+)+$/.test(t.region)) {
    throw new ExecutorError(`${t.hostname} has no Alibaba Cloud region (${t.region})`, false);
  }
  return t.instanceId;
}

/** The SDK's models (imported on first use) and a client for the region. */
export async function ecsClient(opts: AlibabaEcsOptions, region: string) {
  const [ecs, { Config }] = await Promise.all([
    import("@alicloud/ecs20140526"),
    import("@alicloud/openapi-client"),
  ]);
  const Client = cjsDefault(ecs.default);
  let auth: object;
  if (opts.credentials) {
    auth = opts.credentials;
  } else {
    const creds = await import("@alicloud/credentials");
    const Credential = cjsDefault(creds.default);
    auth = { credential: new Credential() };
  }
  const url = opts.endpoint ? new URL(opts.endpoint) : undefined;
  const client = new Client(
    new Config({
      ...auth,
      regionId: region,
      ...(url ? { endpoint: url.host, protocol: url.protocol.replace(":", "").toUpperCase() } : {}),
    }),
  );
  return { ecs, client };
}

/** An SDK error as an ExecutorError: throttling, 5xx and network failures are retryable. */
export function ecsFailure(e: unknown): ExecutorError {
  if (e instanceof ExecutorError) return e;
  const err = e as { code?: string; statusCode?: number; message?: string };
  const code = err.code ?? "Error";
  const status = err.statusCode;
  const retryable =
    !PERMANENT.test(code) &&
    (status === undefined || status >= 500 || status === 429 || /^Throttling/.test(code));
  return new ExecutorError(
    `ECS ${code}${status ? ` (HTTP ${status})` : ""}: ${err.message ?? String(e)}`,
    retryable,
    code,
  );
}

export function alibabaEcsExecutor(opts: AlibabaEcsOptions = {}): Executor {
  return {
    name: "alibaba",
    async run(t: ActionTarget) {
      const instanceId = alibabaInstance(t);
      const { ecs, client } = await ecsClient(opts, t.region);
      try {
        if (t.action === "terminate") {
          const r = await client.deleteInstance(
            new ecs.DeleteInstanceRequest({ instanceId, force: true }),
          );
          return { detail: `DeleteInstance ${instanceId}: ${r.body?.requestId ?? "?"}` };
        }
        const r = await client.stopInstance(
          new ecs.StopInstanceRequest({ instanceId, stoppedMode: "StopCharging" }),
        );
        return {
          detail: `StopInstance ${instanceId} (StopCharging): ${r.body?.requestId ?? "?"}`,
        };
      } catch (e) {
        throw ecsFailure(e);
      }
    },
  };
}
