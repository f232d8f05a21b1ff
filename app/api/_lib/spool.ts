import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { PayloadTooLargeError } from "./errors.ts";

// A large upload (a cloud bill) written to a temporary file as it arrives, never held in memory,
// and refused with a 413 the moment it passes `limit` bytes (with or without a declared length).

export interface Spooled {
  path: string;
  bytes: number;
  /** removes the file and its folder */
  remove: () => Promise<void>;
}

export async function spoolBody(req: Request, limit: number): Promise<Spooled> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new PayloadTooLargeError(limit);
  const dir = await mkdtemp(join(tmpdir(), "gpufleet-upload-"));
  const path = join(dir, "body");
  const remove = () => rm(dir, { recursive: true, force: true });
  const out = createWriteStream(path);
  let bytes = 0;
  try {
    if (req.body) {
      const reader = req.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > limit) {
          await reader.cancel().catch(() => undefined);
          throw new PayloadTooLargeError(limit);
        }
        if (!out.write(value)) await once(out, "drain");
      }
    }
    out.end();
    await once(out, "close");
    return { path, bytes, remove };
  } catch (e) {
    out.destroy();
    await remove();
    throw e;
  }
}
