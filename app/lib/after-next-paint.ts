/**
 * Runs `task` in a task of its own once the browser has drawn the next frame, for work a page's
 * first frame does not need (registering the service worker, looking for queued photos): an
 * effect of the first render otherwise runs before that frame, in the same task (ADR 0099). A
 * hidden document draws no frames, so there it runs after the current task. Returns the cancel.
 */
export function afterNextPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (document.visibilityState === "hidden") {
    timer = setTimeout(task, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
