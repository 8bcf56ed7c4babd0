// The game page: one websocket per tab (docs/protocol.md).  Each `state` message is compared
// with the one on display (what moved, for the motion, the log and the new-card marks), then
// the whole table is rendered again; only the page's own state lives between messages.
import { el } from "/static/cards.js";
import { clearAll, onResolved, onResolveRefused, setStatus, showHint, wireActions } from "/static/game/actions.js";
import { connect, hasToken, request, send, setConnection, setToken, startPings } from "/static/game/connection.js";
import { renderHand } from "/static/game/hand.js";
import { onKey } from "/static/game/keys.js";
import { changeOf, newCards, renderLog } from "/static/game/log.js";
import { capture, pace, play, reduced, setSpeed, settle, speed } from "/static/game/motion.js";
import { fit, fitLog } from "/static/game/fit.js";
import {
  renderActions, renderCenter, renderHeader, renderPlayers, renderScores, renderSides,
} from "/static/game/render.js";
import { renderReviewButtons, startReview } from "/static/game/review.js";
import { focusResultAction, openResult, renderHistory, renderResultDialog } from "/static/game/sheet.js";
import { $, handCards, isPlayer, myTurn, playerName, ui } from "/static/game/state.js";
import { sentence } from "/static/game/words.js";
import { showTournament } from "/static/tournament/banner.js"; // -- duplicate tournaments (issue 31): the banner

const queue = []; // state messages waiting to be shown, oldest first
let holdUntil = 0; // the previous move by another player stays on show until then
let timer = null;

// -- messages -----------------------------------------------------------------------------

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      ui.helloPending = false;
      ui.attempts = 0;
      ui.role = message.role;
      ui.seat = message.seat;
      setConnection("connected", "connected");
      hideNotice();
      document.body.classList.toggle("spectator", message.role === "spectator");
      startPings();
      break;
    case "state":
      queue.push(message);
      pump();
      showElsewhere(message.elsewhere || 0);
      break;
    case "renewed":
      // The new link replaces the old one in the address bar (no reload); the old one opens nothing now.
      setToken(message.token);
      history.replaceState(null, "", message.link);
      setStatus("This seat has a new link (in the address bar); the old one no longer opens it.");
      break;
    case "ack": {
      const what = ui.pending.get(message.id);
      ui.pending.delete(message.id);
      ui.selected.clear();
      ui.choosing = false;
      const input = $("move-input");
      if (what && input.value.trim() === what) input.value = "";
      setStatus("");
      if (ui.last) render();
      break;
    }
    case "chat":
      showChat(message.messages || []);
      break;
    case "hint":
      ui.pending.delete(message.id);
      showHint(message);
      break;
    case "moves":
      ui.pending.delete(message.id);
      onResolved(message);
      break;
    case "error":
      onError(message);
      break;
    default:
      break; // pong and anything newer
  }
}

function onError(message) {
  const what = ui.pending.get(message.id);
  ui.pending.delete(message.id);
  if (onResolveRefused(message.id)) return; // a lookup for a greyed-out button: nothing to show
  if (ui.helloPending && (message.error === "bad_token" || message.error === "no_table")) {
    ui.fatal = true;
    showNotice(
      message.error === "no_table"
        ? "There is no table at this address. Start a new one in the lobby."
        : "This link does not open a seat at this table. Ask the table's creator for your own link.",
    );
    if (ui.ws) ui.ws.close();
    return;
  }
  if (message.error === "bad_token" && !ui.helloPending && !what) {
    ui.fatal = true;
    showNotice("This seat's link was renewed, so this old link no longer opens it. Ask its player for the new one.");
    return;
  }
  let text = message.message || message.error || "refused";
  if (message.error === "stale_state") text = "The table moved on before your move arrived; look again and retry.";
  // The engine's sentence as a player reads it: cards as on the table, without the move in notation.
  setStatus(sentence(text), "error");
}

// -- the display queue: other players' moves one by one --------------------------------------

