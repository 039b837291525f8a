import { useMemo } from "react";
import type {
  AddExpenseArgs,
  DeleteExpenseArgs,
  Expense,
  SyncedExpense,
  UpdateExpenseArgs,
} from "../../shared/costs/expenses";
import type { expenseMutators } from "../../shared/costs/expense-mutators";
import type { renewalMutators } from "../../shared/costs/renewal-mutators";
import {
  renewalStatus,
  type AddRenewalArgs,
  type DeleteRenewalArgs,
  type RenewalStatus,
  type RenewRenewalArgs,
  type SyncedRenewal,
} from "../../shared/costs/renewals";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { useSync } from "../sync/sync-provider";
import { useTypesValue } from "./maintenance";

/**
 * Expenses and renewals from the synced store (docs/decisions/0049): the vehicle's Costs tab, the
 * Fuel page, My actions and the overview page read these, so they render offline. A renewal's
 * status is worked out here with the rule the server applies (shared/costs/renewals.ts).
 */
export type ExpenseRow = SyncedExpense;
export type RenewalRow = SyncedRenewal & { status: RenewalStatus };

/** One vehicle's expenses, or the fleet's (vehicles still in it), newest first. */
export function useExpenses(vehicleId?: string): ExpenseRow[] {
  return useTypesValue(["expense", "vehicle"], `expenses|${vehicleId ?? ""}`, (s) =>
    s
      .list<SyncedExpense>("expense")
      .filter((e) => (vehicleId ? e.vehicleId === vehicleId : true) && s.get<Vehicle>("vehicle", e.vehicleId))
      .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1)),
  );
}

/** An expense as the REST API answers it (older than the synced window), in the store's shape. */
export const expenseRowOf = ({ createdAt: _created, ...e }: Expense): ExpenseRow => e;

/** One vehicle's renewals, or the fleet's, soonest due first, each with its status on `today` (YYYY-MM-DD). */
export function useRenewals(today: string, vehicleId?: string): RenewalRow[] {
  return useTypesValue(["renewal", "vehicle"], `renewals|${today}|${vehicleId ?? ""}`, (s) =>
    s
      .list<SyncedRenewal>("renewal")
      .filter((r) => (vehicleId ? r.vehicleId === vehicleId : true) && s.get<Vehicle>("vehicle", r.vehicleId))
      .map((r) => ({ ...r, status: renewalStatus(r, today) }))
      .sort((a, b) => (a.dueDate === b.dueDate ? (a.id < b.id ? -1 : 1) : a.dueDate < b.dueDate ? -1 : 1)),
  );
}

/** "Add expense", and (owners and admins) correcting or deleting one, through sync mutators: optimistic, offline too. */
export function useExpenseMutations() {
  const sync = useSync();
  return useMemo(() => {
    const run = async (name: keyof typeof expenseMutators, args: unknown) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate(name, args);
    };
    return {
      addExpense: (args: AddExpenseArgs) => run("addExpense", args),
      editExpense: (args: UpdateExpenseArgs) => run("updateExpense", args),
      deleteExpense: (args: DeleteExpenseArgs) => run("deleteExpense", args),
    };
  }, [sync]);
}

/** Setting up and removing a renewal (owners and admins), renewing it (members), through sync mutators: offline too. */
export function useRenewalMutations() {
  const sync = useSync();
  return useMemo(() => {
    const run = async (name: keyof typeof renewalMutators, args: unknown) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate(name, args);
    };
    return {
      addRenewal: (args: AddRenewalArgs) => run("addRenewal", args),
      renew: (args: RenewRenewalArgs) => run("renewRenewal", args),
      deleteRenewal: (args: DeleteRenewalArgs) => run("deleteRenewal", args),
    };
  }, [sync]);
}
