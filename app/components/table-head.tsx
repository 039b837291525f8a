/**
 * A simple table's header: its columns, then, for rows with buttons, an Actions column that only
 * screen readers announce (the buttons name themselves on screen).
 */
export function TableHead({ columns, actions = false }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column}>{column}</th>
        ))}
        {actions ? (
          <th>
            <span className="sr-only">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
