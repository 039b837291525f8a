import { NotFound } from "../components/not-found";

// Answer unknown paths with a real 404 status; the root error boundary shows "Not Found".
export const loader = () => {
  throw new Response("Not Found", { status: 404 });
};

export default function UnknownRoute() {
  return <NotFound />;
}
