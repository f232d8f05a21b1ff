import "server-only";
import { ExecutorError, type ActionTarget, type Executor } from "./types.ts";

// Google Compute Engine instances.stop / instances.delete through @google-cloud/compute, loaded on
// first use and only its two REST clients (the whole package takes ~1 s to import; STACK.md).
// The call returns a zone Operation not yet done: the executor waits on it with
// ZoneOperationsClient.wait until DONE, and an Operation that ends with `error` fails the action.
//
// Facts: the zone and instance come from the host (gpu_host_info, read from the metadata server:
// the instance id is numeric, which Compute Engine accepts wherever it takes the instance name).
// The project is not in the host's facts (the metadata zone path carries only its number), so it
// comes from GOOGLE_CLOUD_PROJECT, else from the credentials (the SDK's getProjectId()).
// Credentials: only the SDK's Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS,
// gcloud's ADC file, or the attached service account) with compute.instances.stop (and .delete for
// terminate), e.g. roles/compute.instanceAdmin.v1. The SDK's own retries are off.

export interface GcpComputeOptions {
  /** the project; default GOOGLE_CLOUD_PROJECT, else the credentials' project */
  projectId?: string;
  /** tests: "http://127.0.0.1:PORT" and an explicit auth client */
  endpoint?: string;
  authClient?: unknown;
  /** how long to wait for the Operation to be DONE; default 10 minutes */
  waitMs?: number;
}

/** HTTP statuses retrying cannot fix (a wrong request, no permission, no such instance). */
const PERMANENT = new Set([400, 401, 403, 404, 409]);

export function endpointOpts(endpoint: string | undefined) {
  if (!endpoint) return {};
  const u = new URL(endpoint);
  return {
    apiEndpoint: u.hostname,
    port: Number(u.port || (u.protocol === "https:" ? 443 : 80)),
    protocol: u.protocol.replace(":", ""),
  };
}

export function failure(e: unknown): ExecutorError {
  if (e instanceof ExecutorError) return e;
  const err = e as { code?: unknown; status?: unknown; message?: string };
  const status = typeof err.code === "number" ? err.code : Number(err.status) || undefined;
  let msg = err.message ?? String(e);
  try {
    const body = JSON.parse(msg) as { error?: { message?: string; status?: string } };
    if (body.error?.message) msg = `${body.error.status ?? ""} ${body.error.message}`.trim();
  } catch {
    // not a JSON body: the message as it is
  }
  return new ExecutorError(
    `Compute Engine${status ? ` (HTTP ${status})` : ""}: ${msg}`,
    status === undefined || !PERMANENT.has(status),
    status ? String(status) : undefined,
  );
}

export function gcpComputeExecutor(opts: GcpComputeOptions = {}): Executor {
  return {
    name: "gcp",
    async run(t: ActionTarget) {
      if (t.provider !== "gcp") {
        throw new ExecutorError(`${t.hostname} is on ${t.provider}, not Google Cloud`, false);
      }
      if (!t.instanceId) throw new ExecutorError(`${t.hostname} has no instance id`, false);
      if (!t.zone) throw new ExecutorError(`${t.hostname} has no zone`, false);
      const { instances, operations, projectOf, close } = await computeClients(opts);
      const noRetry = { retry: null };
      try {
        const project = await projectOf();
        const req = { project, zone: t.zone, instance: t.instanceId };
        const verb = t.action === "terminate" ? "delete" : "stop";
        const [started] =
          verb === "delete"
            ? await instances.delete(req, noRetry)
            : await instances.stop(req, noRetry);
        const op = await waitZoneOperation(operations, started, {
          project,
          zone: t.zone,
          what: `${verb} ${t.instanceId}`,
          waitMs: opts.waitMs,
        });
        const name = op.name;
        return { detail: `instances.${verb} ${t.instanceId} in ${t.zone}: DONE (${name ?? "?"})` };
      } catch (e) {
        throw failure(e);
      } finally {
        await close();
      }
    },
  };
}

/** The instances and zone-operations REST clients (imported on first use) and the project. */
export async function computeClients(opts: GcpComputeOptions) {
  const [{ InstancesClient }, { ZoneOperationsClient }] = await Promise.all([
    import("@google-cloud/compute/build/src/v1/instances_client.js"),
    import("@google-cloud/compute/build/src/v1/zone_operations_client.js"),
  ]);
  const clientOpts = {
    fallback: true,
    ...endpointOpts(opts.endpoint),
    ...(opts.authClient ? { authClient: opts.authClient as never } : {}),
  };
  const instances = new InstancesClient(clientOpts);
  const operations = new ZoneOperationsClient(clientOpts);
  const projectOf = async () => {
    if (opts.projectId ?? process.env.GOOGLE_CLOUD_PROJECT)
      return (opts.projectId ?? process.env.GOOGLE_CLOUD_PROJECT) as string;
    try {
      return await instances.getProjectId();
    } catch (e) {
      throw new ExecutorError(
        `no Google Cloud project: set GOOGLE_CLOUD_PROJECT (${(e as Error).message})`,
        false,
        "no_project",
      );
    }
  };
  const close = async () => {
    await Promise.allSettled([instances.close(), operations.close()]);
  };
  return { instances, operations, projectOf, close };
}

export interface OperationBody {
  name?: string | null;
  status?: string | number | null;
  error?: { errors?: { code?: string | null; message?: string | null }[] | null } | null;
}

interface ZoneOperations {
  wait(
    req: { project: string; zone: string; operation: string },
    o: { retry: null },
  ): Promise<unknown[]>;
}

/** Waits on a zone Operation until DONE; one that ends with `error` throws (retryable). */
export async function waitZoneOperation(
  operations: ZoneOperations,
  started: unknown,
  o: { project: string; zone: string; what: string; waitMs?: number | undefined },
): Promise<OperationBody> {
  let op = (started as { latestResponse?: OperationBody }).latestResponse ?? {};
  const name = op.name;
  const deadline = Date.now() + (o.waitMs ?? 600_000);
  while (op.status !== "DONE") {
    if (!name) throw new ExecutorError(`${o.what} returned no operation name`, true);
    if (Date.now() > deadline) {
      throw new ExecutorError(`${o.what}: operation ${name} not done`, true);
    }
    const [next] = await operations.wait(
      { project: o.project, zone: o.zone, operation: name },
      { retry: null },
    );
    op = next as OperationBody;
  }
  const first = op.error?.errors?.[0];
  if (first) {
    throw new ExecutorError(
      `Compute Engine ${o.what}: ${first.code ?? "error"}: ${first.message ?? ""}`,
      true,
      first.code ?? undefined,
    );
  }
  return op;
}
