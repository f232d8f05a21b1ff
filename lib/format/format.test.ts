import { describe, expect, it } from "vitest";
import { decimalToMicros, formatMoney, formatRate, microsToDecimal } from "./money.ts";
import { formatBytes, formatBytesOf, formatHours, formatRatio } from "./number.ts";
import { formatAge, formatDateTime, zoneLabel } from "./time.ts";

describe("money", () => {
  it("turns micros into exact decimals", () => {
    expect(microsToDecimal(1234567n)).toBe("1.234567");
    expect(microsToDecimal("5")).toBe("0.000005");
    expect(microsToDecimal(-2500000n)).toBe("-2.500000");
    expect(microsToDecimal(0n)).toBe("0.000000");
    expect(microsToDecimal(123456789012345678n)).toBe("123456789012.345678");
  });
  it("round-trips decimals", () => {
    expect(decimalToMicros("1.234567")).toBe(1234567n);
    expect(decimalToMicros("12")).toBe(12000000n);
    expect(decimalToMicros("-0.5")).toBe(-500000n);
    expect(() => decimalToMicros("1.2345678")).toThrow();
    expect(decimalToMicros("1.2345670")).toBe(1234567n);
    expect(() => decimalToMicros("abc")).toThrow();
  });
  it("formats as currency", () => {
    expect(formatMoney(1234567890n)).toBe("$1,234.57");
    expect(formatMoney("0")).toBe("$0.00");
    expect(formatRate(32772000n)).toBe("$32.77/h");
    expect(formatMoney(1_500_000n, "EUR")).toBe("€1.50");
  });
});

describe("numbers", () => {
  it("formats ratios, bytes and hours", () => {
    expect(formatRatio(0.423)).toBe("42%");
    expect(formatRatio(null)).toBe("—");
    expect(formatRatio(0.4237, 1)).toBe("42.4%");
    expect(formatBytes(80 * 1024 ** 3)).toBe("80.0 GiB");
    expect(formatBytes(20 * 1024 ** 4)).toBe("20.0 TiB");
    expect(formatBytesOf(40 * 1024 ** 3, 80 * 1024 ** 3)).toBe("40.0 / 80.0 GiB");
    expect(formatBytesOf(5 * 1024 ** 4, 20 * 1024 ** 4)).toBe("5.0 / 20.0 TiB");
    expect(formatBytesOf(null, 80 * 1024 ** 3)).toBe("80.0 GiB");
    expect(formatHours(5400)).toBe("1.5 h");
  });
});

describe("time", () => {
  it("formats in the given zone and names it", () => {
    const t = Date.UTC(2026, 10, 29, 15, 58, 3);
    expect(formatDateTime(t, "Europe/Berlin")).toContain("16:58:03");
    expect(formatDateTime(t, "UTC")).toContain("15:58:03");
    expect(zoneLabel("UTC")).toBe("UTC");
    expect(zoneLabel("Europe/Berlin", new Date(t))).toMatch(/^Europe\/Berlin \(/);
  });
  it("describes ages", () => {
    expect(formatAge(1000, 31_000)).toBe("30 s ago");
    expect(formatAge(0, 5 * 60_000)).toBe("5 min ago");
    expect(formatAge(0, 5 * 3600_000)).toBe("5 h ago");
  });
});
