/**
 * Where a webhook may point (issue 34, docs/decisions/0028): checked when a rule is written and
 * again before every delivery attempt, so a rule stored before these checks, or a URL edited in
 * D1, is refused too. The URL is parsed with the WHATWG `URL` parser, the same one `fetch` uses,
 * so what is checked is what would be called: decimal, hex and octal IPv4 forms (`2130706433`,
 * `0x7f.1`) are already dotted quads, IPv4-mapped IPv6 is already `::ffff:7f00:1`.
 *
 * Refused everywhere: user names or passwords in the URL, private (10/8, 172.16/12, 192.168/16,
 * 100.64/10 shared), link-local (169.254/16 with the cloud metadata address, fe80::/10),
 * unique-local (fc00::/7), multicast and reserved addresses, IPv6 forms that embed an IPv4
 * address, and names that are not public: single labels, `localhost`, `localhost.*`,
 * `*.localhost`, `*.local`, `*.internal` (metadata.google.internal), `*.home.arpa`, `*.lan`.
 * Loopback (127/8, ::1, localhost) and plain http are allowed only where a local receiver is the
 * point: loopback in development (`npm start`, the benches), http in development and tests.
 */
export type Environment = "development" | "test" | "production";

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export function webhookTargetProblem(raw: string, environment: Environment): string | null {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    return `The webhook URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Enter a URL";
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && environment !== "production"))
    return "The webhook URL must use https";
  if (url.username || url.password) return "The webhook URL must not carry a user name or password";
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const loopback = isLoopback(host);
  if (loopback)
    return environment === "development" ? null : "The webhook URL must be a public address, not this machine";
  if (host.startsWith("[")) return ipv6Problem(host.slice(1, -1));
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return ipv4Problem(host);
  return nameProblem(host);
}

const NOT_PUBLIC = "The webhook URL must be a public address, not a private, local or metadata one";

function isLoopback(host: string) {
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function ipv4Problem(host: string): string | null {
  const [a, b] = host.split(".").map(Number) as [number, number, number, number];
  const refused =
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224;
  return refused ? NOT_PUBLIC : null;
}

function ipv6Problem(host: string): string | null {
  const first = host.split(":")[0] ?? "";
  const head = first === "" ? 0 : parseInt(first, 16);
  // `::…` forms (unspecified, loopback, IPv4-compatible and -mapped), 64:ff9b::/96 (NAT64)
  if (host.startsWith("::") || host.startsWith("64:ff9b:")) return NOT_PUBLIC;
  if ((head & 0xfe00) === 0xfc00) return NOT_PUBLIC; // unique-local fc00::/7
  if ((head & 0xffc0) === 0xfe80 || (head & 0xffc0) === 0xfec0) return NOT_PUBLIC; // link-local, old site-local
  if ((head & 0xff00) === 0xff00) return NOT_PUBLIC; // multicast
  if (head === 0x2002 || host.startsWith("2001:0:") || host.startsWith("2001::")) return NOT_PUBLIC; // 6to4 and Teredo embed IPv4 addresses
  return null;
}

const PRIVATE_SUFFIXES = [".local", ".internal", ".home.arpa", ".lan", ".intranet", ".corp", ".localdomain"];

function nameProblem(host: string): string | null {
  if (!host.includes(".")) return NOT_PUBLIC; // single labels resolve on a local network, if at all
  if (host.startsWith("localhost.") || host.startsWith("metadata.") || host.startsWith("instance-data."))
    return NOT_PUBLIC;
  if (PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix))) return NOT_PUBLIC;
  return null;
}

/** What roles that cannot edit rules see of a webhook URL: its host only (Slack's and Zapier's URLs are secrets). */
export function webhookHostOnly(raw: string): string {
  try {
    return `${new URL(raw).protocol}//${new URL(raw).host}/…`;
  } catch {
    return "…";
  }
}
