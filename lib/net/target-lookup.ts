import "server-only";
import { lookup as dnsLookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { appSelf, checkAddress, type AppSelf } from "./webhook-target.ts";

// Checking a name and then letting the HTTP client resolve it again leaves a gap: DNS can answer
// differently the second time (rebinding). This lookup, given to http.request, checks the very
// addresses the socket will connect to. Node skips `lookup` for IP literals: check those first.

export class TargetRefusedError extends Error {
  readonly code = "ETARGETREFUSED";
  constructor(reason: string) {
    super(`refused: ${reason}`);
    this.name = "TargetRefusedError";
  }
}

type Answer = { address: string; family: number }[];
export type LookupAll = (hostname: string, family: number | undefined) => Promise<Answer>;

const systemLookupAll: LookupAll = (hostname, family) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, family: family ?? 0 }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

export function targetLookup(
  port: number,
  opts: { allowPrivate: boolean; self?: AppSelf; lookupAll?: LookupAll },
): LookupFunction {
  const self = opts.allowPrivate ? undefined : (opts.self ?? appSelf());
  return (hostname, options, callback) => {
    const family = typeof options.family === "number" ? options.family : undefined;
    (opts.lookupAll ?? systemLookupAll)(hostname, family).then(
      (addresses) => {
        for (const a of addresses) {
          const v = checkAddress(a.address, port, {
            allowPrivate: opts.allowPrivate,
            self,
            host: hostname,
          });
          if (!v.ok) return callback(new TargetRefusedError(v.reason), "", 0);
        }
        const first = addresses[0];
        if (!first) {
          const err: NodeJS.ErrnoException = new Error(`no address for ${hostname}`);
          err.code = "ENOTFOUND";
          return callback(err, "", 0);
        }
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}
