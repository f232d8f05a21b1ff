// What a cloud metadata client gives back, and the shape every provider module implements.

import type { PricingModel } from "../config.ts";
import type { Provider } from "./options.ts";

/** What the metadata service said; a field it did not say stays undefined (flags keep it). */
export interface HostFacts {
  provider: Provider;
  instanceType?: string;
  region?: string;
  zone?: string;
  instanceId?: string;
  pricingModel?: PricingModel;
}

export interface Notice {
  pending: boolean;
  /** unix seconds of the announced action, where the provider gives one */
  timeSeconds?: number;
}

export interface ClientOptions {
  /** base URL without a trailing slash, e.g. http://169.254.169.254 */
  base: string;
  timeoutMs: number;
  /** cancels every request in flight (shutdown) */
  signal?: AbortSignal;
  /** for token expiry; tests inject a clock */
  now?: () => number;
}

export interface ProviderClient {
  readonly provider: Provider;
  /** Throws an Error saying what was wrong: unreachable, refused, malformed. */
  detect(): Promise<HostFacts>;
  /** The provider's spot interruption / preemption notice. Throws like detect(). */
  notice(): Promise<Notice>;
}
