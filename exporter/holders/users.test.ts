import { describe, expect, it } from "vitest";
import { calls, fakeCommand, fakeDir } from "../test/fake-host.ts";
import { UserNames, getentLookup, parsePasswdName, tableLookup } from "./users.ts";

describe("user names", () => {
  it("parses a passwd entry for the uid asked", () => {
    expect(parsePasswdName("alice:x:1001:1001:Alice:/home/alice:/bin/bash\n", 1001)).toBe("alice");
    expect(parsePasswdName("alice:x:1001:1001:Alice:/home/alice:/bin/bash\n", 1002)).toBeNull();
    expect(parsePasswdName("", 1)).toBeNull();
  });

  it("runs getent passwd <uid>: a name, null for exit 2, an error otherwise", async () => {
    const dir = fakeDir("getent-");
    const getent = fakeCommand(dir, "getent", { "1001": "alice:x:1001:1001::/h:/bin/sh" }, 1, 2);
    const lookup = getentLookup(5000, getent);
    expect(await lookup(1001)).toBe("alice");
    expect(await lookup(4242)).toBeNull();
    expect(calls(getent)).toEqual(["passwd 1001", "passwd 4242"]);
    const broken = fakeCommand(dir, "broken", {}, 1, 1);
    await expect(getentLookup(5000, broken)(1)).rejects.toThrow();
  });

  it("shows the numeric uid until resolved, the name after, unknown without a uid", async () => {
    const users = new UserNames({ lookup: tableLookup(new Map([[1001, "alice"]])) });
    expect(users.label(1001)).toBe("1001");
    expect(users.label(1000)).toBe("1000");
    await users.cache.settled();
    expect(users.label(1001)).toBe("alice");
    expect(users.label(1000)).toBe("1000"); // no such user in the database
    expect(users.label(undefined)).toBe("unknown");
  });
});
