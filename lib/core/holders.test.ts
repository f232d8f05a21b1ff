import { describe, expect, it } from "vitest";
import {
  describeHolder,
  holderFromLabels,
  holderKey,
  mergeHolders,
  parseHolderMemories,
} from "./holders.ts";

describe("holderFromLabels", () => {
  it("names a Slurm job's user before the process's", () => {
    const h = holderFromLabels({
      user: "root",
      slurm_user: "alice",
      slurm_job_id: "4242",
      slurm_account: "ml",
    });
    expect(h).toEqual({
      user: "alice",
      kind: "job",
      ref: "4242",
      name: null,
      namespace: null,
      account: "ml",
    });
    expect(h && describeHolder(h)).toBe("alice · job 4242");
  });

  it("reads the exporter's pod labels and dcgm-exporter's pod/namespace/container alike", () => {
    const ours = holderFromLabels({
      user: "1000",
      pod_uid: "u-1",
      pod_namespace: "ml",
      pod_name: "trainer-0",
    });
    expect(ours).toMatchObject({ kind: "pod", ref: "u-1", name: "trainer-0", namespace: "ml" });
    const dcgm = holderFromLabels({ pod: "trainer-0", namespace: "ml", container: "main" });
    expect(dcgm).toMatchObject({ user: null, kind: "pod", ref: "ml/trainer-0", namespace: "ml" });
    expect(dcgm && describeHolder(dcgm)).toBe("pod ml/trainer-0");
  });

  it("shortens a container id and keeps a plain process by user and name", () => {
    const c = holderFromLabels({
      user: "bob",
      container_id: "a".repeat(64),
      container_name: "jupyter",
    });
    expect(c).toMatchObject({ kind: "container", ref: "a".repeat(12), name: "jupyter" });
    const p = holderFromLabels({ user: "carol", process_name: "python" });
    expect(p && holderKey(p)).toBe("carol|process:python");
  });

  it("names nobody without a user, container, pod or job (attribution off), and ignores empty labels", () => {
    expect(holderFromLabels({ process_name: "python", pid: "1" })).toBeNull();
    expect(holderFromLabels({ user: "", pod: "" })).toBeNull();
  });
});

describe("merging and stored JSON", () => {
  const a = {
    user: "a",
    kind: "process",
    ref: "python",
    name: "python",
    namespace: null,
    account: null,
  } as const;
  it("merges a holder's processes on one GPU, largest first", () => {
    const b = { ...a, user: "b" };
    const merged = mergeHolders([
      { holder: a, memBytes: 1 },
      { holder: b, memBytes: 5 },
      { holder: a, memBytes: 2 },
    ]);
    expect(merged.map((m) => [m.holder.user, m.memBytes])).toEqual([
      ["b", 5],
      ["a", 3],
    ]);
  });

  it("reads malformed JSON as no holders rather than failing", () => {
    expect(parseHolderMemories(null)).toEqual([]);
    expect(parseHolderMemories("{")).toEqual([]);
    expect(parseHolderMemories('[{"holder":{"kind":"bogus","ref":"x"},"memBytes":1}]')).toEqual([]);
    expect(parseHolderMemories(JSON.stringify([{ holder: a, memBytes: 7 }]))).toEqual([
      { holder: a, memBytes: 7 },
    ]);
  });
});
