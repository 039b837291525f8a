/**
 * The beacons as one mapbox-gl custom layer (CustomLayerInterface, WebGL2): every vehicle is an
 * instance of one quad, drawn by one drawArraysInstanced call per frame; the 8 s glide is computed
 * in the vertex shader from a time uniform, so a frame costs the same whether 1 or 10,000 beacons
 * move, and the CPU only rewrites the slots a report changed (bufferSubData). Clusters (low zoom)
 * are a second, small instanced draw with the same program. GL objects are created lazily in
 * render(), so a lost and restored WebGL context is recovered from the CPU copy (BeaconSlots).
 */
import type { CustomLayerInterface, Map as MapboxMap } from "mapbox-gl";
import { mercatorX, mercatorY, originTooFar, type Cluster } from "./beacon-math";
import { FRAGMENT_SHADER, VERTEX_SHADER } from "./beacon-shaders";
import { BeaconSlots, FLOATS_PER_SLOT } from "./beacon-slots";
import { beaconSize, GLIDE_MS } from "./geometry";

export const BEACONS_LAYER_ID = "fleet-beacons";
/** The float32 time base moves forward after an hour (float32 seconds stay sub-millisecond). */
const EPOCH_SPAN_MS = 3_600_000;

interface GlState {
  gl: WebGL2RenderingContext;
  program: WebGLProgram;
  quad: WebGLBuffer;
  slots: WebGLBuffer;
  hidden: WebGLBuffer;
  clusters: WebGLBuffer;
  beaconVao: WebGLVertexArrayObject;
  clusterVao: WebGLVertexArrayObject;
  digits: WebGLTexture;
  uniforms: Record<
    "matrix" | "viewport" | "now" | "glide" | "size" | "cluster" | "digits",
    WebGLUniformLocation | null
  >;
  capacity: number;
}

