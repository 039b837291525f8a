/**
 * GLSL of the beacons layer (WebGL2, which mapbox-gl 3 always runs on). One quad per instance:
 * a beacon (its glide computed here from the time uniform with easing.ts's curve, which
 * easing.test.ts checks these lines against) or, in the cluster pass, an aggregate disc with its
 * count written from a 10-digit atlas.
 */
import { VEHICLE_STATE_COLOURS } from "../../shared/fleet/vehicle-state";

/** A "#rrggbb" colour as a GLSL vec3: the state colours are shared/fleet/vehicle-state.ts's, like the panel's. */
function glslColour(hex: string): string {
  const channel = (i: number) => (parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255).toFixed(3);
  return `vec3(${channel(0)}, ${channel(1)}, ${channel(2)})`;
}

export const VERTEX_SHADER = `#version 300 es
precision highp float;
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec2 a_from;
layout(location = 2) in vec2 a_to;
layout(location = 3) in float a_start;
layout(location = 4) in float a_state;
layout(location = 5) in float a_hidden;
uniform mat4 u_matrix;
uniform vec2 u_viewport;
uniform float u_now;
uniform float u_glide;
uniform float u_size;
uniform float u_cluster;
out vec2 v_px;
out float v_radius;
out vec3 v_fill;
out vec3 v_stroke;
out float v_count;

const vec3 MOVING = ${glslColour(VEHICLE_STATE_COLOURS.moving)};
const vec3 PARKED = ${glslColour(VEHICLE_STATE_COLOURS.parked)};
const vec3 INACTIVE = ${glslColour(VEHICLE_STATE_COLOURS.inactive)};
const vec3 CLUSTER = vec3(0.200, 0.255, 0.333);
const vec3 WHITE = vec3(1.0);
const vec3 RING = vec3(0.067, 0.094, 0.153);

void main() {
  float t = clamp((u_now - a_start) / u_glide, 0.0, 1.0);
  float e = t < 0.5 ? 2.0 * t * t : 1.0 - pow(-2.0 * t + 2.0, 2.0) / 2.0;
  vec2 p = mix(a_from, a_to, e);
  vec4 c = u_matrix * vec4(p, 0.0, 1.0);
  float diameter = u_size;
  v_count = 0.0;
  if (u_cluster > 0.5) {
    v_count = a_state;
    diameter = u_size + 6.0 * log2(a_state) / log2(10.0);
    v_fill = CLUSTER;
    v_stroke = WHITE;
  } else {
    float colour = mod(a_state, 4.0);
    v_fill = colour < 0.5 ? MOVING : colour < 1.5 ? PARKED : INACTIVE;
    v_stroke = a_state >= 4.0 ? RING : WHITE;
  }
  v_radius = diameter * 0.5;
  float extent = v_radius + 1.0;
  v_px = a_corner * extent;
  c.xy += a_corner * extent * 2.0 / u_viewport * c.w;
  // A clustered beacon: outside the clip volume, so nothing is rasterised.
  gl_Position = a_hidden > 0.5 ? vec4(2.0, 2.0, 2.0, 1.0) : c;
}
`;

export const FRAGMENT_SHADER = `#version 300 es
precision highp float;
in vec2 v_px;
in float v_radius;
in vec3 v_fill;
in vec3 v_stroke;
in float v_count;
uniform sampler2D u_digits;
out vec4 fragColor;

const float STROKE = 2.0;
const vec2 GLYPH = vec2(8.0, 12.0);

void main() {
  float d = length(v_px);
  float alpha = 1.0 - smoothstep(v_radius - 0.5, v_radius + 0.5, d);
  if (alpha <= 0.0) discard;
  vec3 colour = mix(v_fill, v_stroke, smoothstep(v_radius - STROKE - 0.5, v_radius - STROKE + 0.5, d));
  if (v_count > 0.0) {
    float digits = floor(log2(v_count + 0.5) / log2(10.0)) + 1.0;
    vec2 box = vec2(digits * GLYPH.x, GLYPH.y);
    vec2 q = v_px + box * 0.5;
    if (q.x >= 0.0 && q.x < box.x && q.y >= 0.0 && q.y < box.y) {
      float k = floor(q.x / GLYPH.x);
      float digit = mod(floor((v_count + 0.5) / pow(10.0, digits - 1.0 - k)), 10.0);
      vec2 uv = vec2((digit + fract(q.x / GLYPH.x)) / 10.0, 1.0 - q.y / GLYPH.y);
      colour = mix(colour, vec3(1.0), texture(u_digits, uv).a);
    }
  }
  // mapbox-gl blends premultiplied colours.
  fragColor = vec4(colour * alpha, alpha);
}
`;
