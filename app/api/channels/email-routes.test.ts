import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The channel routes with an email channel (issue 24): SMTP settings instead of a URL, checked
// field by field (400 with issues under email.*), the password never taken or returned (only a
// file's path), and a webhook channel turned into an email channel by PATCH.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-email-routes-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Ctx = { params: Promise<{ id: string }> };
const ctx = (id: string): Ctx => ({ params: Promise.resolve({ id }) });
const req = (method: string, body: unknown) =>
  new Request("http://local/api/channels", {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

let channels: typeof import("./route.ts");
let channel: typeof import("./[id]/route.ts");
let disconnect: () => Promise<void> = async () => {};

const smtp = {
  host: "smtp.example.com",
  port: 587,
  tls: "starttls",
  from: "gpufleet@example.com",
  to: ["ml-team@example.com"],
  username: "gpufleet",
  passwordFile: "/run/secrets/smtp-password",
};

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, sessionFor } = await import("@/lib/testing/auth.ts");
  const admin = await sessionFor("admin", "grace@test.local");
  channels = asUser(await import("./route.ts"), admin);
  channel = asUser(await import("./[id]/route.ts"), admin);
  const { db } = await import("@/lib/db.ts");
  disconnect = () => db.$disconnect();
});
afterAll(async () => disconnect());

describe("email channels over the API", () => {
  it("creates one from SMTP settings and lists it without any password", async () => {
    const res = await channels.POST(
      req("POST", { name: "ml mail", kind: "email", email: smtp }),
      undefined,
    );
    expect(res.status).toBe(201);
    const c = (await res.json()) as { id: string; url: string; email: Record<string, unknown> };
    expect(c.url).toBe("smtp://smtp.example.com:587");
    expect(c.email).toEqual({ ...smtp, caFile: null });
    const listed = await (
      await channels.GET(new Request("http://local/api/channels"), undefined)
    ).text();
    expect(listed).toContain('"passwordFile":"/run/secrets/smtp-password"');
    expect(listed).not.toMatch(/"password"\s*:/);
  });

  it("refuses bad settings with an issue per field", async () => {
    const res = await channels.POST(
      req("POST", {
        name: "bad",
        kind: "email",
        email: { ...smtp, tls: "none", from: "not-an-address", passwordFile: "relative/path" },
      }),
      undefined,
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; issues: { path: string }[] };
    expect(body.code).toBeTruthy();
    const paths = body.issues.map((i) => i.path).sort();
    expect(paths).toEqual(["email.from", "email.passwordFile", "email.tls"]);
    // a password in the body is not a field: refused, never stored
    const withPassword = await channels.POST(
      req("POST", { name: "pw", kind: "email", email: { ...smtp, password: "hunter2" } }),
      undefined,
    );
    expect(withPassword.status).toBe(400);
    const url = await channels.POST(
      req("POST", { name: "u", kind: "email", email: smtp, url: "https://x.example" }),
      undefined,
    );
    expect(url.status).toBe(400);
  });

  it("turns a webhook channel into an email channel, and changes its TLS mode", async () => {
    const made = await channels.POST(
      req("POST", { name: "hook", kind: "webhook", url: "https://hooks.example.com/x" }),
      undefined,
    );
    const { id } = (await made.json()) as { id: string };
    const turned = await channel.PATCH(req("PATCH", { kind: "email", email: smtp }), ctx(id));
    expect(turned.status).toBe(200);
    expect(((await turned.json()) as { url: string }).url).toBe("smtp://smtp.example.com:587");
    const smtps = { ...smtp, tls: "implicit", port: 465 };
    const changed = await channel.PATCH(req("PATCH", { email: smtps }), ctx(id));
    const c = (await changed.json()) as { url: string; email: { tls: string } };
    expect([c.url, c.email.tls]).toEqual(["smtps://smtp.example.com:465", "implicit"]);
    // renaming keeps the settings
    const renamed = await channel.PATCH(req("PATCH", { name: "ml mail 2" }), ctx(id));
    expect(((await renamed.json()) as { email: { port: number } }).email.port).toBe(465);
  });
});
