import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fairly } from "./fair-start.ts";

const req = (destroyed = false) => ({ destroyed }) as IncomingMessage;
function res() {
  const r = {
    headersSent: false,
    statusCode: 200,
    body: "",
    destroyed: false,
    setHeader() {},
    end(b: string) {
      r.body = b;
    },
    destroy() {
      r.destroyed = true;
    },
  };
  return r;
}
const asRes = (r: ReturnType<typeof res>) => r as unknown as ServerResponse;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("fairly", () => {
  it("starts one request per event-loop turn, in order", async () => {
    const started: number[] = [];
    const start = fairly(
      (r) => {
        started.push((r as unknown as { n: number }).n);
      },
      () => {},
    );
    for (let n = 1; n <= 3; n++) start(Object.assign(req(), { n }), asRes(res()));
    expect(start.waiting).toBe(3);
    expect(started).toEqual([]); // nothing runs in the turn that received them
    await turn();
    expect(started).toEqual([1]);
    await turn();
    expect(started).toEqual([1, 2]);
    await turn();
    expect(started).toEqual([1, 2, 3]);
    expect(start.waiting).toBe(0);
  });

  it("skips a request whose client left while it waited", async () => {
    const seen: boolean[] = [];
    const start = fairly(
      (r) => {
        seen.push(r.destroyed);
      },
      () => {},
    );
    start(req(true), asRes(res()));
    start(req(false), asRes(res()));
    await turn();
    await turn();
    expect(seen).toEqual([false]);
  });

  it("answers 500 when the handler throws or rejects, and goes on with the next", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const start = fairly(
      () => {
        calls++;
        if (calls === 1) throw new Error("sync");
        if (calls === 2) return Promise.reject(new Error("async"));
        return undefined;
      },
      (e) => errors.push(e),
    );
    const [a, b, c] = [res(), res(), res()];
    start(req(), asRes(a));
    start(req(), asRes(b));
    start(req(), asRes(c));
    for (let i = 0; i < 4; i++) await turn();
    expect(calls).toBe(3);
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([500, 500, 200]);
    expect(errors.map((e) => (e as Error).message)).toEqual(["sync", "async"]);
  });

  describe("behind a real server", () => {
    let server: Server | undefined;
    afterEach(() => server?.close());

    it("answers every one of many concurrent clients", async () => {
      server = createServer(
        fairly(
          (_req, r) => {
            setTimeout(() => r.end("ok"), 2);
          },
          () => {},
        ),
      );
      await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())),
      );
      expect(answers).toEqual(Array.from({ length: 100 }, () => "ok"));
    });
  });
});
