// workerd provides node:async_hooks' AsyncLocalStorage under the nodejs_compat flag (wrangler.toml);
// the Workers types do not declare Node's modules, and Node's own types would bring Node's globals
// into the Worker. This is the part db/live-reads.ts uses.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}
