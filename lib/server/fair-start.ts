import type { IncomingMessage, ServerResponse } from "node:http";

// Starts requests one per event-loop turn.
//
// Node ≥ 20 (libuv ≥ 1.45) accepts at most one new connection per turn of the event loop
// (libuv/libuv#3696, nodejs/node#57364). Under load, a turn runs every request that became
// readable: with 200 busy clients that is ~0.4 s of work, so a burst of new clients was accepted
// at two or three a second and the last ones waited more than 30 s for a connection. Each
// request handed to `fairly` starts in its own turn (setImmediate callbacks queued while
// immediates run wait for the next turn), so a turn is one request's start plus whatever I/O is
// ready, and a waiting connection is accepted about as often as a request starts. Requests keep
// their order; throughput is unchanged.

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface FairStart {
  (req: IncomingMessage, res: ServerResponse): void;
  /** requests received and not yet started */
  readonly waiting: number;
}

export function fairly(handler: Handler, onError: (e: unknown) => void): FairStart {
  // at most one entry per open connection (a client waits for its answer), so shift() is cheap
  const queue: Array<[IncomingMessage, ServerResponse]> = [];
  let scheduled = false;

  function startNext() {
    scheduled = false;
    const next = queue.shift();
    if (next === undefined) return;
    if (queue.length > 0) schedule();
    const [req, res] = next;
    if (req.destroyed) return; // the client went away while it waited
    try {
      const r = handler(req, res);
      if (r instanceof Promise) r.catch((e: unknown) => fail(res, e));
    } catch (e) {
      fail(res, e);
    }
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(startNext);
  }

  function fail(res: ServerResponse, e: unknown) {
    onError(e);
    if (res.headersSent) res.destroy();
    else {
      res.statusCode = 500;
      res.setHeader("content-type", "text/plain; charset=utf-8");
      res.end("internal server error\n");
    }
  }

  const start = ((req: IncomingMessage, res: ServerResponse) => {
    queue.push([req, res]);
    schedule();
  }) as FairStart;
  Object.defineProperty(start, "waiting", { get: () => queue.length });
  return start;
}
