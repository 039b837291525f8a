import { useCallback, useEffect, useState } from "react";
import type { TwoFactorEnabled, TwoFactorSetup, TwoFactorStatus } from "../../shared/account/two-factor";
import { http } from "../lib/http";

/**
 * The account's two-factor state (GET /api/account/two-factor) and the calls that change it. Each
 * call throws the API's error for the form that made it to show; the status reloads after a change.
 */
export function useTwoFactor() {
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const reload = useCallback(async () => {
    setStatus(await http.get("account/two-factor").json<TwoFactorStatus>());
  }, []);
  useEffect(() => {
    reload().catch(() => setStatus(null));
  }, [reload]);

  return {
    status,
    setup: (password: string) =>
      http.post("account/two-factor/setup", { json: { password }, retry: 0 }).json<TwoFactorSetup>(),
    enable: async (code: string) => {
      const answer = await http
        .post("account/two-factor/enable", { json: { code }, retry: 0 })
        .json<TwoFactorEnabled>();
      await reload();
      return answer.recoveryCodes;
    },
    disable: async (password: string, code: string) => {
      await http.post("account/two-factor/disable", { json: { password, code }, retry: 0 });
      await reload();
    },
  };
}
