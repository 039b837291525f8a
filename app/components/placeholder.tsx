/** The sections docs/product.md leaves for later show only the word todo. */
export function Todo({ title }: { title?: string }) {
  return (
    <section className="page">
      {title ? <h1>{title}</h1> : null}
      <p className="muted">todo</p>
    </section>
  );
}
