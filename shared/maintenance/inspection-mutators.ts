import type { WriteTransaction } from "replicache";
import { submitInspectionArgs, type SubmitInspectionArgs } from "./inspections";
import { encodeInspection, inspectionKey } from "../sync/maintenance-sync";

/**
 * An inspection submitted on a phone (optimistic, offline too), applied by the Worker
 * (worker/sync/inspection-mutators.ts) through the REST route's own checks and writes. The device
 * chooses the id; its copy is marked waiting (the history says "Waiting to sync") until the
 * server's, with the issues its failed items opened, replaces it with the next pull.
 */
export const inspectionMutators = {
  async submitInspection(tx: WriteTransaction, input: SubmitInspectionArgs) {
    const { id, submittedAt, ...s } = submitInspectionArgs.parse(input);
    if (await tx.has(inspectionKey(id))) return;
    await tx.set(
      inspectionKey(id),
      encodeInspection({
        vehicleId: s.vehicleId,
        formId: s.formId,
        odometerMiles: s.odometerMiles ?? null,
        signedName: s.signedName,
        failedItems: s.results.filter((r) => r.pass === false).length,
        issueIds: [],
        submittedByUserId: null,
        submittedAt: submittedAt ? Date.parse(submittedAt) : Date.now(),
        waiting: true,
      }),
    );
  },
};
