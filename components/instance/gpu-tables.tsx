import { formatBytes, formatBytesOf, formatInteger, formatRatio } from "@/lib/format/number.ts";
import type { InstanceDetail } from "@/lib/zod/schemas/instance.ts";
import { cellFill, STATUS_LABELS } from "../fleet/util-scale.ts";
import { TableWrap } from "../table-wrap.tsx";

export function GpuTable({ gpus }: { gpus: InstanceDetail["gpus"] }) {
  if (gpus.length === 0) return <p className="muted">This host has reported no GPUs.</p>;
  return (
    <TableWrap label="GPUs now table">
      <table className="data" data-testid="gpu-table">
        <thead>
          <tr>
            <th scope="col">GPU</th>
            <th scope="col">Model</th>
            <th scope="col">Status</th>
            <th className="num" scope="col">
              SM util.
            </th>
            <th className="num" scope="col">
              Memory
            </th>
            <th className="num" scope="col">
              Power
            </th>
            <th className="num" scope="col">
              Temp.
            </th>
            <th className="num" scope="col">
              Processes
            </th>
            <th scope="col">Held by</th>
          </tr>
        </thead>
        <tbody>
          {gpus.map((g) => (
            <tr key={g.uuid} data-testid="gpu-row" data-status={g.status}>
              <td title={g.uuid}>{g.index}</td>
              <td>{g.name}</td>
              <td>
                <span
                  className={`cell swatch ${g.status}`}
                  style={{ background: cellFill(g.status, g.util) }}
                  aria-hidden="true"
                />
                {STATUS_LABELS[g.status]}
              </td>
              <td className="num">{formatRatio(g.util)}</td>
              <td className="num">{formatBytesOf(g.memUsedBytes, g.memTotalBytes)}</td>
              <td className="num">
                {g.powerWatts === null ? "—" : `${Math.round(g.powerWatts)} W`}
              </td>
              <td className="num">
                {g.tempCelsius === null ? "—" : `${Math.round(g.tempCelsius)} °C`}
              </td>
              <td className="num">{formatInteger(g.processes)}</td>
              <td data-testid="gpu-holders" className="holder-list">
                {g.holders.length === 0 ? (
                  <span className="muted">—</span>
                ) : (
                  g.holders.map((h, i) => <span key={`${i}-${h}`}>{h}</span>)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function MigTable({ mig }: { mig: InstanceDetail["mig"] }) {
  if (mig.length === 0) return <p className="muted">No MIG instances on this host.</p>;
  return (
    <TableWrap label="MIG instances table">
      <table className="data" data-testid="mig-table">
        <thead>
          <tr>
            <th scope="col">GPU</th>
            <th scope="col">Profile</th>
            <th scope="col">Instance</th>
            <th className="num" scope="col">
              Memory
            </th>
            <th scope="col">Reporting</th>
          </tr>
        </thead>
        <tbody>
          {mig.map((m) => (
            <tr key={m.uuid}>
              <td>{m.parentIndex ?? "?"}</td>
              <td>{m.profile ?? "—"}</td>
              <td className="mono">{m.uuid}</td>
              <td className="num">{formatBytesOf(m.memUsedBytes, m.memTotalBytes)}</td>
              <td>{m.reporting ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function ProcessTable({ processes }: { processes: InstanceDetail["processes"] }) {
  if (processes.length === 0) {
    return <p className="muted">No compute processes on this host&apos;s GPUs right now.</p>;
  }
  return (
    <TableWrap label="Processes table">
      <table className="data" data-testid="process-table">
        <thead>
          <tr>
            <th scope="col">GPU</th>
            <th className="num" scope="col">
              PID
            </th>
            <th scope="col">Process</th>
            <th scope="col">Holder</th>
            <th className="num" scope="col">
              GPU memory
            </th>
          </tr>
        </thead>
        <tbody>
          {processes.map((p) => (
            <tr key={`${p.gpuUuid}-${p.pid}`}>
              <td>{p.gpuIndex ?? "?"}</td>
              <td className="num">{p.pid}</td>
              <td className="mono">{p.processName}</td>
              <td data-testid="process-holder">
                {p.holder ?? <span className="muted">unknown</span>}
              </td>
              <td className="num">{formatBytes(p.usedMemoryBytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
