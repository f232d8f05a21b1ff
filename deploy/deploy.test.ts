import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { EXPORTER_NODE_FLAGS } from "../bench/exporter/node-flags.ts";

// The deployment files cannot be built here; at least they parse and point at files that exist.

const DEPLOY = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(DEPLOY, "..");

describe("deploy/", () => {
  it("has YAML that parses", () => {
    const files = readdirSync(DEPLOY, { recursive: true, encoding: "utf8" }).filter((f) =>
      /\.ya?ml$/.test(f),
    );
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files)
      for (const doc of parseAllDocuments(readFileSync(join(DEPLOY, f), "utf8")))
        expect(doc.errors, f).toEqual([]);
  });

  it("compose mounts and builds files that exist", () => {
    const compose = parse(readFileSync(join(DEPLOY, "docker-compose.yml"), "utf8")) as {
      services: Record<string, { volumes?: string[]; build?: { dockerfile: string } }>;
      "x-app": { build: { dockerfile: string } };
    };
    const dockerfiles = [
      compose["x-app"].build.dockerfile,
      ...Object.values(compose.services).flatMap((s) => (s.build ? [s.build.dockerfile] : [])),
    ];
    for (const d of dockerfiles) expect(existsSync(join(ROOT, d)), d).toBe(true);
    for (const s of Object.values(compose.services))
      for (const v of s.volumes ?? [])
        if (v.startsWith("./"))
          expect(existsSync(join(DEPLOY, v.split(":")[0] ?? "")), v).toBe(true);
  });

  it("runs the compiled exporter, under the V8 flags the benchmark measured", () => {
    const flags = EXPORTER_NODE_FLAGS.map((f) => `"${f}"`).join(", ");
    expect(readFileSync(join(DEPLOY, "Dockerfile.exporter"), "utf8")).toContain(
      `ENTRYPOINT ["node", ${flags}, "exporter/main.js"]`,
    );
    expect(existsSync(join(ROOT, "exporter/main.ts"))).toBe(true);
    expect(readFileSync(join(DEPLOY, "gpu-exporter.service"), "utf8")).toMatch(
      new RegExp(
        `^ExecStart=/usr/bin/node ${EXPORTER_NODE_FLAGS.join(" ")} /opt/gpufleet/dist/exporter/main\\.js$`,
        "m",
      ),
    );
    // the DaemonSet runs the image's entry point: arguments only, no command of its own
    const ds = parse(readFileSync(join(DEPLOY, "k8s/exporter-daemonset.yaml"), "utf8")) as {
      spec: { template: { spec: { containers: { command?: string[]; args: string[] }[] } } };
    };
    for (const c of ds.spec.template.spec.containers) expect(c.command).toBeUndefined();
  });
});