function pump() {
  clearTimeout(timer);
  while (queue.length) {
    const wait = holdUntil - performance.now();
    if (wait > 0 && pace() > 0) {
      timer = setTimeout(pump, wait);
      return;
    }
    // Far behind (a reconnect, a slow tab): skip to the newest states.
    if (queue.length > 8) queue.splice(0, queue.length - 2);
    const change = show(queue.shift());
    const other = change && change.entries.length === 1 && !(isPlayer() && change.last.seat === ui.seat);
    holdUntil = other ? performance.now() + pace() : 0;
  }
}

function show(message) {
  const prev = ui.last;
  settle(); // cards still in flight land before the table is drawn again
  const rects = prev && !reduced() && !ui.review ? capture() : null;
  const change = changeOf(prev, message);
  updateFresh(prev, message, change);
  ui.last = message;
  render();
  if (rects) play(change, rects, message);
  return change;
}

/** Cards you drew or took with the pile stay marked until your next move. */
function updateFresh(prev, next, change) {
  if (!prev || prev.table.hand !== next.table.hand) {
    ui.fresh = [];
    ui.freshHand = next.table.hand;
  }
  if (!change || !isPlayer()) return;
  const own = change.entries.filter((e) => e.seat === ui.seat);
  if (!own.length) return;
  ui.freshHand = next.table.hand;
  ui.fresh = newCards(next, own[own.length - 1]); // your draw's or pile's cards, as the server recorded them
}

// -- render -------------------------------------------------------------------------------

function render() {
  const msg = ui.last;
  if (ui.review || !msg) return; // a review draws its own points of a finished hand (review.js)
  const { table, view } = msg;
  // Keep only selected cards still in hand; a hint lasts for its own state only.
  const keys = new Set(handCards(view).map((c) => c.key));
  for (const key of [...ui.selected]) if (!keys.has(key)) ui.selected.delete(key);
  if (ui.hintFor !== msg.state) ui.highlight.clear();

  renderSeatButton();
  const body = document.body;
  body.dataset.stateId = String(msg.state);
  body.dataset.phase = view.phase;
  body.dataset.myTurn = String(myTurn(msg));
  body.dataset.status = table.status;
  body.dataset.hand = String(table.hand);

  renderHeader(msg);
  renderScores(msg);
  renderPlayers(msg);
  renderSides(msg);
  renderCenter(msg);
  renderHand(msg);
  renderActions(msg);
  renderLog(msg);
  renderHistory(msg);
  renderResultDialog(msg);
  renderReviewButtons(msg);
  showTournament(msg).then((added) => added && ui.last && fit()); // -- tournaments (issue 31): the board; the standings
  fit();
  const mine = myTurn(msg);
  if (mine && !ui.wasMyTurn && !document.querySelector("dialog[open]")) {
    const active = document.activeElement;
    if (!active || active === document.body) $("my-area").scrollIntoView({ block: "nearest" });
  }
  ui.wasMyTurn = mine;
}

// -- notices, settings, panel -------------------------------------------------------------

function showNotice(text) {
  const box = $("notice");
  box.replaceChildren(el("p", "", text));
  const home = el("a", "button", "Go to the lobby");
  home.href = "/";
  box.append(home);
  box.hidden = false;
}

function hideNotice() {
  $("notice").hidden = true;
}

/** Warn this seat's player that `count` other connections hold the seat too. */
function showElsewhere(count) {
  $("elsewhere").hidden = count === 0;
  $("elsewhere-count").textContent = String(count);
}

function setFourColour(on) {
  document.body.classList.toggle("four-colour", on);
  try {
    localStorage.setItem("canasta:four-colour", on ? "1" : "0");
  } catch {
    /* storage unavailable */
  }
}

/** Chat lines, as text only (never markup): the seat's name, then what was written. */
function showChat(lines) {
  const box = $("chat");
  for (const line of lines) {
    const li = el("li");
    // The seat's name as the table shows it now (a seat taken in the lobby shows its taker's name).
    const name = ui.last && typeof line.seat === "number" ? playerName(ui.last.table, line.seat) : line.name;
    li.append(el("span", "who", `${name}: `), el("span", "", line.text));
    box.append(li);
  }
  while (box.children.length > 50) box.firstElementChild.remove();
  box.scrollTop = box.scrollHeight;
}

