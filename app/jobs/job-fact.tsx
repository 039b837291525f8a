/** One line of a stop's facts (a term and its value, in the story's <dl>); `testId` for the browser tests. */
export function Fact({ term, value, testId }: { term: string; value: string; testId?: string }) {
  return (
    <div className="job-fact" data-testid={testId}>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
