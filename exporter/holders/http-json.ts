// One JSON GET with a deadline and a size cap, over TCP (http/https) or a unix socket (Docker).

import { request as httpRequest, type RequestOptions } from "node:http";

export interface JsonGet {
  /** http(s) URL, or a path when socketPath is given */
  url: string;
  socketPath?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** https: extra CA (PEM) and whether to skip verification */
  ca?: string;
  insecure?: boolean;
  maxBytes?: number;
}

/** https:, loaded on the first https request: TLS and OpenSSL cost resident memory otherwise */
function isHttps(opts: JsonGet): boolean {
  if (opts.socketPath !== undefined) return false;
  try {
    return new URL(opts.url).protocol === "https:";
  } catch {
    return false; // the request below rejects with the URL's own error
  }
}

export async function getJson(opts: JsonGet): Promise<unknown> {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const request = isHttps(opts) ? (await import("node:https")).request : httpRequest;
  return new Promise((resolve, reject) => {
    let options: RequestOptions;
    let https = false;
    if (opts.socketPath !== undefined) {
      options = { socketPath: opts.socketPath, path: opts.url, host: "localhost" };
    } else {
      const u = new URL(opts.url);
      https = u.protocol === "https:";
      options = {
        hostname: u.hostname.replace(/^\[|\]$/g, ""),
        port: u.port || undefined,
        path: u.pathname + u.search,
        ...(https ? { ca: opts.ca, rejectUnauthorized: !opts.insecure } : {}),
      };
    }
    options.method = "GET";
    options.headers = { accept: "application/json", ...opts.headers };
    options.timeout = opts.timeoutMs;
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) req.destroy(new Error(`answer over ${maxBytes} bytes`));
        else chunks.push(c);
      });
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          reject(new Error(`HTTP ${status} from ${opts.url}`));
          return;
        }
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        } catch {
          reject(new Error(`invalid JSON from ${opts.url}`));
        }
      });
      res.on("error", reject);
    });
    const deadline = setTimeout(
      () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on("error", reject);
    req.on("close", () => clearTimeout(deadline));
    req.end();
  });
}
