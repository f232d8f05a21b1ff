// prom-client's rendering of a registry, one metric family at a time: the same bytes as
// `registry.metrics()` (exposition.test.ts compares them), but the event loop runs between the
// families, and the body is built as a Buffer from each family's text rather than as one string.
// `metrics()` renders every family in one run of microtasks (tens of ms at 64 GPUs on a loaded
// machine, during which no scrape is answered) and joins them into a string of the body's size,
// which V8 keeps in large-object space until its next full collection (bench/README.md).

import { Registry } from "./prom.ts";

export type RenderFormat = "text" | "openmetrics";

type Metric = ReturnType<Registry["getMetricsAsArray"]>[number];

/** The one method of prom-client's Registry that renders a single family (not in its types). */
interface FamilyRenderer {
  getMetricsAsString(metric: Metric): Promise<string>;
}

/** Families rendered between two turns of the event loop. */
const FAMILIES_PER_TURN = 4;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Renders `registry` as prom-client's `metrics()` would in `format`, yielding to the event loop
 * every few families. The caller serialises renderings: OpenMetrics is a registry-wide setting
 * while it runs, and counters' names are put back afterwards (prom-client drops their `_total`
 * when it renders OpenMetrics), so the next text rendering is unchanged.
 */
export async function renderRegistry(
  registry: Registry,
  format: RenderFormat,
  sizeHint = 0,
): Promise<Buffer> {
  const om = format === "openmetrics";
  const metrics = registry.getMetricsAsArray();
  const names = metrics.map((m) => [m, m.name] as const);
  const renderer = registry as unknown as FamilyRenderer;
  const out = new Writer(sizeHint);
  if (om) registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  try {
    for (const [i, metric] of metrics.entries()) {
      if (i > 0 && i % FAMILIES_PER_TURN === 0) await nextTurn();
      // the type is the string "counter" at run time (prom-client's types say an enum)
      if (om && String(metric.type) === "counter") metric.name = metric.name.replace(/_total$/, "");
      if (i > 0) out.write(om ? "\n" : "\n\n");
      // written at once: a family's text dies young instead of being held across the turns
      out.write(await renderer.getMetricsAsString(metric));
    }
  } finally {
    if (om) registry.setContentType(Registry.PROMETHEUS_CONTENT_TYPE);
    for (const [m, name] of names) m.name = name;
  }
  out.write(om ? "\n# EOF\n" : "\n");
  return out.done();
}

/** UTF-8 into one buffer, sized from the last rendering, grown when a rendering is larger. */
class Writer {
  private buf: Buffer;
  private at = 0;

  constructor(sizeHint: number) {
    // a little room: values change length from one tick to the next
    this.buf = Buffer.allocUnsafeSlow(Math.max(4096, Math.ceil(sizeHint * 1.05)));
  }

  write(text: string): void {
    const need = this.at + Buffer.byteLength(text);
    if (need > this.buf.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.ceil(need * 1.5));
      this.buf.copy(bigger, 0, 0, this.at);
      this.buf = bigger;
    }
    this.at += this.buf.write(text, this.at);
  }

  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}
