import type { MetricsSource } from "../metrics/source.ts";

type WindowReads = "gpuWindow" | "gpuShareAbove" | "hourSamples" | "ledgerStart" | "workHours";

/**
 * The alert and ledger reads of a fake MetricsSource for page tests that never call them: each
 * rejects, so a test that starts to depend on one fails loudly instead of reading nothing.
 */
export const UNUSED_WINDOW_READS: Pick<MetricsSource, WindowReads> = {
  gpuWindow: () => Promise.reject(new Error("gpuWindow not used by this test")),
  gpuShareAbove: () => Promise.reject(new Error("gpuShareAbove not used by this test")),
  hourSamples: () => Promise.reject(new Error("hourSamples not used by this test")),
  ledgerStart: () => Promise.reject(new Error("ledgerStart not used by this test")),
  workHours: () => Promise.reject(new Error("workHours not used by this test")),
};
