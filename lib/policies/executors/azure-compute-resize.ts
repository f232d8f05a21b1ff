import "server-only";
import {
  computeClient,
  failure,
  findVm,
  subscriptionOf,
  type AzureComputeOptions,
} from "./azure-compute.ts";
import { ExecutorError, type ExecutorResult, type ResizeTarget } from "./types.ts";

// Right-sizing an Azure VM as Microsoft documents it ("Resize a virtual machine"): a size offered
// on the VM's current hardware cluster (virtualMachines.listAvailableSizes) is set in place with
// virtualMachines.update {hardwareProfile: {vmSize}}, and Azure restarts the VM itself; any other
// size needs the VM deallocated first (deallocate, update, start). The VM, its size and power state
// (instanceView) are read first, so a retry after a failure part-way carries on. Each call is a
// long-running operation polled until final. The principal also needs
// Microsoft.Compute/virtualMachines/write, .../vmSizes/read, .../start/action.

function powerState(statuses: { code?: string }[] | undefined): string {
  const code = statuses?.find((s) => s.code?.startsWith("PowerState/"))?.code;
  return code ? code.slice("PowerState/".length) : "unknown";
}

export async function azureComputeResize(
  t: ResizeTarget,
  opts: AzureComputeOptions = {},
): Promise<ExecutorResult> {
  if (t.provider !== "azure") {
    throw new ExecutorError(`${t.hostname} is on ${t.provider}, not Azure`, false);
  }
  if (!t.instanceId) throw new ExecutorError(`${t.hostname} has no instance id`, false);
  const subscription = subscriptionOf(opts);
  const client = await computeClient(opts, subscription);
  const vms = client.virtualMachines;
  const poll = { updateIntervalInMs: opts.updateIntervalInMs ?? 5000 };
  const to = t.toInstanceType;
  const steps: string[] = [];
  try {
    const { resourceGroup: rg, name } = await findVm(client, t.instanceId, subscription);
    const size = (await vms.get(rg, name)).hardwareProfile?.vmSize ?? "";
    const power = powerState((await vms.instanceView(rg, name)).statuses);
    if (size === to && power === "running") return { detail: `${rg}/${name} is already ${to}` };
    let deallocated = power === "deallocated";
    if (size !== to) {
      if (!deallocated) {
        let inPlace = false;
        for await (const s of vms.listAvailableSizes(rg, name)) if (s.name === to) inPlace = true;
        if (!inPlace) {
          await vms.deallocate(rg, name, poll).pollUntilDone();
          deallocated = true;
          steps.push("deallocate (size not on the current cluster)");
        }
      }
      await vms.update(rg, name, { hardwareProfile: { vmSize: to } }, poll).pollUntilDone();
      steps.push(`update vmSize=${to}${deallocated ? "" : " (in place: Azure restarts the VM)"}`);
    }
    if (deallocated || (size === to && power !== "running")) {
      await vms.start(rg, name, poll).pollUntilDone();
      steps.push("start");
    }
    return { detail: `${rg}/${name} ${size || t.fromInstanceType} → ${to}: ${steps.join(", ")}` };
  } catch (e) {
    throw failure(e);
  }
}
