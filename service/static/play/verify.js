// Check a finished match's dice in the browser, as the README's step 6 does
// in Python (service/model/dice.py): the revealed secret hashes to the commitment
// shown since the match began, and the engine seed is HMAC-SHA256(secret,
// "tabula-dice:" + client seed) (first 8 bytes, top bit cleared). Re-running
// the actions needs the engine: `tabula replay --verify` or the README.

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text) => new Uint8Array(text.match(/../g).map((pair) => parseInt(pair, 16)));

/** A big integer field of raw JSON text, exactly (JSON.parse would round it). */
function bigField(rawJson, name) {
  const match = rawJson.match(new RegExp(`"${name}"\\s*:\\s*(null|-?\\d+)`));
  return !match || match[1] === "null" ? null : BigInt(match[1]);
}

/**
 * `rawReplay`: the replay's JSON text. Returns a list of {check, ok, detail}.
 * WebCrypto exists only in secure contexts (https, localhost): elsewhere
 * the list says so instead of checking.
 */
export async function verifyDice(rawReplay) {
  const replay = JSON.parse(rawReplay);
  if (!globalThis.crypto?.subtle) {
    return [{ check: "dice", ok: null, detail: "this page is not a secure context: open it over https or localhost" }];
  }
  const seed = bigField(rawReplay, "seed");
  if (replay.dice !== "fair") {
    const digest = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(String(seed))));
    return [{ check: "reproducible dice: the commitment is SHA-256 of the seed the creator chose",
      ok: digest === replay.seed_commitment, detail: `seed ${seed}` }];
  }
  const secret = replay.proof.server_secret;
  const clientSeed = bigField(rawReplay.slice(rawReplay.indexOf('"proof"')), "client_seed");
  const commitment = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
  const key = await crypto.subtle.importKey("raw", fromHex(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const message = new TextEncoder().encode(`tabula-dice:${clientSeed === null ? "" : clientSeed}`);
  const mac = new DataView(await crypto.subtle.sign("HMAC", key, message));
  const derived = mac.getBigUint64(0) >> 1n;
  return [
    { check: "the revealed secret is the one committed to before the first move",
      ok: commitment === replay.seed_commitment, detail: `sha256(secret) = ${commitment.slice(0, 16)}…` },
    { check: "the engine seed comes from that secret and the creator's seed only",
      ok: derived === seed, detail: `seed ${seed}` },
  ];
}
