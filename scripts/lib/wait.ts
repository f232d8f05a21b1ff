import { connect, createServer } from "node:net";

/** Polls a URL until it answers 2xx, or throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await res.body?.cancel();
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last})`);
}

/** A port nothing listens on at 127.0.0.1 now (the OS's choice), for a child to listen on. */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const addr = srv.address();
  await new Promise((r) => srv.close(r));
  if (typeof addr !== "object" || !addr) throw new Error("no free port on 127.0.0.1");
  return addr.port;
}

/** Polls until a TCP connection to 127.0.0.1:`port` succeeds, or throws after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ host: "127.0.0.1", port });
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", (e) => {
        last = e.message;
        resolve(false);
      });
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms (${last})`);
}
