"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * A table's scroll box: a table wider than its card (a phone, a narrow window) scrolls inside the
 * card, not the page. While it scrolls it is a labelled region in the tab order, so a keyboard
 * can scroll it too; when everything fits it adds no tab stop.
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className="table-wrap"
      {...(scrolls ? { tabIndex: 0, role: "region", "aria-label": label } : {})}
    >
      {children}
    </div>
  );
}
