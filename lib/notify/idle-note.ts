import { mulDivRound } from "../core/money.ts";
import { formatMoney } from "../format/money.ts";

// What an idle-GPU message tells the person holding the GPU (issue 24): which GPU, how long it has
// been idle (its window before the alert opened, plus the time since), what it costs an hour and
// what its idle time has cost so far, who and what holds it, and what to do. Built at send time
// from the alert's details (lib/alerts/evaluate-idle.ts, idle-holders.ts), so a retried delivery
// says how long it has been idle by then.

const HOUR_MS = 3_600_000n;

const ACTION: Record<string, string> = {
  job: "cancel the Slurm job (scancel) or release its GPU",
  pod: "scale down or delete the pod",
  container: "stop the container",
  process: "end the process",
};

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

function duration(ms: number): string {
  const min = Math.max(0, Math.floor(ms / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
}

/** The lines an idle alert adds to its message; none for other kinds or an empty GPU. */
export function idleNote(
  details: Record<string, unknown>,
  startsAt: Date,
  now: Date,
): { lines: string[]; idleMinutes: number; spentMicros: bigint | null } | null {
  if (details.idleKind !== "held" && details.idleKind !== "empty") return null;
  const windowMin = typeof details.windowMinutes === "number" ? details.windowMinutes : 0;
  const since = new Date(startsAt.getTime() - windowMin * 60_000);
  const idleMs = Math.max(0, now.getTime() - since.getTime());
  const hourly = str(details.gpuHourlyMicros);
  const spent = hourly === null ? null : mulDivRound(BigInt(hourly), BigInt(idleMs), HOUR_MS);
  const gpu = [
    typeof details.gpuIndex === "number" ? `GPU ${details.gpuIndex}` : "A GPU",
    str(details.gpuName) ? ` (${str(details.gpuName)})` : "",
    str(details.hostname) ? ` on ${str(details.hostname)}` : "",
  ].join("");
  const lines = [
    `${gpu} has been idle for ${duration(idleMs)}, since ${since.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
  ];
  if (hourly !== null && spent !== null)
    lines.push(`It costs ${formatMoney(hourly)}/h: ${formatMoney(spent)} spent idle so far.`);
  const holder = str(details.holder);
  const others = Array.isArray(details.holders)
    ? details.holders.filter((h): h is string => typeof h === "string" && h !== holder)
    : [];
  if (holder) {
    lines.push(
      `Held by ${holder}${others.length > 0 ? ` (also: ${others.slice(0, 3).join(", ")})` : ""}.`,
    );
    const action = ACTION[str(details.holderKind) ?? "process"] ?? ACTION.process;
    lines.push(
      `What to do: if you are done with it, ${action} so the GPU is released; if you still need it, ` +
        "put it back to work or acknowledge the alert with a note.",
    );
  } else if (details.idleKind === "empty") {
    lines.push("What to do: nothing runs on it; stop or release the GPU if nobody needs it.");
  }
  return { lines, idleMinutes: Math.floor(idleMs / 60_000), spentMicros: spent };
}
