/** The /map page's `Link` header values: the map's lazily loaded files (scripts/map-preloads.ts). */
declare module "virtual:map-preloads" {
  const links: string[];
  export default links;
}
