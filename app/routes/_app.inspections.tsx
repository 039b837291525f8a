import { Todo } from "../components/placeholder";

export default function InspectionsPage() {
  return <Todo title="Inspections" />;
}
