// prom-client's Registry, Gauge and Counter, loaded without prom-client's index: the index also
// loads the cluster aggregator, the default process metrics, the Pushgateway client and the
// histogram and summary code, which the exporter never uses and which cost about 11 MiB of
// resident memory (bench/README.md). The classes and their types are prom-client's own.

import { createRequire } from "node:module";
import type * as Prom from "prom-client";

const require = createRequire(import.meta.url);

export const Registry = require("prom-client/lib/registry") as typeof Prom.Registry;
/** either content type: the exposition switches it to render OpenMetrics */
export type Registry = Prom.Registry<Prom.RegistryContentType>;
export const Gauge = require("prom-client/lib/gauge") as typeof Prom.Gauge;
export type Gauge<T extends string = string> = Prom.Gauge<T>;
export const Counter = require("prom-client/lib/counter") as typeof Prom.Counter;
export type Counter<T extends string = string> = Prom.Counter<T>;
