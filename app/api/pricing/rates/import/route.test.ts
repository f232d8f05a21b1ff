import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// The exchange-rate upload: finance only (401 signed out, 403 for a viewer, a team-limited
// finance user previews but does not apply), text/csv only (415), a body over the cap is a 413, a
// bad line is a 400 naming the line, a preview writes nothing, an apply adds the rates in one go
// with one audit entry, and a second apply adds nothing.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-rates-upload-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

const fixture = (name: string) =>
  readFileSync(
    new URL(`../../../../../lib/pricing/import/fixtures/${name}`, import.meta.url),
    "utf8",
  );
const CNY_EUR = fixture("h10-cny-eur-daily.csv");
const MALFORMED = fixture("h10-cny-daily.malformed.csv");

const upload = (query: string, body: string, type = "text/csv") =>
  new Request(`http://local/api/pricing/rates/import?${query}`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });

type Route = typeof import("./route.ts");
let raw: Route;
let asFinance: Route;
let asTeamFinance: Route;
let asViewer: Route;
let db: typeof import("@/lib/db.ts").db;
let shipped = 0;

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, cookieFrom, sessionFor, signIn, TEST_PASSWORD } =
    await import("@/lib/testing/auth.ts");
  const { createUser } = await import("@/lib/auth/users.ts");
  const { publicOrigin } = await import("@/lib/auth/auth.ts");
  const finance: TestSession = await sessionFor("finance", "fin@test.local");
  const email = "team-fin@test.local";
  await createUser({ email, password: TEST_PASSWORD, role: "finance", teams: ["ml"] });
  const teamFinance: TestSession = {
    email,
    cookie: cookieFrom(await signIn(email, TEST_PASSWORD)),
    origin: publicOrigin(),
  };
  const viewer: TestSession = await sessionFor("viewer");
  raw = await import("./route.ts");
  asFinance = asUser(raw, finance);
  asTeamFinance = asUser(raw, teamFinance);
  asViewer = asUser(raw, viewer);
  db = (await import("@/lib/db.ts")).db;
  shipped = await db.exchangeRate.count();
});
afterAll(async () => db.$disconnect());

const post = (route: Route, req: Request) => route.POST(req, undefined as never);
const userRates = () => db.exchangeRate.count({ where: { origin: "user" } });

describe("POST /api/pricing/rates/import", () => {
  it("refuses the signed-out (401), viewers (403) and other content types (415)", async () => {
    expect((await post(raw, upload("mode=apply", CNY_EUR))).status).toBe(401);
    expect((await post(asViewer, upload("mode=apply", CNY_EUR))).status).toBe(403);
    const json = await post(asFinance, upload("", CNY_EUR, "application/json"));
    expect(json.status).toBe(415);
    expect(await json.json()).toMatchObject({
      code: "unsupported_media_type",
      error: expect.stringContaining("text/csv"),
    });
    // rates are fleet-wide: a team-limited finance user may preview, not apply
    expect((await post(asTeamFinance, upload("mode=apply", CNY_EUR))).status).toBe(403);
    expect((await post(asTeamFinance, upload("mode=preview", CNY_EUR))).status).toBe(200);
    expect(await userRates()).toBe(0);
  });

  it("answers a body over the cap with a 413, and writes nothing", async () => {
    const big = CNY_EUR + "2026-09-08,ND,ND\n".repeat(300_000);
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    const res = await post(asFinance, upload("mode=apply&file=big.csv", big));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });
    expect(await userRates()).toBe(0);
  });

  it("answers a bad file with a 400 naming each bad line, and writes nothing", async () => {
    const res = await post(asFinance, upload("mode=apply&file=bad.csv", MALFORMED));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; error: string; issues: unknown[] };
    expect(body.code).toBe("invalid_input");
    expect(body.error).toMatch(/^bad\.csv: not imported, nothing written: line 8: /);
    expect(body.issues).toEqual([
      { path: "line 8", message: "3 fields, expected 2" },
      {
        path: "line 9",
        message: "RXI_N.B.CH: not a plausible rate: 1 CNY is worth between 0.05 and 0.5 USD",
      },
      { path: "line 10", message: '"2026-09-31" is not a date (YYYY-MM-DD)' },
      { path: "line 11", message: 'RXI_N.B.CH: "seven" is not a rate (a positive decimal or ND)' },
    ]);
    const notCsv = await post(asFinance, upload("file=x.csv", "DATE,DEXCHUS\n2026-08-21,6.7\n"));
    const header = (await notCsv.json()) as { issues: { path: string; message: string }[] };
    expect(header.issues[0]).toEqual({
      path: "line 1",
      message: expect.stringContaining('expected "Series Description", found "DATE"'),
    });
    expect(await userRates()).toBe(0);
  });

  it("previews without writing, then applies once with one audit entry", async () => {
    const preview = await post(asFinance, upload("file=h10.csv", CNY_EUR));
    expect(preview.status).toBe(200);
    const p = (await preview.json()) as {
      added: number;
      unchanged: number;
      series: unknown[];
      summary: string[];
    };
    expect(p).toMatchObject({ dryRun: true, conflicts: [] });
    expect(p.added).toBeGreaterThan(0);
    expect(p.series).toEqual([
      expect.objectContaining({ currency: "CNY" }),
      expect.objectContaining({ currency: "EUR" }),
    ]);
    expect(p.summary[0]).toBe(`would add ${p.added} rate(s), ${p.unchanged} already there`);
    expect(await userRates()).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "pricing.rates.import" } })).toBe(0);

    const apply = await post(asFinance, upload("mode=apply&file=h10.csv", CNY_EUR));
    expect(apply.status).toBe(200);
    expect(await apply.json()).toMatchObject({ dryRun: false, added: p.added });
    expect(await userRates()).toBe(p.added);
    expect(await db.exchangeRate.count()).toBe(shipped + p.added);
    const stored = await db.exchangeRate.findFirstOrThrow({ where: { origin: "user" } });
    expect(stored).toMatchObject({ updatedBy: "fin@test.local" });
    expect(stored.source).toMatch(/^Federal Reserve Board, H\.10\/G\.5 .*from h10\.csv$/);
    const audits = await db.auditEvent.findMany({ where: { action: "pricing.rates.import" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor: "fin@test.local", target: "h10:h10.csv" });
    expect(JSON.parse(audits[0]?.detail ?? "{}")).toMatchObject({ added: p.added, conflicts: 0 });

    const again = await post(asFinance, upload("mode=apply&file=h10.csv", CNY_EUR));
    expect(await again.json()).toMatchObject({ added: 0, unchanged: p.added + p.unchanged });
    expect(await userRates()).toBe(p.added);
  });

  it("reports a day stored at another figure as a conflict and leaves it", async () => {
    const changed = CNY_EUR.replace("2026-09-04,ND,1.1618", "2026-09-04,ND,1.1999");
    expect(changed).not.toBe(CNY_EUR);
    const res = await post(asFinance, upload("mode=apply&file=changed.csv", changed));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { added: number; conflicts: unknown[] };
    expect(body.added).toBe(0);
    expect(body.conflicts).toEqual([
      {
        currency: "EUR",
        effectiveFrom: "2026-09-04T00:00:00.000Z",
        existing: "1.1618",
        imported: "1.1999",
        origin: "user",
      },
    ]);
    const eur = await db.exchangeRate.findFirstOrThrow({
      where: { currency: "EUR", effectiveFrom: new Date("2026-09-04T00:00:00Z") },
    });
    expect(eur.usdPerUnit).toBe("1.1618");
  });
});
