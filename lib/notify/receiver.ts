import { createServer, type IncomingMessage, type Server } from "node:http";

// A webhook receiver on 127.0.0.1 for tests: answers with the status `respond` picks per request
// and keeps what it accepted (2xx), so tests can count deliveries exactly.

export interface Received {
  status: number;
  idempotencyKey: string | null;
  body: unknown;
  path: string;
}

export interface Receiver {
  url: string;
  requests: Received[];
  accepted(): Received[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

export async function startReceiver(
  respond: (n: number) => number | Promise<number> = () => 200,
): Promise<Receiver> {
  const requests: Received[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const status = await respond(requests.length);
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const key = req.headers["idempotency-key"];
      requests.push({
        status,
        idempotencyKey: typeof key === "string" ? key : null,
        body,
        path: req.url ?? "",
      });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "nope");
    })();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  if (typeof addr !== "object" || !addr) throw new Error("receiver has no port");
  return {
    url: `http://127.0.0.1:${addr.port}/hook`,
    requests,
    accepted: () => requests.filter((r) => r.status >= 200 && r.status < 300),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
