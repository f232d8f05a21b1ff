import { describe, expect, it } from "vitest";
import { parseWrk } from "./wrk.ts";

// wrk 4.1.0 (Debian) with --latency, as it printed here against a 404-answering server
const OUT = `Running 1s test @ http://127.0.0.1:19446/
  1 threads and 2 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   236.38us  649.14us   7.18ms   92.37%
    Req/Sec    29.69k     6.84k   42.37k    81.82%
  Latency Distribution
     50%   57.00us
     75%   75.00us
     90%  519.00us
     99%    3.40ms
  32452 requests in 1.10s, 4.02MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 32452
Requests/sec:  29510.99
Transfer/sec:      3.66MB
`;

describe("parseWrk", () => {
  it("reads requests/s, p50/p99 in ms, errors and non-2xx", () => {
    expect(parseWrk(OUT)).toEqual({
      reqPerSec: 29510.99,
      p50Ms: 0.057,
      p99Ms: 3.4,
      requests: 32452,
      errors: 3,
      non2xx: 32452,
    });
  });

  it("reads seconds, and refuses output it does not know", () => {
    expect(parseWrk(OUT.replace("3.40ms", "1.20s")).p99Ms).toBe(1200);
    expect(() => parseWrk("unable to connect to 127.0.0.1:1 Connection refused")).toThrow(
      /unexpected wrk output/,
    );
    expect(() => parseWrk(OUT.replace(/^\s+99%.*$/m, ""))).toThrow(/cannot read p99/);
  });
});
