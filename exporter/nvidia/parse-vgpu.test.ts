import { describe, expect, it } from "vitest";
import { own, shared } from "../test/helpers.ts";
import { detailsByUuid, parseGpuDetails, parseLicenseStatus } from "./parse-vgpu.ts";

const VGPU_GUEST = "vgpu/q-x-vgpu-guest-l40s-2q-580-trimmed.xml";

describe("virtualization mode and vGPU licence from nvidia-smi -q -x", () => {
  it("a real vGPU guest: licensed with an expiry, joined by PCI bus id (no uuid in the capture)", () => {
    const { items, warnings } = parseGpuDetails(own(VGPU_GUEST));
    expect(warnings).toEqual([]);
    expect(items).toEqual([
      {
        index: 0,
        pciBusId: "00000000:00:07.0",
        vgpuLicensed: true,
        vgpuLicensedProduct: "NVIDIA RTX Virtual Workstation",
        vgpuLicenseExpirySeconds: Date.UTC(2026, 6, 7, 16, 1, 44) / 1000,
      },
    ]);
    const joined = detailsByUuid(items, [
      { uuid: "GPU-other", pciBusId: "00000000:00:08.0" },
      { uuid: "GPU-guest", pciBusId: "00000000:00:07.0" },
    ]);
    expect([...joined.keys()]).toEqual(["GPU-guest"]);
    expect(joined.get("GPU-guest")?.vgpuLicensed).toBe(true);
  });

  it("real bare-metal and passthrough captures: None and Pass-Through, no licence", () => {
    const a100 = parseGpuDetails(shared("q-x-a100-sxm4-80gb-mig-535.xml")).items[0];
    expect(a100).toMatchObject({ virtualizationMode: "None" });
    expect(a100?.vgpuLicensed).toBeUndefined();
    const t4 = parseGpuDetails(shared("q-x-tesla-t4-515.xml")).items[0];
    expect(t4).toMatchObject({ virtualizationMode: "Pass-Through" });
    expect(t4?.uuid).toMatch(/^GPU-/);
  });

  it("a guest in the documented layout: VGPU, unlicensed; N/A everywhere leaves fields out", () => {
    // hand-written in the -q -x layout from a real `nvidia-smi -q` of a GRID V100D-8C guest
    const xml = `<?xml version="1.0" ?><nvidia_smi_log>
      <gpu id="00000000:02:00.0"><uuid>GPU-57abc772-1dd3-11b2-8fae-e31710b8f307</uuid>
        <gpu_virtualization_mode><virtualization_mode>VGPU</virtualization_mode>
          <host_vgpu_mode>N/A</host_vgpu_mode></gpu_virtualization_mode>
        <vgpu_software_licensed_product>
          <licensed_product_name>NVIDIA Virtual Compute Server</licensed_product_name>
          <license_status>Unlicensed (Restricted)</license_status>
        </vgpu_software_licensed_product></gpu>
      <gpu id="00000000:03:00.0"><uuid>N/A</uuid>
        <gpu_virtualization_mode><virtualization_mode>N/A</virtualization_mode></gpu_virtualization_mode>
        <vgpu_software_licensed_product><license_status>Pending</license_status>
        </vgpu_software_licensed_product></gpu>
    </nvidia_smi_log>`;
    const { items, warnings } = parseGpuDetails(xml);
    expect(items[0]).toEqual({
      index: 0,
      uuid: "GPU-57abc772-1dd3-11b2-8fae-e31710b8f307",
      pciBusId: "00000000:02:00.0",
      virtualizationMode: "VGPU",
      vgpuLicensed: false,
      vgpuLicensedProduct: "NVIDIA Virtual Compute Server",
    });
    expect(items[1]).toEqual({ index: 1, pciBusId: "00000000:03:00.0" });
    expect(warnings).toEqual(['gpu 1: unknown license_status "Pending"']);
  });

  it("reads every licence spelling nvidia-smi prints, refusing impossible dates", () => {
    expect(parseLicenseStatus("Licensed")).toEqual({ licensed: true });
    expect(parseLicenseStatus("Licensed (Expiry: 2025-3-19 7:29:4 GMT)")).toEqual({
      licensed: true,
      expirySeconds: Date.UTC(2025, 2, 19, 7, 29, 4) / 1000,
    });
    expect(parseLicenseStatus("Licensed (Expiry: 2025-2-30 7:29:4 GMT)")).toEqual({
      licensed: true,
    });
    expect(parseLicenseStatus("Unlicensed (Unrestricted)")).toEqual({ licensed: false });
    expect(parseLicenseStatus("Unlicensed")).toEqual({ licensed: false });
    expect(parseLicenseStatus("N/A")).toEqual({});
  });

  it("refuses a document that is not nvidia-smi's", () => {
    expect(() => parseGpuDetails("<html><body>502</body></html>")).toThrow(/nvidia_smi_log/);
    expect(() => parseGpuDetails("<nvidia_smi_log><gpu>")).toThrow(/unclosed/);
  });
});
