"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { z } from "zod";
import { ApiRequestError, type FieldIssue } from "@/lib/queries/settings-send.ts";

// What the settings page's file uploads share (the price list, the exchange rates): the file sent
// raw as the body, its answer checked against the route's schema, and the flow around it — choose
// a file, preview (the route writes nothing), then apply the same file; a new choice starts over.

export type UploadMode = "preview" | "apply";

/** POSTs `file` as the body; a refusal throws ApiRequestError with the API's message and issues. */
export async function postFile<T>(
  url: string,
  file: File,
  contentType: string,
  schema: z.ZodType<T>,
): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": contentType, accept: "application/json" },
    body: file,
    signal: AbortSignal.timeout(120_000),
  });
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const d = (data ?? {}) as { error?: unknown; issues?: unknown };
    const issues = Array.isArray(d.issues) ? (d.issues as FieldIssue[]) : [];
    throw new ApiRequestError(
      res.status,
      typeof d.error === "string" ? d.error : `HTTP ${res.status}`,
      issues,
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new Error("unexpected response from the import");
  return parsed.data;
}

export interface UploadFlow<T> {
  file: File | null;
  /** a new file (or none): what was previewed or applied is forgotten */
  choose: (file: File | null) => void;
  /** forget the preview and the result (a changed option makes them stale) */
  reset: () => void;
  preview: T | null;
  applied: T | null;
  runPreview: () => void;
  runApply: () => void;
  previewing: boolean;
  applying: boolean;
  busy: boolean;
  /** the preview's or the apply's refusal, and which of them failed */
  error: Error | null;
  applyFailed: boolean;
}

/** The preview-then-apply state of an upload panel; `onApplied` runs after a successful apply. */
export function useUploadFlow<T>(
  send: (file: File, mode: UploadMode) => Promise<T>,
  onApplied: (result: T) => void,
): UploadFlow<T> {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<T | null>(null);
  const [applied, setApplied] = useState<T | null>(null);
  const previewMut = useMutation({
    mutationFn: (f: File) => send(f, "preview"),
    onSuccess: (r) => {
      setPreview(r);
      setApplied(null);
    },
  });
  const applyMut = useMutation({
    mutationFn: (f: File) => send(f, "apply"),
    onSuccess: (r) => {
      setApplied(r);
      setPreview(null);
      onApplied(r);
    },
  });
  const reset = () => {
    setPreview(null);
    setApplied(null);
    previewMut.reset();
    applyMut.reset();
  };
  return {
    file,
    choose: (f) => {
      setFile(f);
      reset();
    },
    reset,
    preview,
    applied,
    runPreview: () => {
      if (file) previewMut.mutate(file);
    },
    runApply: () => {
      if (file) applyMut.mutate(file);
    },
    previewing: previewMut.isPending,
    applying: applyMut.isPending,
    busy: previewMut.isPending || applyMut.isPending,
    error: previewMut.error ?? applyMut.error,
    applyFailed: applyMut.error !== null,
  };
}

/**
 * The refusal banner: "Not read" (the preview) or "Not imported" (the apply), and why; with
 * `listIssues`, a refusal naming its problems (a file's bad lines) lists them one a line.
 */
export function UploadError({
  error,
  applyFailed,
  testId,
  listIssues = false,
}: {
  error: Error | null;
  applyFailed: boolean;
  testId: string;
  listIssues?: boolean;
}) {
  if (!error) return null;
  const issues = listIssues && error instanceof ApiRequestError ? error.issues : [];
  return (
    <div className="banner error" role="alert" data-testid={testId}>
      <strong>{applyFailed ? "Not imported" : "Not read"}</strong>{" "}
      {issues.length > 0 ? (
        <>
          {issues.length === 1 ? "1 problem" : `${issues.length} problems`}, nothing written:
          <ul>
            {issues.map((i) => (
              <li key={`${i.path}|${i.message}`}>
                {i.path ? `${i.path}: ` : ""}
                {i.message}
              </li>
            ))}
          </ul>
        </>
      ) : (
        error.message
      )}
    </div>
  );
}

/** What an import added: "Imported N <noun> added, M already there, K conflicts left …". */
export function UploadApplied({
  applied,
  noun,
  testId,
  after,
}: {
  applied: { added: number; unchanged: number; conflicts: readonly unknown[] } | null;
  noun: string;
  testId: string;
  /** a sentence after the counts */
  after?: string;
}) {
  if (!applied) return null;
  return (
    <p className="banner ok" role="status" data-testid={testId}>
      <strong>Imported</strong> {applied.added} {noun} added, {applied.unchanged} already there
      {applied.conflicts.length > 0
        ? `, ${applied.conflicts.length} conflicts left as they were`
        : ""}
      .{after ? ` ${after}` : ""}
    </p>
  );
}

/** The apply button under a preview that would add something: "Add N <noun>". */
export function UploadApply({
  flow,
  count,
  noun,
  testId,
}: {
  flow: { applying: boolean; busy: boolean; runApply: () => void };
  count: number;
  noun: string;
  testId: string;
}) {
  return (
    <div className="form-actions">
      <button
        type="button"
        className="primary"
        disabled={flow.busy}
        onClick={flow.runApply}
        data-testid={testId}
      >
        {flow.applying ? "Importing…" : `Add ${count} ${noun}`}
      </button>
    </div>
  );
}
