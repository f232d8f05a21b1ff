import "server-only";
import type { TokenCredential } from "@azure/identity";
import { ExecutorError, type ActionTarget, type Executor } from "./types.ts";

// Azure virtual machines: deallocate (stop; the disks are kept and compute billing ends) or delete
// (terminate) through @azure/arm-compute, loaded on first use (and @azure/identity only when no
// credential is given). The calls are the SDK's long-running operations (the non-deprecated
// `deallocate` / `delete`, what `beginDeallocate` / `beginDelete` became in 24.x), polled until
// the Azure-AsyncOperation status is final.
//
// Facts: the host's instance id is the VM's vmId (a GUID from the instance metadata), not its name
// or resource group, so the VM is found by listing the subscription's VMs (listAll) and matching
// vmId; its resource id gives the resource group and name. Nothing is cached across actions. The
// subscription comes from AZURE_SUBSCRIPTION_ID. Credentials come only from DefaultAzureCredential
// (environment, workload identity, managed identity, Azure CLI…); the principal needs
// Microsoft.Compute/virtualMachines/read and .../deallocate/action (and .../delete for terminate).
// The SDK's own retries are off: the lifecycle retries. An operation that ends Failed (Azure gives
// it no HTTP status, e.g. a transient allocation or platform error) is retryable: a definitive
// refusal (conflict, permission, not found) comes as an HTTP error on the request itself.

export interface AzureComputeOptions {
  /** the subscription; default AZURE_SUBSCRIPTION_ID */
  subscriptionId?: string;
  /** tests: "http://127.0.0.1:PORT" and an explicit credential */
  endpoint?: string;
  credential?: TokenCredential;
  /** long-running operation polling interval; default 5 s */
  updateIntervalInMs?: number;
}

/** HTTP statuses retrying cannot fix (a wrong request, no permission, no such VM, a conflict). */
const PERMANENT = new Set([400, 401, 403, 404, 409]);

export function failure(e: unknown): ExecutorError {
  if (e instanceof ExecutorError) return e;
  const err = e as { code?: unknown; statusCode?: unknown; message?: string };
  const status = typeof err.statusCode === "number" ? err.statusCode : undefined;
  const code = typeof err.code === "string" ? err.code : undefined;
  return new ExecutorError(
    `Azure Compute${status ? ` (HTTP ${status})` : ""}: ${code ? `${code}: ` : ""}${err.message ?? String(e)}`,
    status === undefined || !PERMANENT.has(status),
    code ?? (status ? String(status) : undefined),
  );
}

/** "/subscriptions/S/resourceGroups/RG/providers/Microsoft.Compute/virtualMachines/VM" */
function parseId(id: string): { resourceGroup: string; name: string } | null {
  const m =
    /\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachines\/([^/]+)$/i.exec(id);
  const [, group, name] = m ?? [];
  return group && name
    ? { resourceGroup: decodeURIComponent(group), name: decodeURIComponent(name) }
    : null;
}

/** The subscription to act in: the option, else AZURE_SUBSCRIPTION_ID; none is final. */
export function subscriptionOf(opts: AzureComputeOptions): string {
  const subscription = opts.subscriptionId ?? process.env.AZURE_SUBSCRIPTION_ID;
  if (!subscription) {
    throw new ExecutorError(
      "no Azure subscription: set AZURE_SUBSCRIPTION_ID",
      false,
      "no_subscription",
    );
  }
  return subscription;
}

/** A ComputeManagementClient with the SDK's retries off (tests: plain http with their token). */
export async function computeClient(opts: AzureComputeOptions, subscription: string) {
  const { ComputeManagementClient } = await import("@azure/arm-compute");
  const credential =
    opts.credential ?? new (await import("@azure/identity")).DefaultAzureCredential();
  const client = new ComputeManagementClient(credential, subscription, {
    ...(opts.endpoint ? { endpoint: opts.endpoint, allowInsecureConnection: true } : {}),
    retryOptions: { maxRetries: 0 },
  });
  if (opts.endpoint?.startsWith("http:")) {
    // bearerTokenAuthenticationPolicy refuses plain http (STACK.md): set the header ourselves
    client.pipeline.removePolicy({ name: "bearerTokenAuthenticationPolicy" });
    client.pipeline.addPolicy({
      name: "testBearerPolicy",
      async sendRequest(req, next) {
        const token = await credential.getToken("https://management.azure.com/.default");
        if (token) req.headers.set("authorization", `Bearer ${token.token}`);
        return next(req);
      },
    });
  }
  return client;
}

type Client = Awaited<ReturnType<typeof computeClient>>;

/** The VM whose vmId (the host's instance id) this is: its resource group and name. */
export async function findVm(client: Client, vmId: string, subscription: string) {
  for await (const vm of client.virtualMachines.listAll()) {
    const props = vm as { vmId?: string; properties?: { vmId?: string } };
    const id = props.properties?.vmId ?? props.vmId;
    if (id?.toLowerCase() === vmId.toLowerCase() && vm.id) {
      const found = parseId(vm.id);
      if (!found) throw new ExecutorError(`VM ${vmId} has an unexpected id ${vm.id}`, false);
      return found;
    }
  }
  throw new ExecutorError(
    `no VM with vmId ${vmId} in subscription ${subscription}`,
    false,
    "not_found",
  );
}

export function azureComputeExecutor(opts: AzureComputeOptions = {}): Executor {
  return {
    name: "azure",
    async run(t: ActionTarget) {
      if (t.provider !== "azure") {
        throw new ExecutorError(`${t.hostname} is on ${t.provider}, not Azure`, false);
      }
      if (!t.instanceId) throw new ExecutorError(`${t.hostname} has no instance id`, false);
      const subscription = subscriptionOf(opts);
      const vmId = t.instanceId.toLowerCase();
      const client = await computeClient(opts, subscription);
      try {
        const { resourceGroup, name } = await findVm(client, vmId, subscription);
        const poll = { updateIntervalInMs: opts.updateIntervalInMs ?? 5000 };
        const verb = t.action === "terminate" ? "delete" : "deallocate";
        if (verb === "delete") {
          await client.virtualMachines.delete(resourceGroup, name, poll).pollUntilDone();
        } else {
          await client.virtualMachines.deallocate(resourceGroup, name, poll).pollUntilDone();
        }
        return { detail: `virtualMachines.${verb} ${resourceGroup}/${name} (${vmId}): Succeeded` };
      } catch (e) {
        throw failure(e);
      }
    },
  };
}
