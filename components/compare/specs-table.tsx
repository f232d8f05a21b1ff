import type { CompareResult } from "@/lib/compare/schema.ts";
import { TableWrap } from "../table-wrap.tsx";

const num = (v: number | null) => (v === null ? "—" : new Intl.NumberFormat("en-US").format(v));

/** The spec table every $/TFLOPS and $/GB figure divides by, with its sources. */
export function SpecsTable({ specs }: { specs: CompareResult["specs"] }) {
  return (
    <section className="panel" aria-labelledby="specs-title" data-testid="gpu-specs">
      <div className="panel-head">
        <h2 id="specs-title">GPU specs</h2>
        <span className="muted small">
          dense tensor TFLOPS (without sparsity), per GPU, from NVIDIA&apos;s datasheets
        </span>
      </div>
      <TableWrap label="GPU specs table">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">GPU</th>
              <th className="num" scope="col">
                BF16 TFLOPS
              </th>
              <th className="num" scope="col">
                FP16 TFLOPS
              </th>
              <th className="num" scope="col">
                Memory GB
              </th>
              <th className="num" scope="col">
                Bandwidth GB/s
              </th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {specs.map((s) => (
              <tr key={s.key}>
                <td>{s.label}</td>
                <td className="num">{num(s.bf16Tflops)}</td>
                <td className="num">{num(s.fp16Tflops)}</td>
                <td className="num">{num(s.memoryGB)}</td>
                <td className="num">{num(s.memoryBandwidthGBs)}</td>
                <td className="wrap small">
                  <a href={s.source.slice(s.source.indexOf("http"))} rel="noreferrer">
                    {s.source.split(",")[0]}
                  </a>{" "}
                  ({s.sourceDate}){s.note ? <div className="muted">{s.note}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
