import { describe, expect, it } from "vitest";
import { HAVE_SHARED, own, shared } from "../test/helpers.ts";
import { migReadings, parseListGpus, parseQueryXml } from "./parse-xml.ts";
import { parseXml, textAt } from "./xml.ts";

const MIB = 1024 ** 2;

describe.skipIf(!HAVE_SHARED)("real nvidia-smi -q -x captures", () => {
  it("A100 80GB with MIG: four GPU instances with their memory", () => {
    const { items, warnings } = parseQueryXml(shared("q-x-a100-sxm4-80gb-mig-535.xml"));
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(1);
    const gpu = items[0];
    expect(gpu?.uuid).toBe("GPU-513536b6-7d19-9063-b049-1e69664bb298");
    expect(gpu?.migEnabled).toBe(true);
    expect(gpu?.migDevices.map((d) => d.gpuInstanceId)).toEqual([3, 4, 5, 6]);
    expect(gpu?.migDevices[0]).toEqual({
      index: 0,
      gpuInstanceId: 3,
      computeInstanceId: 0,
      memoryTotalBytes: 19968 * MIB,
      memoryUsedBytes: 12 * MIB,
    });
    expect(gpu?.processes).toEqual([]);
  });

  it("joins -L profile names onto the instances", () => {
    const { items } = parseQueryXml(shared("q-x-a100-sxm4-80gb-mig-535.xml"));
    const mig = migReadings(items, parseListGpus(own("list-a100-mig.txt")));
    expect(mig.map((m) => [m.gpuInstanceId, m.profile])).toEqual([
      [3, "1g.20gb"],
      [4, "1g.20gb"],
      [5, "1g.20gb"],
      [6, "1g.20gb"],
    ]);
    expect(migReadings(items, new Map())[0]?.profile).toBe("unknown");
  });

  it("Tesla T4: no MIG, two processes with their memory", () => {
    const { items } = parseQueryXml(shared("q-x-tesla-t4-515.xml"));
    expect(items[0]?.migEnabled).toBeUndefined(); // N/A on a T4
    expect(items[0]?.migDevices).toEqual([]);
    expect(items[0]?.processes).toEqual([
      {
        gpuUuid: items[0]?.uuid,
        pid: 675,
        processName: "/usr/lib/xorg/Xorg",
        usedMemoryBytes: 22 * MIB,
      },
      { gpuUuid: items[0]?.uuid, pid: 5762, processName: "python", usedMemoryBytes: 1005 * MIB },
    ]);
  });
});

describe("nvidia-smi -L", () => {
  it("maps GPU uuid → MIG device index → profile", () => {
    const list = parseListGpus(own("list-a100-mig.txt"));
    expect(list.get("GPU-513536b6-7d19-9063-b049-1e69664bb298")?.get(2)).toBe("1g.20gb");
    expect(list.get("GPU-00000000-1111-2222-3333-444444444444")?.size).toBe(0);
  });
});

describe("xml reader", () => {
  it("handles declarations, self-closing tags, attributes and entities", () => {
    const doc = parseXml(
      '<?xml version="1.0"?>\n<!DOCTYPE x SYSTEM "x.dtd">\n<!-- c -->\n<a id="1"><b>x &amp; y</b><c /></a>',
    );
    expect(textAt(doc, "a", "b")).toBe("x & y");
    expect(doc.children[0]?.attrs.id).toBe("1");
  });
  it("rejects truncated and mismatched documents instead of guessing", () => {
    expect(() => parseXml("<a><b></a>")).toThrow(/unexpected/);
    expect(() => parseXml("<a><b>")).toThrow(/unclosed/);
    expect(() => parseQueryXml("<html></html>")).toThrow(/nvidia_smi_log/);
  });
});
