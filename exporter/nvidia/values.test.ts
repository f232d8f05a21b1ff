import { describe, expect, it } from "vitest";
import {
  isAbsent,
  parseBool,
  parseHex,
  parseInteger,
  parseNumber,
  parsePstate,
  parseText,
} from "./values.ts";

describe("absent tokens", () => {
  it.each([
    "[N/A]",
    "N/A",
    "[Not Supported]",
    "[Unknown Error]",
    "[Insufficient Permissions]",
    "[GPU requires reset]",
    "[Requested functionality has been deprecated]",
    "[Function Not Found]",
    "  [N/A] ",
    "",
  ])("%j is absent, never a number", (token) => {
    expect(isAbsent(token)).toBe(true);
    expect(parseNumber(token, "MiB")).toEqual({ ok: false, absent: true });
    expect(parseInteger(token)).toEqual({ ok: false, absent: true });
    expect(parseBool(token)).toEqual({ ok: false, absent: true });
    expect(parsePstate(token)).toEqual({ ok: false, absent: true });
    expect(parseHex(token)).toEqual({ ok: false, absent: true });
    expect(parseText(token)).toBeUndefined();
  });
});

describe("parseNumber", () => {
  it("converts to base units from the field's unit (nounits) or the printed one", () => {
    expect(parseNumber("8192", "MiB")).toEqual({ ok: true, value: 8192 * 1024 ** 2 });
    expect(parseNumber("8192 MiB", "MiB")).toEqual({ ok: true, value: 8192 * 1024 ** 2 });
    expect(parseNumber("1980 MHz", "MHz")).toEqual({ ok: true, value: 1.98e9 });
    expect(parseNumber("38 %", "%")).toEqual({ ok: true, value: 0.38 });
    expect(parseNumber("95", "%")).toEqual({ ok: true, value: 0.95 });
    expect(parseNumber("98.14 W", "W")).toEqual({ ok: true, value: 98.14 });
    expect(parseNumber("0 us")).toEqual({ ok: true, value: 0 });
  });
  it("rejects garbage and unknown units without inventing a value", () => {
    expect(parseNumber("lots", "%")).toEqual({ ok: false, absent: false });
    expect(parseNumber("12 parsecs", "MiB")).toEqual({ ok: false, absent: false });
    expect(parseNumber("1e999")).toEqual({ ok: false, absent: false });
  });
});

describe("other value kinds", () => {
  it("reads Enabled/Disabled, Active/Not Active, Yes/No", () => {
    expect(parseBool("Enabled")).toEqual({ ok: true, value: true });
    expect(parseBool("Disabled")).toEqual({ ok: true, value: false });
    expect(parseBool("Active")).toEqual({ ok: true, value: true });
    expect(parseBool("Not Active")).toEqual({ ok: true, value: false });
    expect(parseBool("Yes")).toEqual({ ok: true, value: true });
    expect(parseBool("maybe")).toEqual({ ok: false, absent: false });
  });
  it("reads P0..P15 and refuses anything else", () => {
    for (let p = 0; p <= 15; p++) expect(parsePstate(`P${p}`)).toEqual({ ok: true, value: p });
    expect(parsePstate("P16").ok).toBe(false);
    expect(parsePstate("P").ok).toBe(false);
  });
  it("reads 64-bit hex masks", () => {
    expect(parseHex("0x00000000000001FF")).toEqual({ ok: true, value: 0x1ffn });
    expect(parseHex("0xFFFFFFFFFFFFFFFF")).toEqual({ ok: true, value: 0xffffffffffffffffn });
    expect(parseHex("0xZZ").ok).toBe(false);
  });
  it("reads integers strictly", () => {
    expect(parseInteger("42")).toEqual({ ok: true, value: 42 });
    expect(parseInteger("4.2").ok).toBe(false);
  });
});
