import { createContext } from "react";

/**
 * The nonce the server's render gives the scripts the app itself renders (Remix's context, module
 * loader and scroll restoration, React's streaming scripts). The Worker allows by hash only the
 * inline scripts that carry it, then strips it (worker/csp.ts): a script injected into the page
 * cannot know it. In the browser it is undefined, as the attribute is gone from the HTML.
 */
export const ScriptNonce = createContext<string | undefined>(undefined);
