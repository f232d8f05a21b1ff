// Shared test helpers: where the real captures are, promtool, the fake nvidia-smi, polling.

import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const OWN_FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
export const FAKE_NVSMI = fileURLToPath(new URL("./fake-nvidia-smi.mjs", import.meta.url));

/** The real captures, copied into the repository with their provenance (captures/README.md). */
export const SHARED_FIXTURES = fileURLToPath(new URL("./fixtures/captures/", import.meta.url));
/** Always true in a checkout; a missing folder fails loudly instead of skipping silently. */
export const HAVE_SHARED = existsSync(SHARED_FIXTURES);
if (!HAVE_SHARED)
  throw new Error(`${SHARED_FIXTURES} is missing: the real captures are part of the repository`);

export function shared(name: string): string {
  return readFileSync(join(SHARED_FIXTURES, name), "utf8");
}

export function own(name: string): string {
  return readFileSync(join(OWN_FIXTURES, name), "utf8");
}

export const HAVE_PROMTOOL = spawnSync("promtool", ["--version"]).status === 0;
if (!HAVE_PROMTOOL) console.warn("[exporter tests] promtool not found: lint tests are skipped");

export interface PromtoolResult {
  status: number;
  problems: string[];
}

/** `promtool check metrics`: exit 0 clean, 3 lint problems, 1 parse error. */
export function promtool(exposition: string): PromtoolResult {
  const r = spawnSync("promtool", ["check", "metrics"], { input: exposition, encoding: "utf8" });
  const problems = `${r.stdout}${r.stderr}`.split("\n").filter((l) => l.trim() !== "");
  return { status: r.status ?? -1, problems };
}

export const HAVE_OPENSSL = spawnSync("openssl", ["version"]).status === 0;

/** A throwaway self-signed certificate for 127.0.0.1 in a fresh temp dir. */
export function selfSignedCert(): { dir: string; cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), "gpu-exporter-tls-"));
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"],
      ...["-keyout", key, "-out", cert, "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  return { dir, cert, key };
}

export interface FakeGpu {
  [field: string]: string;
}

export interface FakeState {
  mode: "ok" | "hang" | "exit" | "garbage";
  helpFile: string;
  gpus: FakeGpu[];
  processes?: Record<string, string>[];
  xmlFile?: string;
  list?: string;
}

/** A fake nvidia-smi controlled through a JSON file; see fake-nvidia-smi.mjs. */
export class FakeNvidiaSmi {
  readonly dir = mkdtempSync(join(tmpdir(), "fake-nvsmi-"));
  readonly stateFile = join(this.dir, "state.json");
  readonly pidDir = join(this.dir, "pids");

  constructor(initial: FakeState) {
    mkdirSync(this.pidDir, { recursive: true });
    this.set(initial);
    process.env.FAKE_NVSMI_STATE = this.stateFile;
    process.env.FAKE_NVSMI_PIDS = this.pidDir;
  }

  set(state: FakeState): void {
    // write-then-rename so the fake never reads half a file
    writeFileSync(`${this.stateFile}.tmp`, JSON.stringify(state));
    renameSync(`${this.stateFile}.tmp`, this.stateFile);
  }

  update(patch: Partial<FakeState>): void {
    this.set({ ...(JSON.parse(readFileSync(this.stateFile, "utf8")) as FakeState), ...patch });
  }

  /** pids of every fake run so far, and the arguments each got */
  runs(): { pid: number; args: string }[] {
    return readdirSync(this.pidDir).map((pid) => ({
      pid: Number(pid),
      args: readFileSync(join(this.pidDir, pid), "utf8"),
    }));
  }

  alive(): number[] {
    return this.runs()
      .map((r) => r.pid)
      .filter((pid) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      });
  }
}

/**
 * Polls until `probe` gives a value. The deadline is generous on purpose: it only matters when
 * something is wrong, and a loaded CI machine starts a fake nvidia-smi (a node process) slowly.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

/** Value of the first sample of `name` whose labels include all of `labels`. */
export function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) {
      return Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return undefined;
}
