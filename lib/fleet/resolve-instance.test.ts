import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { instanceHref } from "./instance-href.ts";
import { resolveInstance } from "./resolve-instance.ts";

let db: Db;
let id = "";
beforeAll(async () => {
  db = makeTestDb().db;
  id = (await db.host.create({ data: { hostname: "gpu-aws-usw2-003" } })).id;
  await db.host.create({ data: { hostname: "lab box/7 #2", team: "vision" } });
});
afterAll(async () => db.$disconnect());

describe("instance addresses by host name", () => {
  it("encodes the host name", () => {
    expect(instanceHref("gpu-aws-usw2-003")).toBe("/instances/gpu-aws-usw2-003");
    expect(instanceHref("lab box/7 #2")).toBe("/instances/lab%20box%2F7%20%232");
  });

  it("shows the host named by the address", async () => {
    expect(await resolveInstance("gpu-aws-usw2-003", null, db)).toEqual({
      kind: "page",
      id,
      hostname: "gpu-aws-usw2-003",
    });
    expect((await resolveInstance("lab box/7 #2", null, db)).kind).toBe("page");
  });

  it("redirects an old id address to the host name", async () => {
    expect(await resolveInstance(id, null, db)).toEqual({
      kind: "redirect",
      to: "/instances/gpu-aws-usw2-003",
    });
  });

  it("finds nothing for an unknown name or id, or an empty one", async () => {
    expect(await resolveInstance("no-such-host", null, db)).toEqual({ kind: "missing" });
    expect(await resolveInstance("", null, db)).toEqual({ kind: "missing" });
  });

  it("keeps hosts outside the team scope missing, by name and by id", async () => {
    expect(await resolveInstance("lab box/7 #2", ["research"], db)).toEqual({ kind: "missing" });
    expect(await resolveInstance(id, ["vision"], db)).toEqual({ kind: "missing" });
    expect((await resolveInstance(id, ["unassigned"], db)).kind).toBe("redirect");
  });
});
