/** A job's status as people read it (DESIGN.md "Jobs and routes"), for the dispatcher, the driver and the customer. */
export const JOB_STATUS_WORDS: Record<string, string> = {
  scheduled: "Scheduled",
  en_route: "On the way",
  arrived: "Arrived",
  completed: "Completed",
  skipped: "Skipped",
  cancelled: "Cancelled",
};

export const jobStatusWords = (status: string) => JOB_STATUS_WORDS[status] ?? status;

/** Statuses after which nothing more happens at the stop. */
export const isFinished = (status: string) => status === "completed" || status === "skipped" || status === "cancelled";
