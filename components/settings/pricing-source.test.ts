import { describe, expect, it } from "vitest";
import { splitSourceText } from "./pricing-source.tsx";

describe("splitSourceText", () => {
  it("turns a URL into its host, keeping the text around it", () => {
    expect(
      splitSourceText(
        "AWS EC2 On-Demand pricing, https://aws.amazon.com/ec2/pricing/on-demand/ (us-east-1)",
      ),
    ).toEqual([
      { kind: "text", text: "AWS EC2 On-Demand pricing, " },
      {
        kind: "url",
        href: "https://aws.amazon.com/ec2/pricing/on-demand/",
        host: "aws.amazon.com",
      },
      { kind: "text", text: " (us-east-1)" },
    ]);
  });
  it("leaves closing punctuation out of the URL and handles a URL at the end", () => {
    expect(splitSourceText("see https://cloud.google.com/spot-vms/pricing.")).toEqual([
      { kind: "text", text: "see " },
      {
        kind: "url",
        href: "https://cloud.google.com/spot-vms/pricing",
        host: "cloud.google.com",
      },
      { kind: "text", text: "." },
    ]);
    expect(splitSourceText("a https://x.example:8443/p?q=1, b").map((p) => p.kind)).toEqual([
      "text",
      "url",
      "text",
    ]);
    expect(splitSourceText("a https://x.example:8443/p?q=1, b")[1]).toMatchObject({
      host: "x.example:8443",
    });
  });
  it("keeps text without URLs, and text that only looks like one, as text", () => {
    expect(splitSourceText("vendor quote 2026-03")).toEqual([
      { kind: "text", text: "vendor quote 2026-03" },
    ]);
    expect(splitSourceText("")).toEqual([]);
    expect(splitSourceText("ftp://example.com is not linked")).toEqual([
      { kind: "text", text: "ftp://example.com is not linked" },
    ]);
  });
});
