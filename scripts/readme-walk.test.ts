import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";

// Walks README.md's "With Prometheus" steps exactly as written (the block between the
// walk:prometheus markers, run by bash from the repository root): six simulated hosts, a real
// Prometheus requiring basic auth over TLS, and the app with GPUFLEET_DEMO=0 reading it. Then
// checks what the README promises: every host priced from the shipped catalogue at once, the
// default alert rules installed, and an idle alert firing (the idle rule tuned to one minute,
// as an admin would, so the test need not wait the default 30).

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const APP = "http://127.0.0.1:3300";
const ADMIN = { email: "admin@example.com", password: "change-me-now-please" };

export function walkBlock(readme: string): string {
  const m =
    /<!-- walk:prometheus:start[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- walk:prometheus:end -->/.exec(
      readme,
    );
  if (!m?.[1]) throw new Error("README.md has no walk:prometheus block");
  return m[1];
}

let walk: ChildProcess | null = null;
let output = "";

function stopWalk(): Promise<void> {
  const child = walk;
  const pid = child?.pid;
  if (!child || pid === undefined) return Promise.resolve();
  // the simulator and Prometheus were started with & in the walk's process group: they outlive
  // bash when it exits on an error, so the group is always killed
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      /* already gone */
    }
  };
  if (child.exitCode !== null || child.signalCode !== null) {
    killGroup("SIGKILL");
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      killGroup("SIGKILL");
      resolve();
    }, 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      killGroup("SIGKILL");
      resolve();
    });
    killGroup("SIGTERM");
  });
}

afterAll(async () => {
  await stopWalk();
});

async function until<T>(what: string, timeoutMs: number, fn: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    if (walk?.exitCode !== null && walk?.exitCode !== undefined)
      throw new Error(`the README's commands exited (${walk.exitCode}) before ${what}:\n${output}`);
    try {
      const v = await fn();
      if (v !== null) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`timed out waiting for ${what} (${String(last)})\n${output.slice(-3000)}`);
}

/** The environment of someone at a shell: none of the test runner's own variables. */
function shellEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(VITEST|NODE_ENV|TEST|GPUFLEET_|PROMETHEUS_|DATABASE_URL|PORT$)/.test(k)) continue;
    env[k] = v;
  }
  return env;
}

describe("README: run it on your fleet with Prometheus", () => {
  it("the block is plain shell that starts Prometheus with basic auth over TLS", () => {
    const block = walkBlock(README);
    expect(block).toContain("--web.config.file=trial/web.yml");
    expect(block).toContain("PROMETHEUS_PASSWORD_FILE=trial/prometheus.pass");
    expect(block).toContain("GPUFLEET_DEMO=0");
    expect(block).toMatch(/npm run -s prometheus:rules >/);
    expect(block).not.toMatch(/npm run prometheus:\S+ .*>/);
  });

  it(
    "gives priced hosts, the default rules and an idle alert",
    async () => {
      // the README's fixed ports: another program on one of them would answer in its place
      for (const port of [3300, 9500, 9590]) {
        const busy = await new Promise<boolean>((resolve) => {
          const socket = connect({ host: "127.0.0.1", port }, () => {
            socket.destroy();
            resolve(true);
          });
          socket.on("error", () => resolve(false));
        });
        expect(busy, `port ${port} is already in use: stop what listens there first`).toBe(false);
      }
      rmSync("trial", { recursive: true, force: true });
      for (const s of ["", "-journal", "-wal", "-shm"])
        rmSync(`data/trial.db${s}`, { force: true });
      const child = spawn("bash", ["-e", "-c", walkBlock(README)], {
        cwd: new URL("..", import.meta.url).pathname,
        env: shellEnv() as NodeJS.ProcessEnv,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      walk = child;
      const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
      child.stdout.on("data", keep);
      child.stderr.on("data", keep);

      // npm start may build the app first, and prints its banner once the app answers
      await until("the app to answer", 420_000, async () => {
        const res = await fetch(`${APP}/api/health`, { signal: AbortSignal.timeout(5000) });
        return res.status < 600 && output.includes("gpufleet is running at") ? true : null;
      });
      expect(output).toContain("metrics: Prometheus HTTP API at https://127.0.0.1:9590/");
      expect(output).toContain("default alert rules installed");
      expect(output).not.toContain(readFileSync("trial/prometheus.pass", "utf8").trim());

      const signIn = await fetch(`${APP}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: APP },
        body: JSON.stringify(ADMIN),
      });
      expect(signIn.status, await signIn.clone().text()).toBe(200);
      const cookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const api = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${APP}${path}`, {
          ...init,
          headers: { cookie, origin: APP, "content-type": "application/json", ...init.headers },
        });
        if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
        return res.json() as Promise<unknown>;
      };

      type Row = { hostname: string; state: string; pricePerHourMicros: string | null };
      const rows = await until("six hosts up, each priced", 120_000, async () => {
        const list = (await api("/api/instances")) as { rows: Row[] };
        return list.rows.length === 6 && list.rows.every((r) => r.state === "up")
          ? list.rows
          : null;
      });
      expect(rows.filter((r) => r.pricePerHourMicros === null)).toEqual([]);
      const fleet = (await api("/api/fleet")) as {
        burn: { perHourMicros: string; unpricedHosts: number };
      };
      expect(fleet.burn.unpricedHosts).toBe(0);
      expect(BigInt(fleet.burn.perHourMicros)).toBeGreaterThan(0n);

      type Rule = { id: string; name: string; kind: string; params: Record<string, unknown> };
      const { rules } = (await api("/api/rules")) as { rules: Rule[] };
      expect(rules.map((r) => r.kind).sort()).toEqual(
        [
          "budget",
          "ecc",
          "exporter_down",
          "gpu_missing",
          "idle",
          "metrics_backend_down",
          "spot_interruption",
          "temperature",
          "throttle",
        ].sort(),
      );
      const idle = rules.find((r) => r.kind === "idle");
      await api(`/api/rules/${idle?.id ?? ""}`, {
        method: "PATCH",
        body: JSON.stringify({ params: { ...idle?.params, durationMinutes: 1 } }),
      });
      const alerts = await until("an idle alert", 180_000, async () => {
        await api("/api/alerts/evaluate", { method: "POST", body: "{}" });
        const list = (await api("/api/alerts?kind=idle")) as {
          alerts: { state: string; summary: string }[];
        };
        return list.alerts.some((a) => a.state === "firing") ? list.alerts : null;
      });
      expect(alerts[0]?.summary).toMatch(/idle/i);
    },
    12 * 60_000,
  );
});
