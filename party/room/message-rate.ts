/**
 * Messages per second one socket may send to its workspace's room (issue 23). A browser sends a
 * pull per poke: a few a second at most. A token bucket per connection
 * (burst BURST, refilled PER_SECOND a second); past it the room closes the socket with
 * TOO_MANY_MESSAGES (the client reconnects with a new ticket, which costs it a D1 round trip).
 */
export const MESSAGES_PER_SECOND = 20;
export const MESSAGE_BURST = 60;
/** 4xxx: an application close code; 4429 mirrors HTTP's 429. */
export const TOO_MANY_MESSAGES = 4429;

interface Bucket {
  tokens: number;
  at: number;
}

const buckets = new WeakMap<object, Bucket>();

/** Takes one message from this connection's budget; false once it is spent (and it is logged once). */
export function takeMessage(connection: object, now = Date.now()): boolean {
  const bucket = buckets.get(connection) ?? { tokens: MESSAGE_BURST, at: now };
  bucket.tokens = Math.min(MESSAGE_BURST, bucket.tokens + ((now - bucket.at) / 1000) * MESSAGES_PER_SECOND);
  bucket.at = now;
  buckets.set(connection, bucket);
  if (bucket.tokens < 1) {
    console.warn(
      JSON.stringify({
        audit: true,
        event: "sync.bound_exceeded",
        bound: "socket_messages_per_second",
        at: new Date(now).toISOString(),
      }),
    );
    return false;
  }
  bucket.tokens -= 1;
  return true;
}
