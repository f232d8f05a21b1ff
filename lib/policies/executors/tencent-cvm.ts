import "server-only";
import { ExecutorError, type ActionTarget, type Executor } from "./types.ts";

// Tencent Cloud CVM StopInstances (StopType SOFT; StoppedMode STOP_CHARGING: a pay-as-you-go
// instance stops billing its compute while stopped) or TerminateInstances through
// tencentcloud-sdk-nodejs-cvm, loaded on first use. Credentials come only from the SDK's
// DefaultCredentialProvider (TENCENTCLOUD_SECRET_ID / TENCENTCLOUD_SECRET_KEY, the profile file
// ~/.tencentcloud/credentials, the CVM role, TKE OIDC); the CAM principal needs
// cvm:StopInstances and, for terminate, cvm:TerminateInstances. The SDK does not retry. Errors
// come as HTTP 200 with Response.Error, surfaced by the SDK with its code.

export interface TencentCvmOptions {
  /** tests: "http://127.0.0.1:PORT" and explicit keys */
  endpoint?: string;
  credentials?: { secretId: string; secretKey: string };
}

/** CVM error codes worth retrying (throttling, the service, an operation already running). */
const RETRYABLE =
  /^(RequestLimitExceeded|InternalError|InternalServerError|ResourceUnavailable|ResourceInsufficient|OperationDenied\.InstanceOperationInProgress|FailedOperation\.ServiceBusy)/;

export function tencentCvmExecutor(opts: TencentCvmOptions = {}): Executor {
  return {
    name: "tencent",
    async run(t: ActionTarget) {
      if (t.provider !== "tencent") {
        throw new ExecutorError(`${t.hostname} is on ${t.provider}, not Tencent Cloud`, false);
      }
      if (!t.instanceId) throw new ExecutorError(`${t.hostname} has no instance id`, false);
      if (!/^[a-z]{2}(-[a-z]+)+$/.test(t.region)) {
        throw new ExecutorError(`${t.hostname} has no Tencent Cloud region (${t.region})`, false);
      }
      const [{ cvm }, common] = await Promise.all([
        import("tencentcloud-sdk-nodejs-cvm"),
        import("tencentcloud-sdk-nodejs-common"),
      ]);
      const url = opts.endpoint ? new URL(opts.endpoint) : undefined;
      const client = new cvm.v20170312.Client({
        credential: opts.credentials ?? new common.DefaultCredentialProvider(),
        region: t.region,
        profile: {
          ...(url ? { httpProfile: { endpoint: url.host, protocol: `${url.protocol}//` } } : {}),
        },
      });
      const ids = { InstanceIds: [t.instanceId] };
      try {
        if (t.action === "terminate") {
          const r = await client.TerminateInstances(ids);
          return { detail: `TerminateInstances ${t.instanceId}: ${r.RequestId ?? "?"}` };
        }
        const r = await client.StopInstances({
          ...ids,
          StopType: "SOFT",
          StoppedMode: "STOP_CHARGING",
        });
        return {
          detail: `StopInstances ${t.instanceId} (SOFT, STOP_CHARGING): ${r.RequestId ?? "?"}`,
        };
      } catch (e) {
        const err = e as { code?: string; httpCode?: number; message?: string; requestId?: string };
        const code = err.code || "Error";
        const status = err.httpCode;
        // no code: the request did not reach the service (network); worth another try
        const retryable = !err.code || RETRYABLE.test(code) || (status ?? 0) >= 500;
        throw new ExecutorError(
          `CVM ${code}${status && status !== 200 ? ` (HTTP ${status})` : ""}: ${err.message ?? String(e)}`,
          retryable,
          code,
        );
      }
    },
  };
}
