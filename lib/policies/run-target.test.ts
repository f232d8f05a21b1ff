import { describe, expect, it } from "vitest";
import type { Holder } from "../core/holders.ts";
import type { EvalHost } from "./evaluate.ts";
import { runFacts, runShareMicros, runTarget } from "./run-target.ts";

// A run's target for the executor (the webhook's signed body): a Slurm job with its cluster from
// the host's label, a pod by uid or by namespace/name; and its share of the host's price.

const host: EvalHost = {
  id: "h1",
  hostname: "gpu-aws-use1-003",
  owner: "ana",
  team: "research",
  project: "llm",
  labels: { slurm_cluster: "hpc1" },
  state: "up",
  lastSeen: null,
  interruptionPending: false,
  provider: "aws",
  region: "us-east-1",
  zone: "us-east-1a",
  instanceId: "i-0abc",
  instanceType: "p4d.24xlarge",
  // $32.773/h over 8 GPUs
  hourlyMicros: 32_773_000n,
  gpus: ["g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7"],
};
const SINCE = new Date("2026-11-19T10:00:00Z");
const ids = { policyId: "p1", episodeId: "e1" };

function episode(h: Holder, gpus: number) {
  return { holder: JSON.stringify(h), holderGpus: gpus, idleSince: SINCE };
}

const base = { user: "alice", name: null, namespace: null, account: null };

describe("runTarget", () => {
  it("a Slurm job: id, user, account and the host's cluster label", () => {
    const run = runFacts(episode({ ...base, kind: "job", ref: "4242", account: "ml" }, 2), host);
    expect(run?.label).toBe("job 4242 (alice)");
    expect(run?.hourlyMicros).toBe(8_193_250n);
    expect(runTarget(ids, host, run ?? (undefined as never))).toEqual({
      policyId: "p1",
      episodeId: "e1",
      action: "cancel_job",
      hostId: "h1",
      hostname: "gpu-aws-use1-003",
      provider: "aws",
      region: "us-east-1",
      zone: "us-east-1a",
      instanceId: "i-0abc",
      runningSince: SINCE.toISOString(),
      gpus: 2,
      job: { id: "4242", user: "alice", account: "ml", cluster: "hpc1" },
      pod: null,
    });
  });

  it("a pod by uid, with its names where the kubelet gave them, or by namespace/name only", () => {
    const uid = "5f0c-1b2a";
    const byUid = runFacts(
      episode({ ...base, kind: "pod", ref: uid, name: "trainer-0", namespace: "ml" }, 1),
      host,
    );
    expect(runTarget(ids, host, byUid ?? (undefined as never))).toMatchObject({
      action: "delete_pod",
      job: null,
      pod: { namespace: "ml", name: "trainer-0", uid, user: "alice" },
    });
    const byName = runFacts(
      episode({ ...base, kind: "pod", ref: "ml/trainer-0", name: "trainer-0", namespace: "ml" }, 1),
      host,
    );
    expect(runTarget(ids, host, byName ?? (undefined as never)).pod).toEqual({
      namespace: "ml",
      name: "trainer-0",
      uid: null,
      user: "alice",
    });
  });

  it("prices a run at its GPUs × the per-GPU price; unpriced or GPU-less hosts are null", () => {
    expect(runShareMicros(host, 0.5)).toBe(2_048_313n);
    expect(runShareMicros(host, 8)).toBe(32_773_000n);
    // never more than the host
    expect(runShareMicros(host, 12)).toBe(32_773_000n);
    expect(runShareMicros({ ...host, hourlyMicros: null }, 1)).toBeNull();
    expect(runShareMicros({ ...host, gpus: [] }, 1)).toBeNull();
    expect(runFacts({ holder: null, holderGpus: null, idleSince: SINCE }, host)).toBeNull();
  });
});
