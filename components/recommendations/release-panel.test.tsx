import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ReleaseChoice, ReleaseSummary } from "./release-panel.tsx";

// The recommendations page's "Release it…": the policies that can release the host (or why there
// is none, with the way to settings), and what the accept scheduled.

const noop = () => {};
/** The markup without React's text-node separators. */
const render = (el: React.ReactElement) => renderToString(el).replaceAll("<!-- -->", "");
const policy = (id: string, name: string, action = "stop") => ({
  id,
  name,
  action,
  graceMinutes: 60,
  executor: "aws",
});

describe("ReleaseChoice", () => {
  it("lists the covering policies and names the action on the button", () => {
    const html = render(
      <ReleaseChoice
        policies={[policy("p1", "Idle 24h"), policy("p2", "Idle, terminate", "terminate")]}
        chosen="p2"
        pending={false}
        onChoose={noop}
        onConfirm={noop}
      />,
    );
    expect(html).toContain('<option value="p1">Idle 24h (stop, 60 min grace, aws)</option>');
    expect(html).toMatch(/<option value="p2" selected="">Idle, terminate \(terminate/);
    expect(html).toContain("Accept and terminate after warning");
  });

  it("explains that no active policy covers the host and links to settings", () => {
    const html = render(
      <ReleaseChoice policies={[]} chosen="" pending={false} onChoose={noop} onConfirm={noop} />,
    );
    expect(html).toContain("No active idle-release policy covers this host");
    expect(html).toContain('href="/settings#policies-title"');
    expect(html).not.toContain("<select");
  });
});

describe("ReleaseSummary", () => {
  it("says who was warned and when the host stops unless kept", () => {
    const html = render(
      <ReleaseSummary
        release={{
          episodeId: "e1",
          policyId: "p1",
          policyName: "Idle 24h",
          hostname: "gpu-a",
          action: "stop",
          state: "open",
          actAt: "2026-11-20T03:30:00.000Z",
          keepUntil: null,
          recipients: [
            { role: "owner", name: "ana" },
            { role: "holder", name: "bob · python" },
          ],
          resize: null,
          created: true,
        }}
      />,
    );
    expect(html).toContain("Release scheduled by policy “Idle 24h”");
    expect(html).toContain("warned ana (owner), bob · python (holder)");
    expect(html).toContain("2026-11-20T03:30:00.000Z");
    expect(html).toContain("unless kept");
  });
});

describe("Right-size…", () => {
  const tencent = { ...policy("p9", "Idle (Tencent)"), executor: "tencent" };
  it("offers the policies that can resize, names the target type and those that cannot", () => {
    const html = render(
      <ReleaseChoice
        policies={[policy("p1", "Idle 24h")]}
        chosen="p1"
        pending={false}
        onChoose={noop}
        onConfirm={noop}
        resize={{ to: "g5.2xlarge", cannot: [tencent] }}
      />,
    );
    expect(html).toContain("Resize through policy");
    expect(html).toContain("Accept and resize to g5.2xlarge after warning");
    expect(html).toContain(
      "Policy “Idle (Tencent)” acts through the tencent executor, which cannot resize a host.",
    );
  });

  it("with only policies that cannot resize, offers none and says why", () => {
    const html = render(
      <ReleaseChoice
        policies={[]}
        chosen=""
        pending={false}
        onChoose={noop}
        onConfirm={noop}
        resize={{ to: "g5.2xlarge", cannot: [tencent] }}
      />,
    );
    expect(html).toContain("No active idle-release policy whose executor can resize covers");
    expect(html).toContain("tencent executor, which cannot resize a host");
    expect(html).not.toContain("<select");
    expect(html).not.toContain("<button");
  });

  it("says when the host is resized and to what", () => {
    const html = render(
      <ReleaseSummary
        release={{
          episodeId: "e2",
          policyId: "p1",
          policyName: "Idle 24h",
          hostname: "gpu-a",
          action: "resize",
          state: "open",
          actAt: "2026-11-20T03:30:00.000Z",
          keepUntil: null,
          recipients: [{ role: "owner", name: "ana" }],
          resize: { from: "g5.12xlarge", to: "g5.2xlarge", monthlySavingMicros: "1825000000" },
          created: true,
        }}
      />,
    );
    expect(html).toContain("Resize scheduled by policy “Idle 24h”: warned ana (owner)");
    expect(html).toContain("resized to g5.2xlarge at");
  });
});
