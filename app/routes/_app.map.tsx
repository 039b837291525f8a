// The map itself lives in the app layout (routes/_app.tsx) so it stays mounted across pages.
export default function MapRoute() {
  return null;
}
