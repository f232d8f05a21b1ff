// A throwaway PostgreSQL cluster for `npm test`: its own temp directory, a free port on 127.0.0.1,
// role and database gpufleet/gpufleet. stop() is synchronous so that it can run in an exit handler;
// the system's clusters (Debian's `main`) are never touched.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./wait.ts";

export const PG_DIR_PREFIX = "gpufleet-testpg-";
const OWNER_FILE = "npm-test.pid";
const SETPRIV = "/usr/bin/setpriv";
const SOCKET_PATH_MAX = 107; // sun_path is 108 bytes, NUL included

export interface PgOwner {
  uid: number;
  gid: number;
}

/** As root, the cluster runs as the `postgres` system user: PostgreSQL refuses to run as root. */
export function clusterOwner(): PgOwner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) =>
      Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    throw new Error(
      "npm test runs as root, and PostgreSQL will not: it needs the `postgres` system user " +
        "(Debian's postgresql package creates it) to own its throwaway cluster",
    );
  }
}

/** The path of the server's unix socket must fit in sun_path. */
export function socketPathFits(dir: string): boolean {
  return join(dir, ".s.PGSQL.65535").length <= SOCKET_PATH_MAX;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Exited (or a zombie nobody reaped yet: a synchronous stop() cannot let Node reap it). */
function gone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
}

function alive(pid: number): boolean {
  return Number.isInteger(pid) && pid > 0 && !gone(pid);
}

/** Removes directories left by runs that were killed outright (SIGKILL), whose server is gone. */
export function sweepStale(dir = tmpdir()): void {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(PG_DIR_PREFIX)) continue;
    const d = join(dir, name);
    try {
      if (alive(Number(readFileSync(join(d, OWNER_FILE), "utf8")))) continue;
      const pidFile = join(d, "data", "postmaster.pid");
      if (existsSync(pidFile) && alive(Number(readFileSync(pidFile, "utf8").split("\n")[0])))
        continue;
      rmSync(d, { recursive: true, force: true });
    } catch {
      /* another user's directory, or one being created: leave it */
    }
  }
}

class PortTaken extends Error {}

export class ThrowawayPg {
  dir: string | undefined;
  port = 0;
  private child: ChildProcess | undefined;

  constructor(
    private readonly binDir: string,
    /**
     * durable: fsync and synchronous commits on, as a production server has them (benchmarks);
     * settings: server settings (`-c name=value`), e.g. a benchmark's memory and WAL sizing
     */
    private readonly opts: { durable?: boolean; settings?: Record<string, string> } = {},
  ) {}

  /** Starts the cluster; returns the URL for GPUFLEET_TEST_PG_URL. */
  async start(): Promise<string> {
    sweepStale();
    const owner = clusterOwner();
    const dir = mkdtempSync(join(tmpdir(), PG_DIR_PREFIX));
    this.dir = dir;
    writeFileSync(join(dir, OWNER_FILE), String(process.pid));
    if (owner) chownSync(dir, owner.uid, owner.gid);
    if (!socketPathFits(dir))
      throw new Error(`${dir} is too long a path for a unix socket: set TMPDIR to a shorter one`);
    // nothing else from ours: PGDATA, PGPORT and the like would change what the server does
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: "test", // required by Next's typing of ProcessEnv; PostgreSQL ignores it
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      LC_ALL: "C",
    };
    const data = join(dir, "data");
    await promisify(execFile)(
      join(this.binDir, "initdb"),
      ["-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256"].concat([
        "--encoding=UTF8",
        "--no-locale",
        "--no-sync",
      ]),
      { ...owner, cwd: dir, env },
    ).catch((e: Error & { stderr?: string }) => {
      throw new Error(`initdb failed: ${e.stderr?.trim() || e.message}`);
    });
    for (let attempt = 1; ; attempt++) {
      this.port = await freePort();
      try {
        await this.launch(data, owner, env);
        break;
      } catch (e) {
        if (!(e instanceof PortTaken) || attempt >= 3) throw e;
      }
    }
    await this.createRole();
    const url = `postgresql://gpufleet:gpufleet@127.0.0.1:${this.port}/gpufleet`;
    await this.query(url, "SELECT 1");
    return url;
  }

  private async launch(
    data: string,
    owner: PgOwner | undefined,
    env: NodeJS.ProcessEnv,
  ): Promise<void> {
    const dir = this.dir ?? "";
    const log = join(dir, "postgres.log");
    const fd = openSync(log, "a");
    const args = [
      "-D",
      data,
      "-p",
      String(this.port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
    ]
      // a throwaway cluster for tests needs no durability
      .concat(
        this.opts.durable
          ? []
          : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
      )
      .concat(Object.entries(this.opts.settings ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]));
    const postgres = join(this.binDir, "postgres");
    // --pdeathsig: the server shuts down even when npm test is killed outright (SIGKILL)
    const [cmd, argv] = existsSync(SETPRIV)
      ? [SETPRIV, ["--pdeathsig", "INT", postgres, ...args]]
      : [postgres, args];
    const child = spawn(cmd, argv, { ...owner, cwd: dir, env, stdio: ["ignore", fd, fd] });
    this.child = child;
    closeSync(fd);
    const tail = () => readFileSync(log, "utf8").split("\n").slice(-15).join("\n");
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        this.child = undefined;
        if (/could not bind|already in use/i.test(tail())) throw new PortTaken();
        throw new Error(`PostgreSQL exited while starting:\n${tail()}`);
      }
      try {
        await this.query(null, "SELECT 1");
        return;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline)
        throw new Error(`PostgreSQL did not accept connections within 30 s:\n${tail()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A query as the superuser over the unix socket (null url), or as `url` says. */
  private async query(url: string | null, sql: string): Promise<void> {
    const c = new pg.Client(
      url
        ? { connectionString: url }
        : { host: this.dir, port: this.port, user: "postgres", database: "postgres" },
    );
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  }

  private async createRole(): Promise<void> {
    await this.query(null, "CREATE ROLE gpufleet LOGIN CREATEDB PASSWORD 'gpufleet'");
    await this.query(null, "CREATE DATABASE gpufleet OWNER gpufleet");
  }

  /** Stops the server (fast shutdown, then harder) and deletes the directory. Idempotent. */
  stop(): void {
    const child = this.child;
    this.child = undefined;
    const pid = child?.pid;
    if (pid && child.exitCode === null && child.signalCode === null) {
      for (const [signal, ms] of [
        ["SIGINT", 15_000],
        ["SIGQUIT", 5_000],
        ["SIGKILL", 5_000],
      ] as const) {
        try {
          process.kill(pid, signal);
        } catch {
          break; // already gone
        }
        const deadline = Date.now() + ms;
        while (!gone(pid) && Date.now() < deadline) sleepSync(50);
        if (gone(pid)) break;
      }
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
