import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { OAUTH_PROVIDERS, type OAuthProvider } from "../../shared/account/auth";
import type { SignInAnswer } from "../../shared/account/two-factor";
import { AuthLayout } from "../components/auth-layout";
import { SecondFactorForm } from "../components/second-factor-form";
import { Spinner } from "../components/spinner";
import { http } from "../lib/http";
import { useSession } from "../session/session";

// An unknown provider is a route error ("Something went wrong!"), not a blank page.
export const loader = ({ params }: LoaderFunctionArgs) => {
  const provider = params.provider ?? "";
  if (!(provider in OAUTH_PROVIDERS)) throw new Response(`Unknown sign-in provider "${provider}"`, { status: 400 });
  return { provider: provider as OAuthProvider, name: OAUTH_PROVIDERS[provider as OAuthProvider] };
};

/** The provider's return address: exchanges the code for a session, then /setup. */
export default function OAuthReturn() {
  const { provider, name } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const session = useSession();
  const navigate = useNavigate();
  const started = useRef(false);
  // An account with two-factor authentication: Google was right, a code is asked next.
  const [challenge, setChallenge] = useState<string | null>(null);
  const signedIn = (token: string) => {
    session.setToken(token);
    navigate("/setup", { replace: true });
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get("code") ?? "";
    const state = params.get("state") ?? "";
    http
      .post(`oauth/${provider}/token`, { json: { code, state }, retry: 0 })
      .json<SignInAnswer>()
      .then((answer) =>
        "secondFactor" in answer ? setChallenge(answer.secondFactor.challenge) : signedIn(answer.token),
      )
      // docs/product.md section 8: a failed token call is silently ignored.
      .catch(() => navigate("/login", { replace: true }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once: the code in the address is single-use (signedIn is a new function each render)
  }, [params, provider]);

  if (challenge) {
    return (
      <AuthLayout title="Log in">
        <SecondFactorForm
          challenge={challenge}
          onSignedIn={signedIn}
          onExpired={() => navigate("/login", { replace: true })}
        />
      </AuthLayout>
    );
  }

  return (
    <div className="fullscreen-center">
      <Spinner size={24} />
      <p>Authenticating via {name}</p>
    </div>
  );
}
