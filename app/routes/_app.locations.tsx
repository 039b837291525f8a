import { Todo } from "../components/placeholder";

export default function LocationsPage() {
  return <Todo title="Locations" />;
}
