// The rendered exposition of one host, made once per collection tick and served as it is: a
// scrape copies a buffer and renders nothing. A variant (text or OpenMetrics, plain or gzip) is
// made the first time a scraper asks for it and then once per tick, so a format nobody asks for
// costs nothing. Each body is byte for byte what prom-client renders for the host's registry.

import { promisify } from "node:util";
import { gzip as gzipCb } from "node:zlib";
import type { Logger } from "./log.ts";
import { Registry } from "./prom.ts";
import { renderRegistry } from "./render.ts";

const gzip = promisify(gzipCb);

export type Format = "text" | "openmetrics";

export const CONTENT_TYPE: Readonly<Record<Format, string>> = {
  text: Registry.PROMETHEUS_CONTENT_TYPE,
  openmetrics: Registry.OPENMETRICS_CONTENT_TYPE,
};

/** Bodies up to this size go out as they are: gzip would not pay for its own header. */
export const GZIP_MIN_BYTES = 1024;

export interface Exposition {
  format: Format;
  body: Buffer;
  gzipped: boolean;
}

type Key = `${Format}:${"gzip" | "identity"}`;

/** Everything rendered from one state of the registry. */
class Generation {
  readonly bodies = new Map<Format, Promise<Buffer>>();
  readonly variants = new Map<Key, Promise<Exposition>>();
}

export class ExpositionCache {
  /** registry.metrics() calls so far; tests check that a scrape adds none */
  renders = 0;
  private served = new Generation();
  private pending: Generation | undefined;
  private readonly wanted = new Set<Key>();
  private chain: Promise<unknown> = Promise.resolve();
  /** each format's last body size: the next rendering's buffer is sized from it */
  private readonly lastSize: Record<Format, number> = { text: 0, openmetrics: 0 };

  constructor(
    private readonly registry: Registry,
    private readonly log: Logger,
  ) {}

  /**
   * Applies `change` to the registry, makes every variant asked for so far from it, then serves
   * them. Until they are ready the previous ones are served. Never rejects.
   */
  async publish(change: () => void | Promise<void>): Promise<void> {
    const gen = new Generation();
    this.pending = gen;
    await this.serial(async () => change()).catch((err: unknown) =>
      this.log.limited(`publish:${String(err)}`, "error", "metric refresh failed", { err }),
    );
    for (const key of this.wanted) this.variant(gen, key);
    await Promise.allSettled(gen.variants.values());
    // a body only gzipped from (OpenMetrics for Prometheus) is not kept for the whole tick; a
    // variant asked for later renders it again
    gen.bodies.clear();
    if (this.pending === gen) {
      this.served = gen;
      this.pending = undefined;
    }
  }

  /** The body to send; rendered here only the first time this variant is asked for. */
  get(format: Format, acceptGzip: boolean): Promise<Exposition> {
    const key: Key = `${format}:${acceptGzip ? "gzip" : "identity"}`;
    this.wanted.add(key);
    const ready = this.served.variants.get(key);
    if (ready) return ready;
    // the registry already holds the pending generation's state, if one is being made
    const gen = this.pending ?? this.served;
    return this.variant(gen, key);
  }

  private variant(gen: Generation, key: Key): Promise<Exposition> {
    const made = gen.variants.get(key);
    if (made) return made;
    const [format, encoding] = key.split(":") as [Format, string];
    let body = gen.bodies.get(format);
    if (!body) {
      body = this.render(format);
      gen.bodies.set(format, body);
    }
    const previous = this.served === gen ? undefined : this.served.variants.get(key);
    const out = body
      .then(async (plain): Promise<Exposition> => {
        if (encoding !== "gzip" || plain.length <= GZIP_MIN_BYTES) {
          return { format, body: plain, gzipped: false };
        }
        return { format, body: await gzip(plain), gzipped: true };
      })
      .catch((err: unknown) => {
        this.log.limited(`render:${String(err)}`, "error", "rendering the metrics failed", {
          err,
          format,
        });
        if (previous) return previous; // serve the last good body rather than none
        throw err;
      });
    gen.variants.set(key, out);
    return out;
  }

  /** One prom-client rendering (render.ts); serialised: OpenMetrics is a registry-wide setting. */
  private render(format: Format): Promise<Buffer> {
    return this.serial(async () => {
      this.renders++;
      const body = await renderRegistry(this.registry, format, this.lastSize[format]);
      this.lastSize[format] = body.length;
      return body;
    });
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.chain.then(job, job);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
