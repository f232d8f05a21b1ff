import "server-only";
import {
  computeClient,
  failure,
  subscriptionOf,
  type AzureComputeOptions,
} from "./azure-compute.ts";
import { ExecutorError, type ScaleTarget } from "./types.ts";

// An Azure virtual machine scale set's capacity for a scale policy's pool whose hosts carry its
// name (`gpufleet.io/asg=<resource group>/<scale set>`, or the scale set's name alone, found by
// listing the subscription's scale sets): PATCH …/virtualMachineScaleSets/S with
// {"sku":{"capacity":N}} through @azure/arm-compute's long-running `update`, polled until it
// succeeds. Subscription and credentials as for the VM executor (./azure-compute.ts); the
// principal needs Microsoft.Compute/virtualMachineScaleSets/read and /write.

/** "/subscriptions/S/resourceGroups/RG/providers/Microsoft.Compute/virtualMachineScaleSets/N" */
function groupOfId(id: string): string | null {
  const m =
    /\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachineScaleSets\//i.exec(id);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

export async function azureVmssCapacity(t: ScaleTarget, opts: AzureComputeOptions = {}) {
  if (!t.group) throw new ExecutorError(`pool ${t.pool} has no scale set (gpufleet.io/asg)`, false);
  if (t.provider !== "azure") throw new ExecutorError(`pool ${t.pool} is not on Azure`, false);
  const subscription = subscriptionOf(opts);
  const client = await computeClient(opts, subscription);
  try {
    const [given, name] = t.group.includes("/") ? t.group.split("/", 2) : [null, t.group];
    let resourceGroup = given ?? null;
    if (!resourceGroup) {
      const matches: string[] = [];
      for await (const s of client.virtualMachineScaleSets.listAll()) {
        const rg = s.name === name && s.id ? groupOfId(s.id) : null;
        if (rg) matches.push(rg);
      }
      if (matches.length !== 1) {
        throw new ExecutorError(
          matches.length === 0
            ? `no scale set named ${name} in subscription ${subscription}`
            : `${matches.length} scale sets named ${name}: label the hosts <resource group>/${name}`,
          false,
          "not_found",
        );
      }
      resourceGroup = matches[0] ?? null;
    }
    if (!resourceGroup || !name) throw new ExecutorError(`bad scale set ${t.group}`, false);
    await client.virtualMachineScaleSets
      .update(
        resourceGroup,
        name,
        { sku: { capacity: t.desired } },
        { updateIntervalInMs: opts.updateIntervalInMs ?? 5000 },
      )
      .pollUntilDone();
    return {
      detail: `virtualMachineScaleSets.update ${resourceGroup}/${name} capacity ${t.desired}: Succeeded`,
    };
  } catch (e) {
    throw failure(e);
  }
}
