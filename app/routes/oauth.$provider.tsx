import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";

// Placeholder until the accounts work lands: an unknown provider is a route error.
const PROVIDERS: Record<string, string> = { google: "Google", jobber: "Jobber", facebook: "Facebook" };

export const loader = ({ params }: LoaderFunctionArgs) => {
  const name = PROVIDERS[params.provider ?? ""];
  if (!name) throw new Response(`Unknown sign-in provider "${params.provider}"`, { status: 400 });
  return { name };
};

export default function OAuthReturn() {
  const { name } = useLoaderData<typeof loader>();
  return <div className="fullscreen-center">Authenticating via {name}</div>;
}
