import { expect, test } from "@playwright/test";

// Runs against the demo (issue 25, maximum run time per Slurm job): on the settings page an admin
// adds a maximum-run-time policy counting each Slurm job; the form refuses a cloud executor for it
// with the reason on the executor field, takes the signed webhook, and the dry run then lists the
// simulator's Slurm jobs one by one ("job <id> (dave|erin) on <host>", would cancel job, $).

test("a job run-time policy: a cloud executor is refused, the dry run lists each job", async ({
  page,
  request,
}) => {
  const name = `E2E jobs ${Date.now()}`;
  try {
    await page.goto("/settings");
    await page.getByTestId("policy-new").click();
    const form = page.getByTestId("policy-form");
    await form.getByTestId("policy-name").fill(name);
    await form.getByTestId("policy-kind").selectOption("max_runtime");
    await form.getByTestId("policy-target").selectOption("job");
    await expect(form.getByTestId("policy-action")).toHaveValue("cancel_job");
    await form.getByTestId("policy-idleHours").fill("1");
    await form.getByTestId("policy-executor").selectOption("aws");
    await form.getByTestId("policy-save").click();
    await expect(form.getByTestId("field-error")).toContainText(
      "a cloud's instance API (aws) cannot end a Slurm job",
    );
    await form.getByTestId("policy-executor").selectOption("webhook");
    await form.getByTestId("policy-webhookUrl").fill("https://hooks.example.com/scancel");
    await form.getByTestId("policy-save").click();
    await expect(form).toHaveCount(0);
    const row = page.locator(`[data-testid="policy-row"][data-name="${name}"]`);
    await expect(row).toHaveAttribute("data-mode", "dry_run");
    await expect(row).toContainText("each job running 1 h → cancel job");
    // the next policy pass lists the Slurm jobs, each on its own row with its $
    const planned = page.getByTestId("policy-action-row").filter({ hasText: name });
    await expect(planned.first()).toContainText(/job \d+ \((dave|erin)\) on gpu-/, {
      timeout: 60_000,
    });
    await expect(planned.first()).toContainText("would cancel job");
    await expect(planned.first().getByTestId("policy-action-saving")).toContainText("$");
  } finally {
    const list = (await (await request.get("/api/policies")).json()) as {
      policies: { id: string; name: string }[];
    };
    for (const p of list.policies.filter((x) => x.name === name))
      await request.delete(`/api/policies/${p.id}`);
  }
});
