import { useEffect, useRef, useState, type PointerEvent } from "react";

/**
 * A signature drawn on the screen with a finger, a pen or a mouse (pointer events: one code path
 * for all three), kept as a PNG blob the proof form uploads as a photo (app/photos), so it waits
 * on the device like any photo when there is no network. `onChange(null)` when cleared.
 */
export function SignaturePad({
  onChange,
  label = "Signature",
}: {
  onChange: (png: Blob | null) => void;
  label?: string;
}) {
  const { canvas, signed, handlers, clear } = useSignatureDrawing(onChange);
  return (
    <div className="field signature-field">
      <span className="field-label" id="signature-label">
        {label}
      </span>
      <canvas
        ref={canvas}
        className="signature-pad"
        role="img"
        aria-labelledby="signature-label"
        aria-description={signed ? "Signed" : "Not signed yet: draw here"}
        data-signed={signed || undefined}
        {...handlers}
      />
      <button type="button" className="button" onClick={clear} disabled={!signed}>
        Clear signature
      </button>
    </div>
  );
}

/** Strokes follow the pointer; each lifted stroke hands the whole drawing on as a PNG. */
function useSignatureDrawing(onChange: (png: Blob | null) => void) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const drew = useRef(false);
  const [signed, setSigned] = useState(false);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    // Drawn at the screen's pixel density, so the stored signature is sharp on a phone.
    const scale = window.devicePixelRatio || 1;
    c.width = c.clientWidth * scale;
    c.height = c.clientHeight * scale;
    c.getContext("2d")?.scale(scale, scale);
  }, []);

  const pointAt = (e: PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const handlers = {
    onPointerDown: (e: PointerEvent<HTMLCanvasElement>) => {
      e.currentTarget.setPointerCapture(e.pointerId);
      last.current = pointAt(e);
    },
    onPointerMove: (e: PointerEvent<HTMLCanvasElement>) => {
      const ctx = e.currentTarget.getContext("2d");
      if (!last.current || !ctx) return;
      const to = pointAt(e);
      stroke(ctx, last.current, to);
      last.current = to;
      drew.current = true;
      setSigned(true);
    },
    onPointerUp: () => {
      last.current = null;
      if (drew.current) canvas.current?.toBlob((blob) => onChange(blob), "image/png");
    },
  };
  const clear = () => {
    const c = canvas.current;
    c?.getContext("2d")?.clearRect(0, 0, c.width, c.height);
    drew.current = false;
    setSigned(false);
    onChange(null);
  };
  return { canvas, signed, handlers: { ...handlers, onPointerCancel: handlers.onPointerUp }, clear };
}

function stroke(ctx: CanvasRenderingContext2D, from: { x: number; y: number }, to: { x: number; y: number }) {
  ctx.lineWidth = 2.5;
  ctx.lineCap = "round";
  ctx.strokeStyle = "#111827";
  ctx.beginPath();
  ctx.moveTo(from.x, from.y);
  ctx.lineTo(to.x, to.y);
  ctx.stroke();
}
