import "server-only";
import {
  computeClients,
  failure,
  waitZoneOperation,
  type GcpComputeOptions,
} from "./gcp-compute.ts";
import { ExecutorError, type ExecutorResult, type ResizeTarget } from "./types.ts";

// Right-sizing a Compute Engine VM as Google documents it ("Change the machine type of a VM"): the
// VM must be stopped (status TERMINATED), so instances.stop (its zone operation waited on), then
// instances.setMachineType with the partial URL zones/ZONE/machineTypes/TYPE (waited on), then
// instances.start (waited on). The VM is read first (instances.get), so a retry after a failure
// part-way carries on: a stopped VM is not stopped again, one of the new type is not changed
// again. Needs compute.instances.get, .stop, .setMachineType, .start (roles/compute.instanceAdmin.v1).

const STOPPED = "TERMINATED";

/** "https://…/zones/Z/machineTypes/T" → "T" */
function typeOf(machineType: string | null | undefined): string {
  return machineType?.split("/").pop() ?? "";
}

export async function gcpComputeResize(
  t: ResizeTarget,
  opts: GcpComputeOptions & { pollIntervalMs?: number } = {},
): Promise<ExecutorResult> {
  if (t.provider !== "gcp") {
    throw new ExecutorError(`${t.hostname} is on ${t.provider}, not Google Cloud`, false);
  }
  if (!t.instanceId) throw new ExecutorError(`${t.hostname} has no instance id`, false);
  if (!t.zone) throw new ExecutorError(`${t.hostname} has no zone`, false);
  const zone = t.zone;
  const { instances, operations, projectOf, close } = await computeClients(opts);
  const noRetry = { retry: null };
  const steps: string[] = [];
  try {
    const project = await projectOf();
    const req = { project, zone, instance: t.instanceId };
    const wait = (started: unknown, what: string) =>
      waitZoneOperation(operations, started, { project, zone, what, waitMs: opts.waitMs });
    const read = async () => {
      const [vm] = await instances.get(req, noRetry);
      return { status: vm.status ?? "", type: typeOf(vm.machineType) };
    };
    let vm = await read();
    if (vm.type === t.toInstanceType && vm.status !== STOPPED && vm.status !== "STOPPING")
      return { detail: `${t.instanceId} is already ${t.toInstanceType} (${vm.status})` };
    if (vm.status === "STOPPING") {
      // a stop under way (a retry): wait for it to end rather than stopping again
      const deadline = Date.now() + (opts.waitMs ?? 600_000);
      while (vm.status === "STOPPING") {
        if (Date.now() > deadline)
          throw new ExecutorError(`${t.instanceId} is still STOPPING`, true, "not_stopped");
        await new Promise((r) => setTimeout(r, opts.pollIntervalMs ?? 5_000));
        vm = await read();
      }
    }
    if (vm.status !== STOPPED) {
      const [op] = await instances.stop(req, noRetry);
      await wait(op, `stop ${t.instanceId}`);
      steps.push("instances.stop: DONE");
    }
    if (vm.type !== t.toInstanceType) {
      const machineType = `zones/${zone}/machineTypes/${t.toInstanceType}`;
      const [op] = await instances.setMachineType(
        { ...req, instancesSetMachineTypeRequestResource: { machineType } },
        noRetry,
      );
      await wait(op, `setMachineType ${t.instanceId}`);
      steps.push(`instances.setMachineType ${machineType}: DONE`);
    }
    const [op] = await instances.start(req, noRetry);
    await wait(op, `start ${t.instanceId}`);
    steps.push("instances.start: DONE");
    return {
      detail: `${t.instanceId} in ${zone} ${vm.type || t.fromInstanceType} → ${t.toInstanceType}: ${steps.join(", ")}`,
    };
  } catch (e) {
    throw failure(e);
  } finally {
    await close();
  }
}
