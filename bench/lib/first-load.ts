// First-load JS of an App Router page from the build output: the root main files every page
// loads plus the entry chunks of every client module of the page's tree (its layouts, the page,
// and the error, not-found and forbidden boundaries around it, which hydrate with it), each
// gzipped as a server would send it. Not counted: the `nomodule` polyfill chunk (modern browsers
// skip it) and chunks loaded later (next/dynamic, React.lazy). Checked against Chromium on the
// fleet page (2026-12-02): it fetched exactly these files before the load event.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";

export interface FirstLoad {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  /** of gzipBytes, the root main files every page loads (Next's runtime and React) */
  rootGzipBytes: number;
}

/** `page` as Next names it: "/page" for app/page.tsx, "/costs/page" for app/costs/page.tsx. */
export function firstLoadJs(page = "/page", distDir = ".next"): FirstLoad {
  const server = join(distDir, "server", "app", page);
  const buildManifest = JSON.parse(readFileSync(join(server, "build-manifest.json"), "utf8")) as {
    rootMainFiles: string[];
  };
  const sandbox: { globalThis?: unknown; __RSC_MANIFEST?: Record<string, unknown> } = {};
  sandbox.globalThis = sandbox;
  const manifestFile = `${server}_client-reference-manifest.js`;
  if (!existsSync(manifestFile)) throw new Error(`no ${manifestFile}: build the app first`);
  runInNewContext(readFileSync(manifestFile, "utf8"), sandbox);
  const rsc = sandbox.__RSC_MANIFEST?.[page] as { entryJSFiles?: Record<string, string[]> };
  const entry = `[project]/app${page}`;
  if (!rsc.entryJSFiles?.[entry]) throw new Error(`no entry JS for ${entry} in ${manifestFile}`);
  // every entry of the page's manifest: the page, its layouts and its boundaries (app/error's own
  // chunk was missed when only the page's entry was read)
  const treeFiles = Object.values(rsc.entryJSFiles).flat();
  const files = [...new Set([...buildManifest.rootMainFiles, ...treeFiles])];
  let rawBytes = 0;
  let gzipBytes = 0;
  let rootGzipBytes = 0;
  const root = new Set(buildManifest.rootMainFiles);
  for (const f of files) {
    const buf = readFileSync(join(distDir, f));
    rawBytes += buf.length;
    const gz = gzipSync(buf).length;
    gzipBytes += gz;
    if (root.has(f)) rootGzipBytes += gz;
  }
  return { files, rawBytes, gzipBytes, rootGzipBytes };
}
