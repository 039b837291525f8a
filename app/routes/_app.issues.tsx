import { Todo } from "../components/placeholder";

export default function IssuesPage() {
  return <Todo title="Issues" />;
}
