import { Todo } from "../components/placeholder";

export default function InboxPage() {
  return <Todo title="Inbox" />;
}
