import { describe, expect, it } from "vitest";
import { fakeDir, writeFakeProc } from "../test/fake-host.ts";
import {
  fsProcReader,
  mapProcReader,
  parseStatStartTime,
  parseStatusUid,
  readFacts,
  readStartTime,
} from "./procfs.ts";

describe("procfs", () => {
  it("reads the real uid from the status file", () => {
    const status = "Name:\tprogram\nUmask:\t0002\nPid:\t178776\nUid:\t1000\t0\t0\t0\nGid:\t1000\n";
    expect(parseStatusUid(status)).toBe(1000);
    expect(parseStatusUid("Name:\tx\n")).toBeUndefined();
  });

  it("reads the start time after the last parenthesis, whatever the command holds", () => {
    const tail = "S 1 9 9 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 3018773 8491008 480";
    expect(parseStatStartTime(`9 (sleep) ${tail}`)).toBe("3018773");
    expect(parseStatStartTime(`9 (a) (b c) ${tail}`)).toBe("3018773");
    expect(parseStatStartTime("9 (x) S 1")).toBeUndefined();
    expect(parseStatStartTime("garbage")).toBeUndefined();
  });

  it("reads a process from a directory, and gives undefined for a missing one", async () => {
    const root = fakeDir("procfs-");
    writeFakeProc(root, {
      pid: 77,
      uid: 1001,
      cgroup: "0::/user.slice/user-1001.slice/session-3.scope\n",
      start: 99,
    });
    const reader = fsProcReader(root);
    expect(await readStartTime(reader, 77)).toBe("99");
    expect(await readFacts(reader, 77, "99")).toEqual({
      startTime: "99",
      uid: 1001,
      cgroup: { systemdUnit: "session-3.scope" },
    });
    expect(await readStartTime(reader, 78)).toBeUndefined();
  });

  it("keeps the owner when the cgroup file cannot be read", async () => {
    const reader = mapProcReader(new Map([["5/status", "Uid:\t7\t7\t7\t7\n"]]));
    expect(await readFacts(reader, 5, "1")).toEqual({ startTime: "1", uid: 7, cgroup: {} });
  });
});
