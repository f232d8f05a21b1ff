import "server-only";
import type { Db } from "../../db.ts";
import {
  ExecutorError,
  type ActionTarget,
  type Executor,
  type ResizeTarget,
  type RunTarget,
  type ScaleTarget,
} from "./types.ts";

// The demo's simulated cloud: stopping a host switches its simulated instance off at the
// simulator exporter that serves it (`POST /hosts/<i>/power`, `off`), so its metrics answer 503
// like an unreachable stopped instance, the host goes down and its cost stops. `startSimulated`
// switches it on again; a resize switches it off, sets its instance type
// (`POST /hosts/<i>/instance-type`) and switches it on. Ending a job's or pod's run (maximum run time per job or pod) asks the
// simulator to end it (`POST /hosts/<i>/runs/end`, `{"kind","ref"}`): its processes go and its
// GPUs fall idle, so the host stops attributing it. Only demo hosts (scraped from the simulator) can be reached this way; no
// cloud client is ever built. A scale signal only records the pool's desired capacity.

function simUrl(target: string | null, path: string): string | null {
  if (!target) return null;
  const m = /^(https?:\/\/[^/]+(?:\/.*)?\/hosts\/\d+)\/metrics$/.exec(target);
  return m ? `${m[1]}/${path}` : null;
}

async function switchPower(db: Db, hostId: string, want: "on" | "off"): Promise<string> {
  await postSim(db, hostId, "power", want, "text/plain");
  return `simulated power ${want}`;
}

async function postSim(db: Db, hostId: string, path: string, body: string, type: string) {
  const host = await db.host.findUnique({
    where: { id: hostId },
    select: { target: true, origin: true },
  });
  const url = host?.origin === "demo" ? simUrl(host.target, path) : null;
  if (!url) throw new ExecutorError("not a simulated (demo) host", false);
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": type },
      redirect: "error",
      signal: AbortSignal.timeout(5_000),
    });
  } catch (e) {
    throw new ExecutorError(`simulated cloud unreachable: ${(e as Error).message}`, true);
  }
  await res.body?.cancel();
  if (!res.ok)
    throw new ExecutorError(`simulated cloud answered HTTP ${res.status}`, res.status >= 500);
}

export function simulatedExecutor(db: Db): Executor {
  return {
    name: "simulated",
    async run(t: ActionTarget) {
      // the simulated cloud keeps every instance: terminate powers it off just like stop
      return { detail: `${t.action}: ${await switchPower(db, t.hostId, "off")}` };
    },
    // as the clouds do it: stop, change the type, start; the host answers again under its new
    // type, which the ledger prices from that hour (its simulated GPUs stay as they are)
    async resize(t: ResizeTarget) {
      await switchPower(db, t.hostId, "off");
      await postSim(db, t.hostId, "instance-type", t.toInstanceType, "text/plain");
      await switchPower(db, t.hostId, "on");
      return {
        detail: `simulated resize ${t.fromInstanceType} → ${t.toInstanceType}: power off, instance type set, power on`,
      };
    },
    async endRun(t: RunTarget) {
      const run = t.job
        ? { kind: "job", ref: t.job.id }
        : { kind: "pod", ref: t.pod?.uid ?? `${t.pod?.namespace ?? ""}/${t.pod?.name ?? ""}` };
      await postSim(db, t.hostId, "runs/end", JSON.stringify(run), "application/json");
      return { detail: `${t.action}: simulated ${run.kind} ${run.ref} ended` };
    },
    // the simulator's fleet is fixed: a scale signal sets the pool's desired capacity, which the
    // signal records (settings page, audit log) and nothing else changes
    async scale(t: ScaleTarget) {
      return { detail: `simulated desired capacity of ${t.pool}: ${t.fromSize} → ${t.desired}` };
    },
  };
}

/** Starts a host the simulated cloud stopped (the demo's "start again"). */
export async function startSimulated(db: Db, hostId: string): Promise<string> {
  return switchPower(db, hostId, "on");
}
