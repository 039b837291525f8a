export default function Team() {
  return (
    <section className="page">
      <input className="input filter" type="search" aria-label="Filter team" placeholder="Filter by name, email, or role" />
      <h1>Employees</h1>
      <p className="muted">todo</p>
    </section>
  );
}
