import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// Maximum run time per job or pod through the policies API: a cloud executor for a job's or pod's
// run is refused with a 400 naming the executor field (a cloud's instance API cannot end a job),
// on create and on a change; the signed webhook is taken, and the target comes back.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-policies-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Handler = (req: Request, ctx: { params: Promise<{ id?: string }> }) => Promise<Response>;
type Db = (typeof import("@/lib/db.ts"))["db"];
let db: Db;
let admin: TestSession;
let POST: Handler;
let PATCH: Handler;

function send(h: Handler, method: string, path: string, body: unknown, id?: string) {
  return h(
    new Request(`http://127.0.0.1:3000${path}`, {
      method,
      headers: { "content-type": "application/json", cookie: admin.cookie, origin: admin.origin },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id }) },
  );
}

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  db = (await import("@/lib/db.ts")).db;
  admin = await (await import("@/lib/testing/auth.ts")).sessionFor("admin");
  POST = (await import("./route.ts")).POST as unknown as Handler;
  PATCH = (await import("./[id]/route.ts")).PATCH as unknown as Handler;
}, 60_000);
afterAll(async () => db.$disconnect());

const JOBS = {
  name: "Jobs at most 24h",
  kind: "max_runtime",
  target: "job",
  action: "cancel_job",
  idleHours: 24,
};

describe("POST/PATCH /api/policies with a job or pod target", () => {
  it("refuses a cloud executor for a job, naming the field", async () => {
    const res = await send(POST, "POST", "/api/policies", { ...JOBS, executor: "gcp" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      code: string;
      issues: { path: string; message: string }[];
    };
    expect(body.code).toBe("bad_request");
    expect(body.issues).toEqual([
      {
        path: "executor",
        message: expect.stringContaining("cloud's instance API (gcp) cannot end a Slurm job"),
      },
    ]);
    expect(await db.policy.count()).toBe(0);
  });

  it("takes the signed webhook, and refuses a change to a cloud executor", async () => {
    const res = await send(POST, "POST", "/api/policies", {
      ...JOBS,
      executor: "webhook",
      webhookUrl: "https://hooks.example.com/scancel",
    });
    expect(res.status).toBe(201);
    const p = (await res.json()) as { id: string; target: string; action: string; mode: string };
    expect(p).toMatchObject({ target: "job", action: "cancel_job", mode: "dry_run" });
    const bad = await send(PATCH, "PATCH", `/api/policies/${p.id}`, { executor: "aws" }, p.id);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("cannot end a Slurm job");
    const pod = await send(PATCH, "PATCH", `/api/policies/${p.id}`, { target: "pod" }, p.id);
    expect(pod.status).toBe(400);
    expect(await pod.json()).toMatchObject({
      issues: [{ path: "action", message: "a pod's run ends with delete_pod" }],
    });
  });
});
