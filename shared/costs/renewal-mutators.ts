import type { WriteTransaction } from "replicache";
import {
  addRenewalArgs,
  decodeRenewal,
  deleteRenewalArgs,
  encodeRenewal,
  renewalAfterRenew,
  renewalFieldsOf,
  renewalKey,
  renewRenewalArgs,
  type AddRenewalArgs,
  type DeleteRenewalArgs,
  type RenewalWire,
  type RenewRenewalArgs,
} from "./renewals";

/**
 * Setting up a renewal and removing it (owners and admins), renewing it (members) in the browser:
 * optimistic, offline too, applied by the Worker (worker/sync/renewal-mutators.ts) through the REST
 * routes' own checks and writes (worker/costs/renewal-writes.ts).
 */
export const renewalMutators = {
  async addRenewal(tx: WriteTransaction, input: AddRenewalArgs) {
    const { id, ...renewal } = addRenewalArgs.parse(input);
    if (await tx.has(renewalKey(id))) return;
    await tx.set(renewalKey(id), encodeRenewal(renewalFieldsOf(renewal)));
  },

  async renewRenewal(tx: WriteTransaction, input: RenewRenewalArgs) {
    const { id, ...renew } = renewRenewalArgs.parse(input);
    const wire = (await tx.get(renewalKey(id))) as RenewalWire | undefined;
    if (!wire) return;
    await tx.set(renewalKey(id), encodeRenewal(renewalAfterRenew(decodeRenewal(id, wire), renew)));
  },

  async deleteRenewal(tx: WriteTransaction, input: DeleteRenewalArgs) {
    await tx.del(renewalKey(deleteRenewalArgs.parse(input).id));
  },
};
