import { describe, expect, it } from "vitest";
import { glideAt } from "./beacon-math";
import { VERTEX_SHADER } from "./beacon-shaders";
import { ease } from "./easing";

/**
 * The vertex shader's glide lines (`float t = …;` and `float e = …;`) run as JavaScript: the GLSL
 * they use (float literals, ternaries, clamp, pow, mix) means the same in both languages once
 * those three functions are given, so the shader's curve can be compared with `ease` point by point.
 */
function shaderGlide(source: string): (now: number, start: number, glide: number) => number {
  const line = (name: string) => {
    const found = new RegExp(`^\\s*float ${name} = ([^;]+);$`, "m").exec(source);
    if (!found) throw new Error(`The vertex shader has no "float ${name} = …;" line`);
    return found[1]!;
  };
  const body = `const t = ${line("t")}; return ${line("e")};`;
  const glsl = {
    clamp: (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x)),
    pow: Math.pow,
  };
  const run = new Function("u_now", "a_start", "u_glide", "clamp", "pow", body) as (...args: unknown[]) => number;
  return (now, start, glide) => run(now, start, glide, glsl.clamp, glsl.pow);
}

/** Where the curves are compared: before the start, every 8 ms across the 8 s glide, and after it. */
const MOMENTS = Array.from({ length: 1201 }, (_, i) => -1000 + i * 8);
const GLIDE = 8000;

describe("the glide's easing", () => {
  it("eases in and out, passes the middle at half time, and holds at both ends", () => {
    expect([ease(-1), ease(0), ease(0.5), ease(1), ease(2)]).toEqual([0, 0, 0.5, 1, 1]);
    expect(ease(0.25)).toBe(0.125);
    expect(ease(0.75)).toBe(0.875);
    for (let i = 1; i <= 100; i++) expect(ease(i / 100)).toBeGreaterThan(ease((i - 1) / 100));
  });

  it("is the curve the vertex shader draws, at every moment of a glide", () => {
    const shader = shaderGlide(VERTEX_SHADER);
    for (const elapsed of MOMENTS) expect(shader(5000 + elapsed, 5000, GLIDE)).toBeCloseTo(ease(elapsed / GLIDE), 12);
  });

  it("would notice a shader that eased differently", () => {
    const linear = shaderGlide(VERTEX_SHADER.replace(/float e = [^;]+;/, "float e = t;"));
    expect(
      MOMENTS.some((elapsed) => Math.abs(linear(5000 + elapsed, 5000, GLIDE) - ease(elapsed / GLIDE)) > 1e-6),
    ).toBe(true);
  });

  it("moves a beacon along the straight line by that curve, from its start time", () => {
    expect(glideAt(0.2, 0.4, 0.3, 0.2, 5000, 5000)).toEqual([0.2, 0.4]);
    const [x, y] = glideAt(0.2, 0.4, 0.3, 0.2, 5000, 5000 + GLIDE / 4);
    expect(x).toBeCloseTo(0.2 + 0.1 * 0.125, 12);
    expect(y).toBeCloseTo(0.4 - 0.2 * 0.125, 12);
    expect(glideAt(0.2, 0.4, 0.3, 0.2, 5000, 5000 + 2 * GLIDE)).toEqual([0.3, 0.2]);
  });
});
