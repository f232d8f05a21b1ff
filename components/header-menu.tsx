"use client";

import { usePathname } from "next/navigation";
import { useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";

const MENU_ID = "header-menu";

/**
 * The header's navigation, time-zone note and user menu. On wide screens they sit in the header
 * row and the button is hidden (CSS); below 720 px they fold behind a "Menu" button. Opening is
 * remembered for the page it happened on, so following a link closes the menu.
 */
export function HeaderMenu({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const button = useRef<HTMLButtonElement>(null);

  const close = (focusButton: boolean) => {
    setOpenOn(null);
    if (focusButton) button.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape" && open) {
      e.preventDefault();
      close(true);
    }
  };
  // a link followed to the page already shown keeps the pathname: close on the click itself
  const onClick = (e: MouseEvent) => {
    if (e.target instanceof Element && e.target.closest("a")) close(false);
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="nav-toggle"
        aria-expanded={open}
        aria-controls={MENU_ID}
        onClick={() => setOpenOn(open ? null : pathname)}
        onKeyDown={onKeyDown}
        data-testid="nav-toggle"
      >
        <span className="nav-toggle-icon" aria-hidden="true" />
        Menu
      </button>
      {/* the keys and clicks handled here come from the links and buttons inside */}
      <div
        id={MENU_ID}
        className="header-menu"
        data-open={open ? "true" : "false"}
        onKeyDown={onKeyDown}
        onClick={onClick}
      >
        {children}
      </div>
    </>
  );
}
