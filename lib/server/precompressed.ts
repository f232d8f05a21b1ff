import type { IncomingMessage, ServerResponse } from "node:http";
import { gzip } from "node:zlib";

// Bodies compressed once and sent to many clients. A large answer that is the same for every
// caller (the fleet API: 2.6 MB of JSON at 10,000 GPUs, rebuilt once per collection interval)
// was gzipped again for every request, which was most of its time.
//
// Next removes Content-Encoding from a route handler's response and compresses everything
// itself, so a route cannot send bytes it compressed. scripts/serve.ts marks each request it
// passes to Next (SERVER_MARK; a client's own value is dropped) and, when a response carries
// ENCODING_HEADER, turns it into Content-Encoding as the headers go out. The route marks the
// response `no-transform`, which makes Next's compression leave it alone. Without the mark
// (`next dev`, or a server that does not do this) the route sends the plain body and Next
// compresses it as usual.

export const SERVER_MARK = "x-gpufleet-server";
const MARK_VALUE = "precompressed";
export const ENCODING_HEADER = "x-gpufleet-content-encoding";

/** A body with its gzip made once, on first use. */
export class SharedBody {
  private gz: Promise<Buffer> | undefined;
  constructor(readonly text: string) {}
  gzipped(): Promise<Buffer> {
    this.gz ??= new Promise((resolve, reject) => {
      gzip(this.text, (err, out) => (err ? reject(err) : resolve(out)));
    });
    return this.gz;
  }
}

/** Whether an Accept-Encoding header admits gzip (RFC 9110: `gzip`, `x-gzip` or `*`, q > 0). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let gzipQ: number | null = null;
  let starQ: number | null = null;
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    if (name === "gzip" || name === "x-gzip") gzipQ = Math.max(gzipQ ?? 0, q);
    else if (name === "*") starQ = q;
  }
  return (gzipQ ?? starQ ?? 0) > 0;
}

/** The response for `body`: its shared gzip when the server and client allow, else the text. */
export async function sharedBodyResponse(
  req: Request,
  body: SharedBody,
  headers: Record<string, string>,
): Promise<Response> {
  const vary = { ...headers, vary: "Accept-Encoding" };
  if (
    req.headers.get(SERVER_MARK) !== MARK_VALUE ||
    !acceptsGzip(req.headers.get("accept-encoding"))
  )
    return new Response(body.text, { headers: vary });
  const bytes = await body.gzipped();
  return new Response(new Uint8Array(bytes), {
    headers: {
      ...vary,
      "cache-control": [headers["cache-control"], "no-transform"].filter(Boolean).join(", "),
      [ENCODING_HEADER]: "gzip",
    },
  });
}

/** For the server in front of Next: marks the request, and restores the route's encoding. */
export function precompressedSupport(req: IncomingMessage, res: ServerResponse): void {
  req.headers[SERVER_MARK] = MARK_VALUE;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const encoding = this.getHeader(ENCODING_HEADER);
    if (typeof encoding === "string") {
      this.removeHeader(ENCODING_HEADER);
      this.removeHeader("content-length");
      this.setHeader("content-encoding", encoding);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];
}
