// Pure parser for what `nvidia-smi -q -x` says about virtualization, per <gpu>:
//   <gpu_virtualization_mode><virtualization_mode>VGPU</virtualization_mode>…
//   <vgpu_software_licensed_product><licensed_product_name>…</licensed_product_name>
//     <license_status>Licensed (Expiry: 2026-7-7 16:1:44 GMT)</license_status>
// (element names as in the real captures under test/fixtures and NVIDIA's nvml example.py).

import type { GpuDetails, ParseResult } from "../readings.ts";
import { isAbsent } from "./values.ts";
import { child, children, parseXml, textAt } from "./xml.ts";

export interface XmlGpuDetails extends GpuDetails {
  /** document order, which is nvidia-smi's index order */
  index: number;
  uuid?: string;
  /** the <gpu id="…"> attribute, e.g. 00000000:00:07.0 */
  pciBusId?: string;
}

const EXPIRY = /Expiry:\s*(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{1,2}):(\d{1,2})\s*GMT/;

/** "Licensed (Expiry: …)", "Unlicensed (Restricted)", "N/A" → licensed?, expiry? */
export function parseLicenseStatus(raw: string): {
  licensed?: boolean;
  expirySeconds?: number;
} {
  const text = raw.trim();
  if (/^licensed\b/i.test(text)) {
    const m = EXPIRY.exec(text);
    if (!m) return { licensed: true };
    const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const ms = Date.UTC(y, mo - 1, d, h, mi, s);
    // nvidia-smi does not zero-pad; a date that does not round-trip is refused, not guessed
    const ok = new Date(ms).getUTCMonth() === mo - 1 && new Date(ms).getUTCDate() === d;
    return ok ? { licensed: true, expirySeconds: ms / 1000 } : { licensed: true };
  }
  if (/^unlicensed\b/i.test(text)) return { licensed: false };
  return {};
}

export function parseGpuDetails(text: string): ParseResult<XmlGpuDetails> {
  const log = child(parseXml(text), "nvidia_smi_log");
  if (!log) throw new Error("not an nvidia-smi -q -x document (no <nvidia_smi_log>)");
  const items: XmlGpuDetails[] = [];
  const warnings: string[] = [];
  children(log, "gpu").forEach((gpu, index) => {
    const item: XmlGpuDetails = { index };
    const uuid = textAt(gpu, "uuid");
    if (uuid && !isAbsent(uuid)) item.uuid = uuid.trim();
    if (gpu.attrs.id) item.pciBusId = gpu.attrs.id;
    const mode = textAt(gpu, "gpu_virtualization_mode", "virtualization_mode");
    if (mode !== undefined && !isAbsent(mode)) item.virtualizationMode = mode.trim();
    const product = child(gpu, "vgpu_software_licensed_product");
    const status = textAt(product, "license_status");
    if (status !== undefined && !isAbsent(status)) {
      const lic = parseLicenseStatus(status);
      if (lic.licensed === undefined)
        warnings.push(`gpu ${index}: unknown license_status "${status}"`);
      else {
        item.vgpuLicensed = lic.licensed;
        const name = textAt(product, "licensed_product_name");
        if (name !== undefined && !isAbsent(name)) item.vgpuLicensedProduct = name.trim();
        if (lic.expirySeconds !== undefined) item.vgpuLicenseExpirySeconds = lic.expirySeconds;
      }
    }
    if (!item.uuid && !item.pciBusId) warnings.push(`gpu ${index} has neither uuid nor id`);
    items.push(item);
  });
  return { items, warnings };
}

function normBus(id: string): string {
  return id.trim().toUpperCase();
}

/** Join the snapshot onto the GPUs the stream knows: by uuid, else by PCI bus id. */
export function detailsByUuid(
  items: XmlGpuDetails[],
  gpus: { uuid: string; pciBusId?: string }[],
): Map<string, GpuDetails> {
  const byBus = new Map(gpus.filter((g) => g.pciBusId).map((g) => [normBus(g.pciBusId ?? ""), g]));
  const known = new Set(gpus.map((g) => g.uuid));
  const out = new Map<string, GpuDetails>();
  for (const { index: _i, uuid, pciBusId, ...details } of items) {
    const target = uuid && known.has(uuid) ? uuid : byBus.get(normBus(pciBusId ?? ""))?.uuid;
    if (target !== undefined) out.set(target, details);
  }
  return out;
}
