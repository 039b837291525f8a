import { useEffect, useState } from "react";

/**
 * A QR code drawn in the browser (uqr, no service asked, no image fetched), as an SVG of its dark
 * modules. The encoder is loaded on first use, so no page that shows none (/login, /map) carries it.
 * While it loads, or if it cannot (offline before it was ever loaded), the text stays readable
 * under the code's place, for typing in by hand.
 */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const matrix = useQrMatrix(text);
  return (
    <figure className="qr-code">
      {matrix === "failed" ? (
        <p className="muted qr-code-missing">QR code unavailable: enter the settings below by hand.</p>
      ) : (
        <svg
          role="img"
          aria-label={label}
          width={size}
          height={size}
          viewBox={`0 0 ${matrix?.length ?? 1} ${matrix?.length ?? 1}`}
          shapeRendering="crispEdges"
          data-qr-text={text}
        >
          <rect width="100%" height="100%" fill="#fff" />
          {matrix ? <path d={pathOf(matrix)} fill="#000" /> : null}
        </svg>
      )}
      <figcaption>{label}</figcaption>
    </figure>
  );
}

function useQrMatrix(text: string) {
  const [matrix, setMatrix] = useState<boolean[][] | null | "failed">(null);
  useEffect(() => {
    let live = true;
    setMatrix(null);
    import("uqr")
      // Error correction L: a screen is never torn or smudged, and the lowest level gives the largest
      // modules for a long setup link (OwnTracks' configuration); the standard 4-module quiet zone.
      .then(({ encode }) => live && setMatrix(encode(text, { ecc: "L", border: 4 }).data))
      .catch(() => live && setMatrix("failed"));
    return () => {
      live = false;
    };
  }, [text]);
  return matrix;
}

/** One path of unit squares, one per dark module: a few KB for a setup link. */
function pathOf(matrix: boolean[][]) {
  let d = "";
  matrix.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return d;
}
