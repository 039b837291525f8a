/** The address of mapbox-gl's worker chunk in this build, or undefined in development (scripts/mapbox-worker-plugin.ts). */
declare module "virtual:mapbox-gl-worker-url" {
  const workerUrl: string | undefined;
  export default workerUrl;
}
