/**
 * A push service faked at its HTTP boundary (issue 41): it holds a browser's subscription keys,
 * as a browser would, and decrypts what the Worker sends it the way the browser does (RFC 8291,
 * aes128gcm), after checking the VAPID signature (RFC 8292). Install its `fetch` in place of the
 * global one; every request is kept with its plaintext.
 */
const text = new TextEncoder();
const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromB64url = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

async function hmac(key: Uint8Array, data: Uint8Array) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data));
}

export interface Received {
  endpoint: string;
  status: number;
  /** The decrypted payload, parsed as JSON. */
  message: unknown;
  /** The JWT's claims, once its ES256 signature verified under the `k=` key. */
  vapid: { aud: string; sub: string; exp: number; key: string };
  headers: Headers;
}

export class FakePushService {
  received: Received[] = [];
  private browsers = new Map<string, { pair: CryptoKeyPair; publicRaw: Uint8Array; auth: Uint8Array }>();
  constructor(private status = 201) {}

  /** A browser subscribing at `endpoint`: the body it would POST to /api/push-subscriptions. */
  async subscribe(endpoint: string) {
    const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
      "deriveBits",
    ])) as CryptoKeyPair;
    const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
    const auth = crypto.getRandomValues(new Uint8Array(16));
    this.browsers.set(endpoint, { pair, publicRaw, auth });
    return { endpoint, keys: { p256dh: b64url(publicRaw), auth: b64url(auth) } };
  }

  answerWith(status: number) {
    this.status = status;
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const browser = this.browsers.get(request.url);
    if (!browser) return new Response("unknown subscription", { status: 404 });
    const body = new Uint8Array(await request.arrayBuffer());
    const message = JSON.parse(new TextDecoder().decode(await decrypt(body, browser)));
    const vapid = await verifiedVapid(request.headers.get("authorization") ?? "");
    this.received.push({ endpoint: request.url, status: this.status, message, vapid, headers: request.headers });
    return new Response(null, { status: this.status });
  };
}

/** WebCrypto's ECDH parameters; workers-types spells the standard `public` member `$public`, workerd reads `public`. */
const ecdhWith = (publicKey: CryptoKey) =>
  ({ name: "ECDH", public: publicKey }) as unknown as SubtleCryptoDeriveKeyAlgorithm;

/** RFC 8291 section 3 and RFC 8188, as the receiving browser does it. */
async function decrypt(body: Uint8Array, browser: { pair: CryptoKeyPair; publicRaw: Uint8Array; auth: Uint8Array }) {
  const salt = body.slice(0, 16);
  const idLength = body[20]!;
  const senderRaw = body.slice(21, 21 + idLength);
  const ciphertext = body.slice(21 + idLength);
  const sender = await crypto.subtle.importKey("raw", senderRaw, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const shared = new Uint8Array(await crypto.subtle.deriveBits(ecdhWith(sender), browser.pair.privateKey, 256));
  const prkKey = await hmac(browser.auth, shared);
  const keyInfo = concat(text.encode("WebPush: info\0"), browser.publicRaw, senderRaw, new Uint8Array([1]));
  const ikm = await hmac(prkKey, keyInfo);
  const prk = await hmac(salt, ikm);
  const cek = (await hmac(prk, text.encode("Content-Encoding: aes128gcm\0\x01"))).slice(0, 16);
  const nonce = (await hmac(prk, text.encode("Content-Encoding: nonce\0\x01"))).slice(0, 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  let end = padded.length - 1;
  while (padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("not the last record's delimiter");
  return padded.slice(0, end);
}

async function verifiedVapid(authorization: string) {
  const [, token, key] = authorization.match(/^vapid t=([^,]+), k=(.+)$/) ?? [];
  if (!token || !key) throw new Error(`no VAPID authorization: ${authorization}`);
  const [header, claims, signature] = token.split(".");
  const raw = fromB64url(key);
  const publicKey = await crypto.subtle.importKey(
    "jwk",
    { kty: "EC", crv: "P-256", x: b64url(raw.slice(1, 33)), y: b64url(raw.slice(33, 65)) },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const valid = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    publicKey,
    fromB64url(signature!),
    text.encode(`${header}.${claims}`),
  );
  if (!valid) throw new Error("VAPID signature does not verify");
  return {
    ...(JSON.parse(new TextDecoder().decode(fromB64url(claims!))) as { aud: string; sub: string; exp: number }),
    key,
  };
}
