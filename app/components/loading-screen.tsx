import { Spinner } from "./spinner";

/** The startup gate's full-screen, centred indicator. */
export function LoadingScreen() {
  return (
    <div className="fullscreen-center" data-testid="startup-gate">
      <Spinner size={24} />
      <p>Loading...</p>
    </div>
  );
}
