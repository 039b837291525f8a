import { WORK_ORDER_FORM_FIELDS, workOrderTableFromText } from "../../shared/maintenance/work-order-fields";

const WORK_ORDER_FORM_NAMES = WORK_ORDER_FORM_FIELDS.map((f) => f.name);

/** A work order form's table fields (new, or its details) as the mutators take them: empty is null. */
export const workOrderTableValuesIn = (data: FormData) =>
  workOrderTableFromText(
    Object.fromEntries(WORK_ORDER_FORM_NAMES.map((name) => [name, String(data.get(name) ?? "")])),
    WORK_ORDER_FORM_NAMES,
  );
