// The planner as a Worker module, bundled by bench/plan.bench.ts and run inside workerd (the
// production runtime) through Miniflare: one Solomon instance per request, planned in here and timed
// on workerd's own clock (which advances while it computes when run locally).
import { planRoutes } from "../domain/routing/plan";
import { solomonProblem, type SolomonInstance } from "../domain/routing/solomon";

interface PlanRequest {
  instance: SolomonInstance;
  seconds: number;
  seed: number;
}

export default {
  async fetch(request: Request): Promise<Response> {
    const { instance, seconds, seed } = (await request.json()) as PlanRequest;
    const started = Date.now();
    const plan = planRoutes(solomonProblem(instance), { timeLimitMs: seconds * 1000, seed });
    return Response.json({
      routes: plan.routes.map((route) => route.stops.map((stop) => Number(stop.jobId))),
      unassigned: plan.unassigned,
      iterations: plan.iterations,
      ms: Date.now() - started,
    });
  },
};
