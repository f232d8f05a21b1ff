import { describe, expect, it, vi } from "vitest";
import { ipKey, ipKind, parseIp } from "./ip.ts";
import { targetLookup, TargetRefusedError, type LookupAll } from "./target-lookup.ts";
import { checkWebhookTarget, type AppSelf, type Resolve } from "./webhook-target.ts";

// Literal addresses and stubbed DNS only: nothing here reaches the network.

const self: AppSelf = {
  port: 3000,
  publicUrl: { host: "gpufleet.example.com", port: 443 },
  addresses: ["127.0.0.1", "::1", "10.0.0.5", "fe80::1%eth0"],
};

const DNS: Record<string, string[]> = {
  "meta.test": ["169.254.169.254"],
  "mixed.test": ["203.0.113.7", "::ffff:169.254.169.254"],
  "self.test": ["10.0.0.5"],
  "public.test": ["203.0.113.7"],
};
const resolve: Resolve = async (host) => {
  const a = DNS[host];
  if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return a;
};

const check = (url: string, allowPrivate = false, r: Resolve = resolve) =>
  checkWebhookTarget(url, { allowPrivate, self, resolve: r });

const REFUSED: [string, RegExp][] = [
  ["http://169.254.169.254/latest/meta-data/", /^169\.254\.169\.254 is a cloud metadata address$/],
  ["http://169.254.169.254.:8080/", /cloud metadata/],
  ["http://[fd00:ec2::254]/", /^fd00:ec2::254 is a cloud metadata address$/],
  ["http://100.100.100.200/latest/", /cloud metadata/],
  ["http://168.63.129.16/machine?comp=goalstate", /^168\.63\.129\.16 is a cloud metadata address$/],
  ["http://[::ffff:168.63.129.16]:32526/", /cloud metadata/],
  ["http://169.254.10.1:8080/", /^169\.254\.10\.1 is a link-local address$/],
  ["http://[fe80::abcd]:9000/", /link-local/],
  ["http://0.0.0.0:8080/", /unspecified/],
  ["http://0/", /unspecified/],
  ["http://[::]:9000/", /unspecified/],
  ["http://[::ffff:169.254.169.254]/", /^::ffff:a9fe:a9fe \(IPv4 169\.254\.169\.254\) is a cloud/],
  ["http://[::ffff:0:a9fe:a9fe]/", /cloud metadata/],
  ["http://[64:ff9b::a9fe:a9fe]/", /cloud metadata/],
  // 6to4 (2002:aabb:ccdd::/48) and Teredo (2001:0::/32, the client's IPv4 inverted)
  ["http://[2002:a9fe:a9fe::]/", /^2002:a9fe:a9fe:: \(IPv4 169\.254\.169\.254\) is a cloud/],
  ["http://[2002:a9fe:a9fe:1:2:3:4:5]:8080/", /cloud metadata/],
  ["http://[2002:a9fe:0a01::1]/", /link-local/],
  ["http://[2002:7f00:1::]:3000/", /this app itself/],
  ["http://[2001:0:4136:e378:8000:63bf:5601:5601]/", /\(IPv4 169\.254\.169\.254\) is a cloud/],
  ["http://[2001::ffff:ffff]/", /unspecified/],
  ["http://[::ffff:0.0.0.0]/", /unspecified/],
  ["http://127.0.0.1:3000/api/alerts", /this app itself \(loopback on the app's port 3000\)/],
  ["http://127.8.9.10:3000/", /this app itself/],
  ["http://0x7f.1:3000/", /this app itself/],
  ["http://[::1]:3000/", /this app itself/],
  ["http://[::ffff:127.0.0.1]:3000/", /this app itself/],
  ["http://localhost:3000/", /^localhost resolves to 127\.0\.0\.1, which is this app itself/],
  ["http://LOCALHOST.:3000/", /this app itself/],
  ["http://app.localhost:3000/", /this app itself/],
  ["http://10.0.0.5:3000/", /this app itself \(this machine on the app's port 3000\)/],
  ["http://[::ffff:10.0.0.5]:3000/", /this app itself \(this machine/],
  ["https://gpufleet.example.com/hook", /^gpufleet\.example\.com:443 is this app's public URL$/],
  ["https://GPUFLEET.example.com.:443/x", /public URL/],
  ["http://meta.test/", /^meta\.test resolves to 169\.254\.169\.254, which is a cloud metadata/],
  ["http://mixed.test/", /mixed\.test resolves to ::ffff:169\.254\.169\.254 \(IPv4/],
  ["http://self.test:3000/", /self\.test resolves to 10\.0\.0\.5, which is this app itself/],
  ["ftp://example.com/x", /only http/],
];

const ALLOWED = [
  "http://127.0.0.1:9000/hook",
  "http://127.0.0.1:9/hook",
  "http://localhost:4000/",
  "http://[::1]:8080/",
  "http://10.0.0.5:8080/",
  "http://10.1.2.3:3000/",
  "http://192.168.1.20/hook",
  "http://[2002:cb00:7107::1]/hook", // 6to4 around 203.0.113.7
  "http://[2001:db8::1]/hook", // 2001:db8::/32 is not Teredo's 2001:0::/32
  "http://172.16.0.1:3000/",
  "http://[fd12:3456::1]/",
  "http://gpufleet.example.com/",
  "https://gpufleet.example.com:8443/",
  "http://self.test:9000/",
  "https://public.test/hook",
  "http://203.0.113.9/",
  "http://[2001:db8::1]:3000/",
];

describe("webhook target check", () => {
  it.each(REFUSED)("refuses %s", async (url, reason) => {
    const v = await check(url);
    expect(v.ok).toBe(false);
    expect(v.ok ? "" : v.reason).toMatch(reason);
  });

  it.each(ALLOWED)("allows %s", async (url) => {
    expect(await check(url)).toEqual({ ok: true });
  });

  it("lifts every refusal when private targets are allowed, without resolving", async () => {
    const spy = vi.fn(resolve);
    for (const [url] of REFUSED.filter(([u]) => !u.startsWith("ftp:")))
      expect(await check(url, true, spy), url).toEqual({ ok: true });
    expect(spy).not.toHaveBeenCalled();
    expect((await check("ftp://example.com/x", true)).ok).toBe(false);
  });

  it("resolves only names: literal addresses and localhost skip DNS", async () => {
    const spy = vi.fn(resolve);
    await check("http://169.254.169.254/", false, spy);
    await check("http://[::1]:3000/", false, spy);
    await check("http://localhost:3000/", false, spy);
    expect(spy).not.toHaveBeenCalled();
    await check("http://meta.test/", false, spy);
    expect(spy).toHaveBeenCalledWith("meta.test");
  });

  it("leaves a name that does not resolve (or too slowly) to the connection's own check", async () => {
    expect(await check("http://nowhere.test/")).toEqual({ ok: true });
    const hang: Resolve = () => new Promise(() => {});
    const started = Date.now();
    const v = await checkWebhookTarget("http://slow.test/", {
      allowPrivate: false,
      self,
      resolve: hang,
      timeoutMs: 20,
    });
    expect(v).toEqual({ ok: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("IP parsing", () => {
  it("gives every spelling of an address one key", () => {
    const key = (t: string) => {
      const ip = parseIp(t);
      return ip ? ipKey(ip) : null;
    };
    const meta = key("169.254.169.254");
    for (const t of ["::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "[::FFFF:A9FE:A9FE]"])
      expect(key(t), t).toBe(meta);
    expect(key("0:0:0:0:0:0:0:1")).toBe(key("::1"));
    expect(key("fe80::1%eth0")).toBe(key("fe80::1"));
    for (const bad of ["", "localhost", "1.2.3", "256.1.1.1", "::g", "1:2:3:4:5:6:7:8:9"])
      expect(parseIp(bad), bad).toBeNull();
  });

  it("classifies the ranges", () => {
    const kind = (t: string) => {
      const ip = parseIp(t);
      return ip ? ipKind(ip) : null;
    };
    expect(kind("169.254.169.254")).toBe("metadata");
    expect(kind("169.254.170.2")).toBe("link-local");
    expect(kind("fe80::1")).toBe("link-local");
    expect(kind("febf::1")).toBe("link-local");
    expect(kind("fec0::1")).toBe("other");
    expect(kind("127.255.255.254")).toBe("loopback");
    expect(kind("128.0.0.1")).toBe("other");
    expect(kind("0.1.2.3")).toBe("unspecified");
    expect(kind("::")).toBe("unspecified");
    expect(kind("::1")).toBe("loopback");
    expect(kind("10.0.0.1")).toBe("other");
    expect(kind("100.100.100.201")).toBe("other");
  });
});

describe("connection lookup", () => {
  const answers =
    (list: string[]): LookupAll =>
    async () =>
      list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  const run = (lookupAll: LookupAll, port: number, all: boolean) =>
    new Promise<{ err: Error | null; result: unknown }>((done) =>
      targetLookup(port, { allowPrivate: false, self, lookupAll })(
        "rebind.test",
        { all },
        (err, address, family) => done({ err, result: all ? address : [address, family] }),
      ),
    );

  it("refuses when any address the socket would use is refused (DNS rebinding)", async () => {
    const r = await run(answers(["203.0.113.7", "169.254.169.254"]), 80, true);
    expect(r.err).toBeInstanceOf(TargetRefusedError);
    expect(r.err?.message).toBe(
      "refused: rebind.test resolves to 169.254.169.254, which is a cloud metadata address",
    );
    expect((await run(answers(["10.0.0.5"]), 3000, false)).err).toBeInstanceOf(TargetRefusedError);
  });

  it("passes allowed answers through in both callback forms", async () => {
    const all = await run(answers(["203.0.113.7", "10.0.0.5"]), 3001, true);
    expect(all).toEqual({
      err: null,
      result: [
        { address: "203.0.113.7", family: 4 },
        { address: "10.0.0.5", family: 4 },
      ],
    });
    expect(await run(answers(["::1"]), 9000, false)).toEqual({ err: null, result: ["::1", 6] });
  });
});
