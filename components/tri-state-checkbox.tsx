"use client";

/** A checkbox that can also show "some selected" (indeterminate); a click on it then selects all. */
export function TriStateCheckbox({
  checked,
  mixed = false,
  onChange,
  label,
  testId,
}: {
  checked: boolean;
  mixed?: boolean;
  onChange: (on: boolean) => void;
  label: string;
  testId: string;
}) {
  return (
    <input
      type="checkbox"
      className="row-check"
      checked={checked}
      ref={(el) => {
        if (el) el.indeterminate = mixed;
      }}
      onChange={(e) => onChange(mixed ? true : e.target.checked)}
      aria-label={label}
      data-testid={testId}
    />
  );
}
