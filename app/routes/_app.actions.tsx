import { Todo } from "../components/placeholder";

export default function ActionsPage() {
  return <Todo title="My actions" />;
}
