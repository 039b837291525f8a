/**
 * The glide's easing, defined once: the vertex shader (beacon-shaders.ts) computes the same curve
 * in GLSL, and easing.test.ts evaluates the shader's own lines against this function, so the
 * beacons drawn on the GPU, the CPU's picking and the route's last stretch glide alike.
 */

/** Ease-in-out (quadratic) of the glide: progress in [0, 1] (clamped) to distance covered in [0, 1]. */
export function ease(t: number): number {
  const c = Math.min(1, Math.max(0, t));
  return c < 0.5 ? 2 * c * c : 1 - (-2 * c + 2) ** 2 / 2;
}
