// A table's WebSocket: hello (with the seat's token, or none to watch), then the snapshot and
// one event per version. A gap in the versions or a "stale" refusal asks for a fresh snapshot;
// a lost connection reconnects (and gets a snapshot). Moves go out as intents.

const FATAL = new Set(["bad_token", "not_found", "left", "hello_first"]);

export class TableSocket {
  /** handlers: {snapshot(msg), event(msg), seats(msg), error(msg), ack(msg), chat(msg), status(text)} */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.version = 0;
    this.closed = false;
    this.conn = null;
    this.delay = 250;
    this.counter = 0;
    // the id of the intent sent on this connection and not answered yet (an ack or an error
    // names it): a snapshot that comes first (the hello's) does not answer it
    this.pending = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const conn = new WebSocket(`${scheme}://${location.host}/tables/${this.tableId}/ws`);
    this.conn = conn;
    conn.addEventListener("open", () => {
      this.delay = 250;
      conn.send(JSON.stringify(this.token ? { type: "hello", token: this.token } : { type: "hello" }));
      this.handlers.status?.("connected");
    });
    conn.addEventListener("message", (e) => this.receive(JSON.parse(e.data)));
    conn.addEventListener("close", () => {
      if (this.conn !== conn) return;
      this.conn = null;
      this.pending = null; // its answer is lost with the connection; the next snapshot tells
      if (this.closed) return;
      this.handlers.status?.("reconnecting");
      setTimeout(() => !this.closed && this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }

  receive(message) {
    switch (message.type) {
      case "snapshot":
        this.version = message.version;
        this.handlers.snapshot(message);
        break;
      case "event":
        if (message.version !== this.version + 1) {
          if (message.version > this.version) this.askSnapshot();
          return;
        }
        this.version = message.version;
        this.handlers.event(message);
        break;
      case "seats":
        this.handlers.seats?.(message);
        break;
      case "ack":
        if (message.intent === this.pending) this.pending = null;
        this.handlers.ack?.(message);
        break;
      case "chat-line":
      case "chat-history":
      case "muted":
        this.handlers.chat?.(message);
        break;
      case "error":
        // an error that names no intent (a message refused for the rate) may be the move's answer
        if (message.intent === undefined || message.intent === this.pending) this.pending = null;
        if (message.code === "stale") this.askSnapshot();
        if (message.code === "full") this.delay = 5000; // the table is full: try again later
        if (FATAL.has(message.code)) this.closed = true;
        this.handlers.error?.(message);
        break;
      default:
        break;
    }
  }

  askSnapshot() {
    this.send({ type: "snapshot" });
  }

  /** Send a move (a move word) at the latest version; returns the intent's id. */
  move(move) {
    this.counter += 1;
    const id = `web-${Date.now().toString(36)}-${this.counter}`;
    if (this.send({ type: "intent", id, move, version: this.version })) this.pending = id;
    return id;
  }

  isOpen() {
    return Boolean(this.conn && this.conn.readyState === WebSocket.OPEN);
  }

  send(message) {
    if (this.conn && this.conn.readyState === WebSocket.OPEN) {
      this.conn.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    if (this.conn) this.conn.close();
    this.conn = null;
  }
}