export class BeaconGlLayer implements CustomLayerInterface {
  readonly id = BEACONS_LAYER_ID;
  readonly type = "custom" as const;
  readonly renderingMode = "2d" as const;
  readonly slots = new BeaconSlots();
  private map: MapboxMap | null = null;
  private state: GlState | null = null;
  private hidden: Uint8Array = new Uint8Array(0);
  private hiddenDirty = true;
  private clusters: Cluster[] = [];
  private clustersDirty = true;
  /** Frames drawn, for the debug hooks. */
  frames = 0;
  /** The map is hidden (another page is shown): no frames are asked for. */
  paused = false;
  /** When the last glide of a beacon not hidden in a cluster ends: frames are needed until then. */
  private visibleGlideEndsAt = -Infinity;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.slots.rebase([0.5, 0.5], this.now());
  }

  onAdd(map: MapboxMap) {
    this.map = map;
    this.state = null;
  }

  onRemove(_map: MapboxMap, gl: WebGL2RenderingContext) {
    const s = this.state;
    if (s && s.gl === gl && !gl.isContextLost()) {
      for (const b of [s.quad, s.slots, s.hidden, s.clusters]) gl.deleteBuffer(b);
      gl.deleteVertexArray(s.beaconVao);
      gl.deleteVertexArray(s.clusterVao);
      gl.deleteTexture(s.digits);
      gl.deleteProgram(s.program);
    }
    this.state = null;
    this.map = null;
  }

  /** The WebGL context is gone: its objects with it. The next render rebuilds them from the CPU copy. */
  contextLost() {
    this.state = null;
  }

  /** Asks for a frame (after slots changed, or to start a glide). */
  repaint() {
    if (!this.paused) this.map?.triggerRepaint();
  }

  /** A slot was placed: if it glides where it can be seen, frames are needed until it arrives. */
  noteGlide(slot: number) {
    if (!this.isHidden(slot)) this.visibleGlideEndsAt = Math.max(this.visibleGlideEndsAt, this.slots.glideEndOf(slot));
  }

  setClusters(clusters: Cluster[], hidden: Uint8Array) {
    this.clusters = clusters;
    this.hidden = hidden;
    // Glides inside clusters draw nothing: only the visible ones keep frames coming.
    this.visibleGlideEndsAt = -Infinity;
    for (let slot = 0; slot < this.slots.size; slot++) this.noteGlide(slot);
    this.clustersDirty = true;
    this.hiddenDirty = true;
    this.repaint();
  }

  get clusterList(): readonly Cluster[] {
    return this.clusters;
  }

  isHidden(slot: number): boolean {
    return this.hidden[slot] === 1;
  }

  render(gl: WebGL2RenderingContext, matrix: number[]) {
    const map = this.map;
    if (!map) return;
    if (!this.state || this.state.gl !== gl) this.state = this.create(gl);
    const s = this.state;
    const now = this.now();
    const slots = this.slots;

    const center = map.getCenter();
    const camera: [number, number] = [mercatorX(center.lng), mercatorY(center.lat)];
    if (now - slots.epoch > EPOCH_SPAN_MS || originTooFar(slots.origin, camera, map.getZoom())) {
      slots.rebase(camera, now);
      this.clustersDirty = true;
    }
    this.upload(s);

    gl.useProgram(s.program);
    gl.uniformMatrix4fv(s.uniforms.matrix, false, relativeTo(matrix, slots.origin));
    const canvas = map.getCanvas();
    const ratio = canvas.width / Math.max(1, canvas.clientWidth || canvas.width);
    gl.uniform2f(s.uniforms.viewport, gl.drawingBufferWidth / ratio, gl.drawingBufferHeight / ratio);
    gl.uniform1f(s.uniforms.now, (now - slots.epoch) / 1000);
    gl.uniform1f(s.uniforms.glide, GLIDE_MS / 1000);
    gl.uniform1f(s.uniforms.size, beaconSize(map.getZoom()));
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, s.digits);
    gl.uniform1i(s.uniforms.digits, 0);

    gl.uniform1f(s.uniforms.cluster, 0);
    gl.bindVertexArray(s.beaconVao);
    if (slots.size) gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, slots.size);
    if (this.clusters.length) {
      gl.uniform1f(s.uniforms.cluster, 1);
      gl.bindVertexArray(s.clusterVao);
      gl.vertexAttrib1f(5, 0);
      gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, this.clusters.length);
    }
    gl.bindVertexArray(null);
    this.frames++;
    // Only while a visible glide runs: a still (or clustered) fleet costs no frames at all.
    if (now < this.visibleGlideEndsAt && !this.paused) map.triggerRepaint();
  }

  private upload(s: GlState) {
    const { gl } = s;
    const slots = this.slots;
    const dirty = slots.takeDirty();
    gl.bindBuffer(gl.ARRAY_BUFFER, s.slots);
    if (dirty === "all" || slots.capacity > s.capacity) {
      gl.bufferData(gl.ARRAY_BUFFER, slots.gpu, gl.DYNAMIC_DRAW);
      s.capacity = slots.capacity;
      this.hiddenDirty = true;
    } else {
      for (const [first, count] of dirty) {
        gl.bufferSubData(
          gl.ARRAY_BUFFER,
          first * FLOATS_PER_SLOT * 4,
          slots.gpu,
          first * FLOATS_PER_SLOT,
          count * FLOATS_PER_SLOT,
        );
      }
    }
    if (this.hiddenDirty) {
      const hidden = new Uint8Array(s.capacity);
      hidden.set(this.hidden.subarray(0, s.capacity));
      gl.bindBuffer(gl.ARRAY_BUFFER, s.hidden);
      gl.bufferData(gl.ARRAY_BUFFER, hidden, gl.DYNAMIC_DRAW);
      this.hiddenDirty = false;
    }
    if (this.clustersDirty) {
      const data = new Float32Array(Math.max(1, this.clusters.length) * FLOATS_PER_SLOT);
      const [ox, oy] = slots.origin;
      this.clusters.forEach((c, i) =>
        data.set([c.x - ox, c.y - oy, c.x - ox, c.y - oy, -1e9, c.count], i * FLOATS_PER_SLOT),
      );
      gl.bindBuffer(gl.ARRAY_BUFFER, s.clusters);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
      this.clustersDirty = false;
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  private create(gl: WebGL2RenderingContext): GlState {
    const program = link(gl);
    const buffer = () => gl.createBuffer()!;
    const quad = buffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, quad);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    const slots = buffer();
    const hidden = buffer();
    const clusters = buffer();
    const beaconVao = vertexArray(gl, quad, slots, hidden);
    const clusterVao = vertexArray(gl, quad, clusters, null);
    const uniform = (name: string) => gl.getUniformLocation(program, name);
    this.slots.allDirty = true;
    this.hiddenDirty = true;
    this.clustersDirty = true;
    return {
      gl,
      program,
      quad,
      slots,
      hidden,
      clusters,
      beaconVao,
      clusterVao,
      digits: digitAtlas(gl),
      uniforms: {
        matrix: uniform("u_matrix"),
        viewport: uniform("u_viewport"),
        now: uniform("u_now"),
        glide: uniform("u_glide"),
        size: uniform("u_size"),
        cluster: uniform("u_cluster"),
        digits: uniform("u_digits"),
      },
      capacity: 0,
    };
  }
}