/**
 * Leaving the seat to the computer (at the top of the side panel, the first thing in the menu) and, while
 * it is left, taking it back: the action bar says so in place of the moves, and the result dialog offers it.
 */
function renderSeatButton() {
  const msg = ui.last;
  const button = $("btn-seat");
  const mine = msg && isPlayer() ? msg.table.players[ui.seat] : null;
  const left = Boolean(mine && mine.computer);
  button.hidden = !mine;
  button.textContent = left ? "Take my seat back" : "Leave my seat to the computer";
  document.body.classList.toggle("seat-is-left", left);
  $("seat-left").hidden = !left;
  const inDialog = $("btn-dialog-seat");
  const focused = document.activeElement === inDialog;
  inDialog.hidden = !left;
  if (focused && !left && $("result-dialog").open) focusResultAction(); // the seat is back: ready for the next hand
}

function toggleSeat() {
  const mine = ui.last && isPlayer() ? ui.last.table.players[ui.seat] : null;
  if (mine) request(mine.computer ? "back" : "leave", {}, mine.computer ? "take back" : "leave");
}

function setPanel(open) {
  document.body.classList.toggle("panel-open", open);
  $("btn-panel").setAttribute("aria-expanded", String(open));
  if (open) $("sidebar").focus();
}

function start() {
  wireActions();
  startReview(render);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    if (location.hash.length > 20) location.reload();
  });
  document.querySelector(".skip-link").addEventListener("click", (event) => {
    event.preventDefault();
    const card = document.querySelector("#hand .card");
    if (card) card.focus();
  });
  let four = false;
  try {
    four = localStorage.getItem("canasta:four-colour") === "1";
  } catch {
    /* storage unavailable */
  }
  $("four-colour").checked = four;
  setFourColour(four);
  $("four-colour").addEventListener("change", (e) => setFourColour(e.target.checked));
  $("speed").value = speed();
  setSpeed(speed());
  $("speed").addEventListener("change", (e) => setSpeed(e.target.value));
  $("btn-panel").addEventListener("click", () => setPanel(!document.body.classList.contains("panel-open")));
  $("btn-panel-close").addEventListener("click", () => {
    setPanel(false);
    $("btn-panel").focus();
  });
  $("btn-result").addEventListener("click", openResult);
  $("btn-renew").addEventListener("click", () => send({ type: "renew", id: "renew" }));
  $("btn-look").addEventListener("click", () => $("result-dialog").close());
  $("btn-rematch").addEventListener("click", () => request("rematch", {}, "rematch"));
  for (const id of ["btn-seat", "btn-seat-back", "btn-dialog-seat"]) $(id).addEventListener("click", toggleSeat);
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (text && send({ type: "chat", text: text.slice(0, 300), id: "chat" })) input.value = "";
  });
  window.addEventListener("resize", () => {
    if (ui.last) fit();
  });
  // A longer line in the status may take a second row of the action bar: the table makes room.
  document.addEventListener("status-changed", () => {
    if (ui.last) requestAnimationFrame(fit);
  });
  // The side panel opens over the table on a smaller screen: its log is measured when it shows.
  $("btn-panel").addEventListener("click", () => requestAnimationFrame(fitLog));
  // The preset's fields (decks, bonuses) for the points on the table; the page works without them.
  fetch("/api/setup").then((r) => (r.ok ? r.json() : null)).then((setup) => {
    if (setup) ui.presets = setup.presets;
    if (ui.last) render();
  }).catch(() => {});
  if (!hasToken()) {
    showNotice("This link has no seat in it. Open the link the table's creator sent you, or start a table in the lobby.");
    setConnection("no seat", "closed");
    return;
  }
  connect(onMessage);
  clearAll();
}

start();
