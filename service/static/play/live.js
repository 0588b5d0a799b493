// Follow a match live: the event stream as NDJSON over fetch().
//
// Why fetch and NDJSON rather than EventSource and SSE: fetch can send the
// bearer token in `Authorization` (EventSource cannot, and would need a
// stream ticket per connection), and EventSource dispatches a named event
// only to a listener registered for that name, so the client would have to
// know every event type in advance. NDJSON is one JSON value per line: the
// Match (no `seq`), then Events. On a drop we reconnect with `after` = the
// last seq seen, so no event is skipped or repeated.

const RECONNECT_MS = [500, 1000, 2000, 5000];

export class LiveMatch {
  /**
   * `onMatch(match)` for each Match sent, `onEvent(event)` for each event in
   * order, `onEnd()` when the server ends the stream for good (match over).
   */
  constructor(api, matchId, token, { onMatch, onEvent, onEnd, onState }) {
    Object.assign(this, { api, matchId, token, onMatch, onEvent, onEnd, onState });
    this.lastSeq = 0;
    this.stopped = false;
    this.controller = null;
  }

  /** Follow the events after seq `after` (the last one the page has shown). */
  start(after) {
    this.lastSeq = after;
    this._loop();
  }

  stop() {
    this.stopped = true;
    this.controller?.abort();
  }

  async _loop() {
    for (let failures = 0; !this.stopped; ) {
      try {
        const ended = await this._follow();
        if (ended) {
          this.onEnd?.();
          return;
        }
        failures = 0;
      } catch (error) {
        if (this.stopped) return;
        failures++;
        this.onState?.(`reconnecting (${error.message || error})`);
      }
      await new Promise((r) => setTimeout(r, RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]));
    }
  }

  /** One connection; true when there is nothing more to follow (match over, token revoked). */
  async _follow() {
    this.controller = new AbortController();
    const query = `?after=${this.lastSeq}`;
    const headers = { Accept: "application/x-ndjson" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const response = await fetch(`${this.api.base}/v1/matches/${this.matchId}/stream${query}`,
      { headers, signal: this.controller.signal });
    if (response.status >= 400 && response.status < 500 && response.status !== 429) {
      return true; // the token was revoked (resigned) or the match is gone: nothing to follow
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    this.onState?.("live");
    let finished = false;
    let buffer = "";
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      const lines = buffer.split("\n");
      buffer = lines.pop(); // a partial line waits for the next chunk
      for (const line of lines) {
        if (line.trim()) finished = this._message(JSON.parse(line)) || finished;
      }
    }
    return finished;
  }

  /** Handle one message; true when it shows the match is over. */
  _message(message) {
    if ("seq" in message) {
      if (message.seq <= this.lastSeq) return false; // never twice
      this.lastSeq = message.seq;
      this.onEvent(message);
      return false;
    }
    if ("error" in message) throw new Error(message.error); // too_far_behind: reconnect
    this.onMatch(message);
    return message.status === "finished";
  }
}
