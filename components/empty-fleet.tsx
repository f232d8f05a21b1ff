/** No hosts yet: say exactly how to get the first one reporting. */
export function EmptyFleet() {
  return (
    <section className="panel empty" data-testid="empty-fleet" aria-labelledby="empty-title">
      <h2 id="empty-title">No GPU hosts yet</h2>
      <p>
        gpufleet shows hosts that run its exporter. On each GPU machine, start the exporter with the
        labels that tie it to a price and a team (it listens on port 9445):
      </p>
      <pre>{`npm run exporter -- --host.provider=aws --host.instance-type=p4d.24xlarge \\
  --host.region=us-east-1 --host.pricing-model=on_demand \\
  --host.label=team=research --host.label=project=llm`}</pre>
      <p>
        Then tell the dashboard where to scrape it: list the exporters in a Prometheus file_sd JSON
        file and start the dashboard with <code>GPUFLEET_TARGETS_FILE</code> pointing at it:
      </p>
      <pre>{`# /etc/gpufleet/targets.json
[{ "targets": ["gpu-host-1:9445", "gpu-host-2:9445"] }]

GPUFLEET_TARGETS_FILE=/etc/gpufleet/targets.json npm start`}</pre>
      <p className="muted">
        Already running Prometheus? Set <code>PROMETHEUS_URL</code> instead; hosts appear once it
        scrapes their exporters. New hosts show up here within one scrape interval (15 s by
        default).
      </p>
    </section>
  );
}
