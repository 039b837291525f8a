import { useRef } from "react";

/** People: a placeholder with the New Person dialog (not wired to anything yet). */
export default function People() {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <section className="page">
      <div className="page-header">
        <h1>People</h1>
        <button type="button" className="button primary" onClick={() => dialog.current?.showModal()}>
          New Person
        </button>
      </div>
      <p className="muted">todo</p>
      <dialog ref={dialog} className="card dialog" aria-label="New Person">
        <form method="dialog">
          <h2>New Person</h2>
          <div className="field">
            <label htmlFor="person-name">Name</label>
            <input id="person-name" className="input" name="name" />
          </div>
          <div className="field">
            <label htmlFor="person-email">Email</label>
            <input id="person-email" className="input" type="email" name="email" />
          </div>
          <div className="field">
            <label htmlFor="person-phone">Phone</label>
            <input id="person-phone" className="input" type="tel" name="phone" />
          </div>
          <button className="button">Close</button>
        </form>
      </dialog>
    </section>
  );
}
