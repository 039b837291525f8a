import { parseArgs } from "node:util";
import { z } from "zod";

/** `npm run simulate -- ...`: the command line, checked. */
export const USAGE = `Drive a workspace's beacons through the public OsmAnd ingestion endpoint.

  npm run simulate -- --workspace <id> (--email <e> --password <p> | --token <t>) [options]

  --url <origin>      the app (default http://localhost:8787)
  --workspace <id>    the workspace whose beacons to drive
  --email, --password sign in as a member of the workspace
  --token <token>     or use a session token (also FLEET_TOKEN in the environment)
  --interval <s>      mean seconds between two reports of one vehicle (default 4)
  --duration <s>      stop after this many seconds
  --reports <n>       stop after this many reports in all
  --seed <n>          vary the simulation (default 0; the same seed replays the same behaviour)
`;

export class UsageError extends Error {}

const positive = (what: string) =>
  z.coerce.number({ invalid_type_error: `${what} must be a number` }).positive(`${what} must be positive`);

const schema = z
  .object({
    url: z.string().url("--url must be an origin such as http://localhost:8787").default("http://localhost:8787"),
    workspace: z.string({ required_error: "--workspace is required" }).min(1, "--workspace is required"),
    email: z.string().optional(),
    password: z.string().optional(),
    token: z.string().optional(),
    interval: positive("--interval").default(4),
    duration: positive("--duration").optional(),
    reports: positive("--reports").int("--reports must be a whole number").optional(),
    seed: z.coerce.number().int("--seed must be a whole number").default(0),
  })
  .refine((o) => o.token || (o.email && o.password), "Sign in with --email and --password, or pass --token");

export type SimulateOptions = z.infer<typeof schema>;

export function parseOptions(argv: string[], env: Record<string, string | undefined> = {}): SimulateOptions | "help" {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: "string" },
        workspace: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        token: { type: "string" },
        interval: { type: "string" },
        duration: { type: "string" },
        reports: { type: "string" },
        seed: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (values.help) return "help";
  const parsed = schema.safeParse({ ...values, token: values.token ?? env.FLEET_TOKEN });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}
