import "server-only";
import type { Db } from "../../db.ts";
import {
  ExecutorError,
  type ActionTarget,
  type Executor,
  type ResizeTarget,
  type ScaleTarget,
} from "./types.ts";

// The demo's simulated cloud: stopping a host switches its simulated instance off at the
// simulator exporter that serves it (`POST /hosts/<i>/power`, `off`), so its metrics answer 503
// like an unreachable stopped instance, the host goes down and its cost stops. `startSimulated`
// switches it on again; a resize switches it off, sets its instance type
// (`POST /hosts/<i>/instance-type`) and switches it on. Only demo hosts (scraped from the simulator) can be reached this way; no
// cloud client is ever built. A scale signal only records the pool's desired capacity.

function hostUrl(target: string | null): string | null {
  if (!target) return null;
  const m = /^(https?:\/\/[^/]+(?:\/.*)?\/hosts\/\d+)\/metrics$/.exec(target);
  return m ? (m[1] ?? null) : null;
}

/** One call to the simulator's cloud API for the host: `power` (on/off) or `instance-type`. */
async function simulatorCall(
  db: Db,
  hostId: string,
  call: "power" | "instance-type",
  body: string,
): Promise<void> {
  const host = await db.host.findUnique({
    where: { id: hostId },
    select: { target: true, origin: true },
  });
  const base = host?.origin === "demo" ? hostUrl(host.target) : null;
  if (!base) throw new ExecutorError("not a simulated (demo) host", false);
  let res: Response;
  try {
    res = await fetch(`${base}/${call}`, {
      method: "POST",
      body,
      headers: { "content-type": "text/plain" },
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

async function switchPower(db: Db, hostId: string, want: "on" | "off"): Promise<string> {
  await simulatorCall(db, hostId, "power", want);
  return `simulated power ${want}`;
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
      await simulatorCall(db, t.hostId, "instance-type", t.toInstanceType);
      await switchPower(db, t.hostId, "on");
      return {
        detail: `simulated resize ${t.fromInstanceType} → ${t.toInstanceType}: power off, instance type set, power on`,
      };
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
