import { describe, expect, it } from "vitest";
import { buildFleet } from "./fleet.ts";
import { sampleHost } from "./sample.ts";

// The demo matches its stored hosts to a restarted exporter by hostname (lib/demo/reconcile.ts):
// that holds only if a larger fleet starts with exactly the hosts of a smaller one.

describe("buildFleet: growing the fleet keeps the hosts already there", () => {
  const at = new Date("2026-11-25T15:00:00.000Z");
  for (const [small, large] of [
    [24, 26],
    [3, 24],
    [26, 60],
  ] as const) {
    it(`the first ${small} hosts of ${large} are the ${small}-host fleet`, () => {
      const a = buildFleet({ seed: 42, hosts: small });
      const b = buildFleet({ seed: 42, hosts: large });
      expect(b.hosts).toHaveLength(large);
      expect(b.hosts.slice(0, small)).toEqual(a.hosts);
      // and the exporter serves them the same readings
      for (const h of a.hosts) {
        const other = b.hosts[h.id];
        expect(other && sampleHost(b, other, at)).toEqual(sampleHost(a, h, at));
      }
    });
  }

  it("gives every host its own hostname and GPU uuids", () => {
    const f = buildFleet({ seed: 42, hosts: 200 });
    expect(new Set(f.hosts.map((h) => h.hostname)).size).toBe(200);
    const uuids = f.hosts.flatMap((h) => h.gpus.map((g) => g.uuid));
    expect(new Set(uuids).size).toBe(uuids.length);
  });
});
