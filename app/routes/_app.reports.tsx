import { Todo } from "../components/placeholder";

export default function ReportsPage() {
  return <Todo title="Reports" />;
}
