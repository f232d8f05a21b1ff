import { describe, expect, it } from "vitest";
import { UnsupportedMediaTypeError } from "./errors.ts";
import { mediaType, requireMediaType } from "./media-type.ts";

const req = (type?: string) =>
  new Request("http://127.0.0.1/x", {
    method: "POST",
    body: "a",
    headers: type === undefined ? {} : { "content-type": type },
  });

describe("media types", () => {
  it("reads the type without parameters, lowercased", () => {
    expect(mediaType(req("Text/CSV; charset=utf-8"))).toBe("text/csv");
    expect(mediaType(new Request("http://127.0.0.1/x"))).toBe("");
  });

  it("refuses another type with how to send it and what came", () => {
    expect(requireMediaType(req("text/plain"), ["text/csv", "text/plain"], "send CSV")).toBe(
      "text/plain",
    );
    expect(() => requireMediaType(req("application/json"), ["text/csv"], "send CSV")).toThrow(
      new UnsupportedMediaTypeError("send CSV, not application/json"),
    );
    const bare = new Request("http://127.0.0.1/x", { method: "POST", body: new Uint8Array([1]) });
    expect(() => requireMediaType(bare, ["text/csv"], "send CSV")).toThrow(
      "send CSV, not a body without a content type",
    );
  });
});
