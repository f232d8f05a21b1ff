import {
  inefficientText,
  isVgpuGuest,
  reclaimNote,
  type HostFactsView,
} from "@/lib/fleet/host-facts.ts";
import { TableWrap } from "../table-wrap.tsx";

// The instance page's cloud facts, spot reclaim notice, virtualization and efficiency (issue 16).

const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)} %`);

export function HostFacts({ facts }: { facts: HostFactsView }) {
  const reclaim = reclaimNote(facts);
  const profiled = facts.gpus.some((g) => g.smActive !== null);
  const virtual = facts.gpus.some((g) => g.virtualizationMode !== null);
  return (
    <section className="panel" aria-labelledby="facts-title" data-testid="host-facts">
      <div className="panel-head">
        <h2 id="facts-title">Host and efficiency</h2>
      </div>
      <p>
        cloud instance id{" "}
        <span className="mono" data-testid="instance-id">
          {facts.instanceId ?? "unknown"}
        </span>{" "}
        · zone <span data-testid="instance-zone">{facts.zone ?? "unknown"}</span>
      </p>
      {reclaim ? (
        <p className="unpriced" role="status" data-testid="reclaim-notice">
          {reclaim}
        </p>
      ) : null}
      {facts.inefficient.length > 0 ? (
        <ul data-testid="inefficient-findings">
          {facts.inefficient.map((f) => (
            <li key={f.gpuUuid} title={`${f.from} – ${f.to}`}>
              {inefficientText(f)}
            </li>
          ))}
        </ul>
      ) : null}
      {profiled || virtual ? (
        <TableWrap label="GPU efficiency and virtualization table">
          <table>
            <thead>
              <tr>
                <th scope="col">GPU</th>
                <th scope="col">Utilization</th>
                {profiled ? <th scope="col">SM active</th> : null}
                {virtual ? <th scope="col">Virtualization</th> : null}
                {virtual ? <th scope="col">vGPU licence</th> : null}
              </tr>
            </thead>
            <tbody>
              {facts.gpus.map((g) => (
                <tr key={g.uuid} data-testid="gpu-facts-row">
                  <td>{g.index}</td>
                  <td>{pct(g.util)}</td>
                  {profiled ? <td data-testid="gpu-sm-active">{pct(g.smActive)}</td> : null}
                  {virtual ? <td>{g.virtualizationMode ?? "—"}</td> : null}
                  {virtual ? (
                    <td>
                      {isVgpuGuest(g.virtualizationMode)
                        ? g.vgpuLicensed === null
                          ? "not reported"
                          : g.vgpuLicensed
                            ? "licensed"
                            : "unlicensed (throttled)"
                        : "—"}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
    </section>
  );
}
