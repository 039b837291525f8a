/**
 * Reports stored per second lately, for pacing pokes by how busy the fleet is now (not by how many
 * vehicles it has: a big fleet with five vehicles out at night is as quiet as a small one). Counts
 * in spans of SPAN_MS: the rate is the last whole span's, or the current one's if that is higher
 * already, so a fleet that wakes up is paced within a span.
 */
export class ReportRate {
  static readonly SPAN_MS = 5_000;
  #start = 0;
  #count = 0;
  #previous = 0;

  add(reports: number, now = Date.now()) {
    this.#roll(now);
    this.#count += reports;
  }

  perSecond(now = Date.now()): number {
    this.#roll(now);
    return (Math.max(this.#previous, this.#count) * 1000) / ReportRate.SPAN_MS;
  }

  #roll(now: number) {
    const elapsed = now - this.#start;
    if (elapsed < ReportRate.SPAN_MS) return;
    // The span just ended counts only if it ended just now; a gap longer than a span was quiet.
    this.#previous = elapsed < 2 * ReportRate.SPAN_MS ? this.#count : 0;
    this.#count = 0;
    this.#start = now;
  }
}
