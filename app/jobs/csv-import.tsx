import { useState, type FormEvent } from "react";
import { apiErrorOf, http, HTTPError } from "../lib/http";
import { SubmitButton } from "../components/form";
import { JOB_CSV_HEADER } from "../../shared/jobs/jobs";

interface ImportAnswer {
  created?: number;
  errors?: { line: number; error: string }[];
}
type Outcome = { created: number } | { errors: { line: number; error: string }[] } | { message: string };

/**
 * "Import CSV": a day's jobs from a file (or pasted text), sent as it is to POST /api/jobs/import.
 * The server takes all or nothing, so a refusal lists every bad line by its number (the header
 * is line 1, as a spreadsheet counts) and nothing is imported; the new jobs come back through
 * sync like any other edit. Online only: the server checks vehicle names and places.
 */
export function CsvImportForm({ onImported }: { onImported?: (created: number) => void }) {
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    const text = file instanceof File && file.size ? await file.text() : String(data.get("text") ?? "");
    setPending(true);
    const result = await sendCsv(text);
    setPending(false);
    setOutcome(result);
    if ("created" in result) {
      event.currentTarget?.reset();
      onImported?.(result.created);
    }
  };
  return (
    <form className="card job-import" aria-label="Import jobs" onSubmit={(e) => void submit(e)}>
      <h2>Import jobs from CSV</h2>
      <p className="field-hint">
        Header line: <code>{JOB_CSV_HEADER}</code>. Times are HH:MM, local; a vehicle by its name.
      </p>
      <div className="field">
        <label htmlFor="jobs-csv-file">CSV file</label>
        <input id="jobs-csv-file" name="file" type="file" accept=".csv,text/csv" className="input" />
      </div>
      <div className="field">
        <label htmlFor="jobs-csv-text">Or paste the lines</label>
        <textarea id="jobs-csv-text" name="text" rows={4} className="input" placeholder={JOB_CSV_HEADER} />
      </div>
      <ImportOutcome outcome={outcome} />
      <SubmitButton pending={pending}>Import</SubmitButton>
    </form>
  );
}

function ImportOutcome({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  if ("created" in outcome)
    return (
      <p role="status" className="muted">
        Imported {outcome.created} {outcome.created === 1 ? "job" : "jobs"}.
      </p>
    );
  if ("message" in outcome)
    return (
      <p role="alert" className="field-error">
        {outcome.message}
      </p>
    );
  return (
    <div role="alert" className="import-errors">
      <p className="field-error">Nothing was imported. Fix these lines and import the file again:</p>
      <ul aria-label="Lines to fix">
        {outcome.errors.map((e) => (
          <li key={`${e.line}-${e.error}`}>
            Line {e.line}: {e.error}
          </li>
        ))}
      </ul>
    </div>
  );
}

async function sendCsv(text: string): Promise<Outcome> {
  if (!text.trim()) return { message: "Choose a CSV file or paste its lines" };
  try {
    const answer = await http
      .post("jobs/import", { body: text, headers: { "Content-Type": "text/csv" } })
      .json<ImportAnswer>();
    if (answer.errors?.length) return { errors: answer.errors };
    return { created: answer.created ?? 0 };
  } catch (error) {
    // A refused file answers its lines' errors in the body, beside (or instead of) the usual error.
    if (error instanceof HTTPError) {
      const body = (await error.response
        .clone()
        .json()
        .catch(() => null)) as ImportAnswer | null;
      if (body?.errors?.length) return { errors: body.errors };
    }
    const refusal = await apiErrorOf(error);
    return { message: refusal?.message ?? "Could not reach the server; import again when online" };
  }
}
