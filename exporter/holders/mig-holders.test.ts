// MIG instances carry their own holders: nvidia-smi's process list names only the parent GPU,
// so the MIG instance of each process comes from the -q -x snapshot's <process_info>.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../log.ts";
import { HostState } from "../state.ts";
import { startExporter, type RunningExporter } from "../server.ts";
import { fakeDir, writeFakeProc } from "../test/fake-host.ts";
import { UUID1, twoH100s } from "../test/fake-gpus.ts";
import { FAKE_NVSMI, FakeNvidiaSmi, OWN_FIXTURES, sample, waitFor } from "../test/helpers.ts";

let exporter: RunningExporter | undefined;
afterEach(async () => {
  await exporter?.close();
  exporter = undefined;
});

function processInfo(gi: number, pid: number): string {
  return `<process_info><gpu_instance_id>${gi}</gpu_instance_id><compute_instance_id>0</compute_instance_id><pid>${pid}</pid><type>C</type><process_name>python3</process_name><used_memory>1000 MiB</used_memory></process_info>`;
}

describe("MIG holders", () => {
  it("labels each process on a MIG GPU with its GPU instance and its own holder", async () => {
    const dir = fakeDir("mig-holders-");
    // the capture's MIG GPU (the second) lists no process: give instances 2 and 9 one each
    const xml = readFileSync(join(OWN_FIXTURES, "q-x-h100-mig.xml"), "utf8");
    const last = xml.lastIndexOf("<processes />");
    const withProcs =
      xml.slice(0, last) +
      `<processes>${processInfo(2, 4200)}${processInfo(9, 4201)}</processes>` +
      xml.slice(last + "<processes />".length);
    writeFileSync(join(dir, "q-x.xml"), withProcs);
    const proc = join(dir, "proc");
    writeFakeProc(proc, { pid: 4200, uid: 0, cgroup: "0::/system.slice/jupyter.service\n" });
    writeFakeProc(proc, {
      pid: 4201,
      uid: 0,
      cgroup: "0::/system.slice/slurmstepd.scope/job_77/step_0/user/task_0\n",
    });
    const state = twoH100s();
    new FakeNvidiaSmi({
      ...state,
      xmlFile: join(dir, "q-x.xml"),
      processes: [
        { gpu_uuid: UUID1, pid: "4200", used_gpu_memory: "1000", process_name: "python3" },
        { gpu_uuid: UUID1, pid: "4201", used_gpu_memory: "1000", process_name: "python3" },
      ],
    });
    exporter = await startExporter({
      listenAddress: "127.0.0.1:0",
      nvidiaSmiPath: FAKE_NVSMI,
      intervalMs: 150,
      logger: silentLogger,
      tuning: { startupGraceMs: 2000, commandTimeoutMs: 5000, migIntervalMs: 60_000 },
      holders: { procfs: proc },
    });
    const e = exporter;
    const text = await waitFor(async () => {
      const t = await (await fetch(`${e.url}/metrics`)).text();
      // uid 0 is named by this machine's getent in the background: wait for both
      const gi = sample(t, "gpu_process_memory_used_bytes", { gpu_instance_id: "9" });
      const named = sample(t, "gpu_process_memory_used_bytes", { pid: "4200", user: "root" });
      return gi !== undefined && named !== undefined ? t : undefined;
    }, "MIG instance labels");
    const metric = "gpu_process_memory_used_bytes";
    expect(sample(text, metric, { pid: "4200", gpu_instance_id: "2", user: "root" })).toBe(
      1000 * 1024 ** 2,
    );
    expect(sample(text, metric, { pid: "4201", gpu_instance_id: "9", slurm_job_id: "77" })).toBe(
      1000 * 1024 ** 2,
    );
  });
});

describe("HostState.setProcessInstances", () => {
  it("keeps each GPU's process → instance map from its last snapshot only", () => {
    const st = new HostState({ staleAfterMs: 10_000, processTtlMs: 10_000, migTtlMs: 10_000 });
    st.processesKnown = true;
    st.setGpu({ index: 0, uuid: "GPU-a", migEnabled: true, clockEvents: {} }, 0);
    st.setGpu({ index: 1, uuid: "GPU-b", migEnabled: true, clockEvents: {} }, 0);
    const p = (gpuUuid: string, pid: number, gpuInstanceId?: number) => ({
      gpuUuid,
      pid,
      processName: "p",
      ...(gpuInstanceId === undefined ? {} : { gpuInstanceId }),
    });
    st.replaceProcesses([p("GPU-a", 1), p("GPU-a", 2), p("GPU-b", 3)], 0);
    st.setProcessInstances(
      ["GPU-a", "GPU-b"],
      [p("GPU-a", 1, 5), p("GPU-a", 2, 6), p("GPU-b", 3, 1)],
    );
    // a snapshot of GPU-a alone where pid 2 is gone: GPU-b's entry stays
    st.setProcessInstances(["GPU-a"], [p("GPU-a", 1, 5)]);
    const gi = (st.view(0).processes ?? []).map((x) => [x.pid, x.gpuInstanceId]);
    expect(gi).toEqual([
      [1, 5],
      [2, undefined],
      [3, 1],
    ]);
  });
});
