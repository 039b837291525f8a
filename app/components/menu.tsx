import { useEffect, useRef, type ReactNode } from "react";

/** A small dropdown built on <details>: keyboard and screen-reader friendly without a library. */
export function Menu({ label, trigger, children, align = "right" }: { label: string; trigger: ReactNode; children: ReactNode; align?: "left" | "right" }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (e: MouseEvent | KeyboardEvent) => {
      const el = ref.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <details ref={ref} className={`menu ${align}`}>
      <summary aria-label={label}>{trigger}</summary>
      <div className="menu-items" role="menu" onClick={() => ref.current && (ref.current.open = false)}>
        {children}
      </div>
    </details>
  );
}

export function MenuItem({ children, onSelect, href }: { children: ReactNode; onSelect?: () => void; href?: string }) {
  if (href) {
    return (
      <a role="menuitem" className="menu-item" href={href}>
        {children}
      </a>
    );
  }
  return (
    <button type="button" role="menuitem" className="menu-item" onClick={onSelect}>
      {children}
    </button>
  );
}