/**
 * A vertex array drawing one quad per instance: its corners, and from `instances` each one's
 * from and to positions, start time and state (beacon-shaders.ts), and its hidden flag when given.
 */
function vertexArray(
  gl: WebGL2RenderingContext,
  quad: WebGLBuffer,
  instances: WebGLBuffer,
  hiddenBuffer: WebGLBuffer | null,
): WebGLVertexArrayObject {
  const v = gl.createVertexArray()!;
  gl.bindVertexArray(v);
  gl.bindBuffer(gl.ARRAY_BUFFER, quad);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.bindBuffer(gl.ARRAY_BUFFER, instances);
  const stride = FLOATS_PER_SLOT * 4;
  for (const [location, size, offset] of [
    [1, 2, 0],
    [2, 2, 8],
    [3, 1, 16],
    [4, 1, 20],
  ] as const) {
    gl.enableVertexAttribArray(location);
    gl.vertexAttribPointer(location, size, gl.FLOAT, false, stride, offset);
    gl.vertexAttribDivisor(location, 1);
  }
  if (hiddenBuffer) {
    gl.bindBuffer(gl.ARRAY_BUFFER, hiddenBuffer);
    gl.enableVertexAttribArray(5);
    gl.vertexAttribPointer(5, 1, gl.UNSIGNED_BYTE, false, 1, 0);
    gl.vertexAttribDivisor(5, 1);
  }
  gl.bindVertexArray(null);
  return v;
}

/** The custom layer matrix (Mercator to clip space) with the origin's translation folded in, in float64. */
function relativeTo(m: number[], [ox, oy]: readonly [number, number]): Float32Array {
  const out = new Float32Array(m);
  for (let r = 0; r < 4; r++) out[12 + r] = m[r]! * ox + m[4 + r]! * oy + m[12 + r]!;
  return out;
}

function link(gl: WebGL2RenderingContext): WebGLProgram {
  const compile = (type: number, source: string) => {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost())
      throw new Error(`Beacon shader: ${gl.getShaderInfoLog(shader)}`);
    return shader;
  };
  const program = gl.createProgram()!;
  gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX_SHADER));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, FRAGMENT_SHADER));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost())
    throw new Error(`Beacon program: ${gl.getProgramInfoLog(program)}`);
  return program;
}

/** The digits 0–9 side by side, white on transparent, drawn once with the 2D canvas (no font files needed). */
function digitAtlas(gl: WebGL2RenderingContext): WebGLTexture {
  const canvas = document.createElement("canvas");
  canvas.width = 320;
  canvas.height = 48;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = "#ffffff";
  ctx.font = "bold 40px sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let d = 0; d < 10; d++) ctx.fillText(String(d), d * 32 + 16, 26);
  const texture = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, canvas);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return texture;
}
