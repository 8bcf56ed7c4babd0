// One websocket per tab (docs/protocol.md): hello, reconnecting with back-off, pings, and
// requests named with the state they were chosen in.
import { $, ui } from "/static/game/state.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let token = decodeURIComponent(location.hash.slice(1));
let onMessage = () => {};
let pingTimer = null;

export const hasToken = () => Boolean(token);
/** The table's id and this seat's token, for the page's HTTP requests (the review, the record). */
export const tableOf = () => tableId;
export const tokenOf = () => token;
export const setToken = (value) => {
  token = value;
};

/** Open the socket; `handler` gets every parsed message. */
export function connect(handler) {
  onMessage = handler || onMessage;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(tableId)}`);
  ui.ws = ws;
  setConnection(ui.attempts ? "reconnecting" : "connecting", "connecting");
  ws.addEventListener("open", () => {
    ui.helloPending = true;
    send({ type: "hello", token });
  });
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(message);
  });
  ws.addEventListener("close", () => {
    if (ui.ws !== ws) return;
    ui.ws = null;
    if (ui.fatal) {
      setConnection("closed", "closed");
      return;
    }
    // Back off 1 s, 2 s, ... 5 s; a welcome resets the count.
    ui.attempts += 1;
    setConnection("reconnecting", "reconnecting");
    setTimeout(() => connect(), Math.min(ui.attempts, 5) * 1000);
  });
}

export function send(message) {
  if (!ui.ws || ui.ws.readyState !== WebSocket.OPEN) return false;
  ui.ws.send(JSON.stringify(message));
  return true;
}

export function setConnection(text, state) {
  const node = $("connection");
  node.textContent = text;
  node.dataset.state = state;
  node.title = `Connection: ${text}`;
}

/** A move, `next` or `hint`, named with the state it was chosen in and an id; false if not sent. */
export function request(type, fields = {}, what = type) {
  if (!ui.last) return false;
  ui.counter += 1;
  const id = ui.counter;
  ui.pending.set(id, what);
  return send({ type, ...fields, state: ui.last.state, id });
}

export function startPings() {
  clearInterval(pingTimer);
  pingTimer = setInterval(() => send({ type: "ping", id: "keepalive" }), 25000);
}
