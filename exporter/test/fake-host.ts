// Test support: a fake host for attribution tests. A /proc directory, a `getent` and an
// `scontrol` that answer from tables and log each call, a Docker Engine API on a unix socket
// and a kubelet on 127.0.0.1. Nothing here reaches beyond this machine.

import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
  existsSync,
} from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FakeProc {
  pid: number;
  uid: number;
  cgroup: string;
  comm?: string;
  /** clock ticks after boot (field 22 of stat) */
  start?: number;
}

export function fakeDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes <root>/<pid>/{status,cgroup,stat} as the kernel formats them. */
export function writeFakeProc(root: string, p: FakeProc): void {
  const dir = join(root, String(p.pid));
  mkdirSync(dir, { recursive: true });
  const comm = p.comm ?? "python3";
  const ids = `${p.uid}\t${p.uid}\t${p.uid}\t${p.uid}`;
  writeFileSync(
    join(dir, "status"),
    `Name:\t${comm}\nState:\tS (sleeping)\nTgid:\t${p.pid}\nPid:\t${p.pid}\nPPid:\t1\nUid:\t${ids}\nGid:\t${ids}\n`,
  );
  writeFileSync(join(dir, "cgroup"), p.cgroup);
  writeFileSync(
    join(dir, "stat"),
    `${p.pid} (${comm}) S 1 ${p.pid} ${p.pid} 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 ${p.start ?? 4242} 0 0\n`,
  );
}

/**
 * An executable that prints `table[key]` for its argument at `argIndex` (exit 0), or exits
 * `missCode`; each call appends its arguments to <dir>/<name>.calls.
 */
export function fakeCommand(
  dir: string,
  name: string,
  table: Record<string, string>,
  argIndex: number,
  missCode: number,
): string {
  const file = join(dir, name);
  const data = join(dir, `${name}.json`);
  writeFileSync(data, JSON.stringify(table));
  writeFileSync(
    file,
    `#!/usr/bin/env node
const fs = require("node:fs");
fs.appendFileSync(${JSON.stringify(`${file}.calls`)}, process.argv.slice(2).join(" ") + "\\n");
const table = JSON.parse(fs.readFileSync(${JSON.stringify(data)}, "utf8"));
const out = table[process.argv[${argIndex + 2}]];
if (out === undefined) process.exit(${missCode});
process.stdout.write(out + "\\n");
`,
  );
  chmodSync(file, 0o755);
  return file;
}

export function calls(command: string): string[] {
  const f = `${command}.calls`;
  return existsSync(f)
    ? readFileSync(f, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : [];
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function listen(server: Server, target: string | number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    if (typeof target === "string") server.listen(target, resolve);
    else server.listen(target, "127.0.0.1", resolve);
  });
}

export async function fakeDocker(
  socketPath: string,
  containers: { Id: string; Names: string[] }[],
): Promise<Server> {
  const handler: Handler = (req, res) => {
    if (req.url === "/containers/json") {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(containers));
    } else {
      res.statusCode = 404;
      res.end("{}");
    }
  };
  const server = createServer(handler);
  await listen(server, socketPath);
  return server;
}

export async function fakeKubelet(
  token: string,
  pods: unknown[],
): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.statusCode = 401;
      res.end("Unauthorized");
      return;
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ kind: "PodList", apiVersion: "v1", items: pods }));
  });
  await listen(server, 0);
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return { server, url: `http://127.0.0.1:${port}`, requests };
}

export function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!server) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
