import "server-only";
import { endpointOpts, failure, waitZoneOperation, type GcpComputeOptions } from "./gcp-compute.ts";
import { ExecutorError, type ScaleTarget } from "./types.ts";

// Google Compute Engine instanceGroupManagers.resize for a scale policy's pool whose hosts carry
// the zonal managed instance group's name (`gpufleet.io/asg=<name>`), in the hosts' zone: POST
// …/zones/Z/instanceGroupManagers/M/resize?size=N, then the zone Operation is waited on until
// DONE. Only the two REST clients are loaded, on first use. Project and credentials as for
// instances.stop (./gcp-compute.ts); the principal needs compute.instanceGroupManagers.update.

export async function gcpMigResize(t: ScaleTarget, opts: GcpComputeOptions = {}) {
  if (!t.group) {
    throw new ExecutorError(
      `pool ${t.pool} has no managed instance group (gpufleet.io/asg)`,
      false,
    );
  }
  if (t.provider !== "gcp") throw new ExecutorError(`pool ${t.pool} is not on Google Cloud`, false);
  if (!t.zone) throw new ExecutorError(`pool ${t.pool} has no zone`, false);
  const [{ InstanceGroupManagersClient }, { ZoneOperationsClient }] = await Promise.all([
    import("@google-cloud/compute/build/src/v1/instance_group_managers_client.js"),
    import("@google-cloud/compute/build/src/v1/zone_operations_client.js"),
  ]);
  const clientOpts = {
    fallback: true,
    ...endpointOpts(opts.endpoint),
    ...(opts.authClient ? { authClient: opts.authClient as never } : {}),
  };
  const migs = new InstanceGroupManagersClient(clientOpts);
  const operations = new ZoneOperationsClient(clientOpts);
  try {
    let project = opts.projectId ?? process.env.GOOGLE_CLOUD_PROJECT;
    if (!project) {
      try {
        project = await migs.getProjectId();
      } catch (e) {
        throw new ExecutorError(
          `no Google Cloud project: set GOOGLE_CLOUD_PROJECT (${(e as Error).message})`,
          false,
          "no_project",
        );
      }
    }
    const [started] = await migs.resize(
      { project, zone: t.zone, instanceGroupManager: t.group, size: t.desired },
      { retry: null },
    );
    const op = await waitZoneOperation(operations, started, {
      project,
      zone: t.zone,
      what: `resize ${t.group}`,
      waitMs: opts.waitMs,
    });
    return {
      detail: `instanceGroupManagers.resize ${t.group} to ${t.desired}: DONE (${op.name ?? "?"})`,
    };
  } catch (e) {
    throw failure(e);
  } finally {
    await Promise.allSettled([migs.close(), operations.close()]);
  }
}
