// Matching keys: a billed row and a host meet on the same provider, the same normalised instance
// key and (where both know it) the same region. An AWS ARN, an Azure resource id and a GCP
// resource name are cut down to the part the host knows (docs/architecture.md, "Billing").

/** arn:aws:ec2:us-east-1:123456789012:instance/i-0abc → i-0abc (also aws-cn and aws-us-gov). */
const AWS_ARN = /^arn:aws[a-z-]*:ec2:[^:]*:[^:]*:instance\/(.+)$/i;
/** …/providers/Microsoft.Compute/virtualMachines/<name> (and a scale set's …/virtualMachines/<n>) */
const AZURE_VM =
  /\/providers\/microsoft\.compute\/(?:virtualmachinescalesets\/[^/]+\/)?virtualmachines\/([^/]+)$/i;
/** //compute.googleapis.com/projects/p/zones/z/instances/<id or name>, or projects/…/instances/… */
const GCP_INSTANCE = /(?:^|\/)projects\/[^/]+\/zones\/[^/]+\/instances\/([^/]+)$/i;

/** The instance key of a billed resource id, lower case; "" when the row names no resource. */
export function instanceKey(resourceId: string): string {
  const id = resourceId.trim();
  if (!id) return "";
  const m = AWS_ARN.exec(id) ?? AZURE_VM.exec(id) ?? GCP_INSTANCE.exec(id);
  return (m?.[1] ?? id).toLowerCase();
}

/**
 * The keys a host answers to: its instance id from cloud metadata (normalised the same way), and
 * on Azure and GCP its host name, which is the VM's name there (an Azure bill names VMs by their
 * resource id, which holds the name, while the metadata's instance id is the vmId GUID).
 */
export function hostKeys(host: {
  provider: string;
  hostname: string;
  instanceId: string | null;
}): string[] {
  const keys = new Set<string>();
  if (host.instanceId) keys.add(instanceKey(host.instanceId));
  if (host.provider === "azure" || host.provider === "gcp") keys.add(host.hostname.toLowerCase());
  keys.delete("");
  return [...keys];
}

/** "East US" / "eastus" / "us-east-1" compared without case, spaces or dashes. */
export function regionKey(region: string): string {
  return region.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Whether two regions agree; an unknown side ("" or "unknown") never disagrees. */
export function sameRegion(a: string, b: string): boolean {
  const x = regionKey(a);
  const y = regionKey(b);
  if (!x || !y || x === "unknown" || y === "unknown") return true;
  return x === y;
}
