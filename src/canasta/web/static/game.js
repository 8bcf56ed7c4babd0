// The game page: one websocket per tab (docs/protocol.md).  Every `state` message
// replaces the whole render; only the UI's own state (selected cards, the open pile
// chooser, a hint) is kept here between messages.
import {
  actionOf, buildGroups, cardLabel, cardsInText, el, formatPoints, handGroupOf, isBlackThree,
  isWild, makeCard, MELD_RANK_ORDER, normalizeCard, rankLabel, rankOf, rankPlural, sortCards,
} from "/static/cards.js";

const $ = (id) => document.getElementById(id);
const ACTIONS = ["draw", "pile", "meld", "discard", "ask", "yes", "no"];
const PHASE_WORDS = {
  draw: "draw or take the pile",
  play: "meld or discard",
  answer: "answer: may their partner go out?",
  over: "hand over",
};

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let token = decodeURIComponent(location.hash.slice(1));

const ui = {
  ws: null,
  attempts: 0, // reconnect attempts since the last welcome
  fatal: false, // a hello that can never work (bad token, no table): stop reconnecting
  role: null, // "player" | "spectator"
  seat: null,
  last: null, // the latest state message
  counter: 0, // move ids
  pending: new Map(), // id -> what was sent (move text, "next", "hint")
  selected: new Set(), // "KD#1": the second KD of the sorted hand
  highlight: new Set(), // cards a hint or a pile choice points at ("KD#0")
  hintFor: null, // state id the highlight belongs to
  choosing: false, // the pile chooser is open
  choiceMoves: null, // moves offered in the chooser instead of the pile moves (where wild cards go)
  pingTimer: null,
  helloPending: false, // hello sent on this connection, no welcome yet
  wasMyTurn: false,
};

// -- connection -----------------------------------------------------------------------

function connect() {
  if (!token) {
    showNotice("This link has no seat in it. Open the link the table's creator sent you, or start a table in the lobby.");
    setConnection("no seat", "closed");
    return;
  }
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
    setTimeout(connect, Math.min(ui.attempts, 5) * 1000);
  });
}

function send(message) {
  if (!ui.ws || ui.ws.readyState !== WebSocket.OPEN) {
    setStatus("Not connected; reconnecting\u2026", "error");
    return false;
  }
  ui.ws.send(JSON.stringify(message));
  return true;
}

function setConnection(text, state) {
  const node = $("connection");
  node.textContent = text;
  node.dataset.state = state;
}

/** A move, `next` or `hint`, named with the state it was chosen in and an id. */
function request(type, fields = {}, what = type) {
  if (!ui.last) return;
  ui.counter += 1;
  const id = ui.counter;
  ui.pending.set(id, what);
  send({ type, ...fields, state: ui.last.state, id });
}

function sendMove(text) {
  text = text.trim().replace(/\s+/g, " ");
  if (!text) return;
  request("move", { move: text }, text);
}

// -- messages -------------------------------------------------------------------------

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
      ui.last = message;
      render();
      showElsewhere(message.elsewhere || 0);
      break;
    case "renewed":
      // The new link replaces the old one in the address bar (no reload); the old one opens nothing now.
      token = message.token;
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
    case "hint":
      ui.pending.delete(message.id);
      showHint(message);
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
  if (ui.helloPending && (message.error === "bad_token" || message.error === "no_table")) {
    // The hello failed: this link will not open a seat, so stop trying.
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
    // Someone renewed this seat's link: this copy of the old link is closed for good.
    ui.fatal = true;
    showNotice("This seat's link was renewed, so this old link no longer opens it. Ask its player for the new one.");
    return;
  }
  let text = message.message || message.error || "refused";
  if (message.error === "stale_state") text = "The table moved on before your move arrived; look again and retry.";
  // The engine's reason for an illegal move already ends with the move itself.
  const named = message.error === "illegal_move" || what === "hint" || what === "next";
  const shown = what && !named ? `${text} (${what})` : text;
  setStatus(shown, "error");
}

function startPings() {
  clearInterval(ui.pingTimer);
  ui.pingTimer = setInterval(() => {
    if (ui.ws && ui.ws.readyState === WebSocket.OPEN) ui.ws.send(JSON.stringify({ type: "ping", id: "keepalive" }));
  }, 25000);
}

// -- derived facts ----------------------------------------------------------------------

const isPlayer = () => ui.role === "player" && ui.seat !== null && ui.seat !== undefined;

function sideOfSeat(table, seat) {
  if (seat === null || seat === undefined) return null;
  const index = (table.sides || []).findIndex((seats) => seats.includes(seat));
  return index >= 0 ? index : null;
}

function playerName(table, seat) {
  const p = (table.players || []).find((x) => x.seat === seat);
  return p ? p.name : seat === null || seat === undefined ? "table" : `Seat ${seat + 1}`;
}

function sideLetter(side) {
  return String.fromCharCode(65 + side);
}

/** "Ann & North": the names of a side's players. */
function sideNames(table, side) {
  return (table.sides[side] || []).map((s) => playerName(table, s)).join(" & ");
}

function sideTitle(table, side) {
  const mine = isPlayer() && sideOfSeat(table, ui.seat) === side;
  const names = sideNames(table, side);
  return mine ? `${names} (your side)` : names;
}

function myTurn(msg) {
  return isPlayer() && msg.view.phase !== "over" && msg.table.status === "playing" && msg.view.to_act === ui.seat;
}

/** The action words of the legal moves: the server lists every one, even when `legal` is cut short. */
function legalActions(msg) {
  return new Set(msg.actions || (msg.legal || []).map(actionOf));
}


/** The hand, sorted, each card with its key ("KD#1": the second KD). */
function handCards(view) {
  const seen = new Map();
  return sortCards(view.hand || []).map((code) => {
    const n = seen.get(code) || 0;
    seen.set(code, n + 1);
    return { code, key: `${code}#${n}` };
  });
}

function selectedCodes() {
  if (!ui.last) return [];
  return handCards(ui.last.view).filter((c) => ui.selected.has(c.key)).map((c) => c.code);
}

/** Keys of the hand cards named in `codes` (each code used once per copy). */
function keysFor(view, codes) {
  const wanted = new Map();
  for (const code of codes) wanted.set(code, (wanted.get(code) || 0) + 1);
  const keys = new Set();
  for (const card of handCards(view)) {
    const n = wanted.get(card.code) || 0;
    if (n > 0) {
      keys.add(card.key);
      wanted.set(card.code, n - 1);
    }
  }
  return keys;
}

// -- render ---------------------------------------------------------------------------

function render() {
  const msg = ui.last;
  const { table, view } = msg;
  // Keep only selected cards still in hand; a hint lasts for its own state only.
  const keys = new Set(handCards(view).map((c) => c.key));
  for (const key of [...ui.selected]) if (!keys.has(key)) ui.selected.delete(key);
  if (ui.hintFor !== msg.state) ui.highlight.clear();

  const body = document.body;
  body.dataset.stateId = String(msg.state);
  body.dataset.phase = view.phase;
  body.dataset.myTurn = String(myTurn(msg));
  body.dataset.status = table.status;
  document.title = (myTurn(msg) ? "\u25cf Your turn \u2014 " : "") + "Canasta";

  renderHeader(msg);
  renderScores(msg);
  renderPlayers(msg);
  renderSides(msg);
  renderCenter(msg);
  renderHand(msg);
  renderActions(msg);
  // When the turn comes round, bring the hand into view (the action bar is already there).
  const mine = myTurn(msg);
  if (mine && !ui.wasMyTurn) revealHand();
  ui.wasMyTurn = mine;
  renderLog(msg);
  renderHandResult(msg);
  renderMatchResult(msg);
  renderHistory(msg);
}

function revealHand() {
  const area = $("my-area");
  const box = area.getBoundingClientRect();
  const bar = $("action-bar").getBoundingClientRect();
  if (box.top < 0 || box.bottom > bar.top) area.scrollIntoView({ block: "end", behavior: "smooth" });
}

function renderHeader(msg) {
  const { table, view } = msg;
  const status = { playing: "playing", hand_over: "hand over", over: "match over" }[table.status] || table.status;
  $("table-status").textContent = `Hand ${table.hand} \u00b7 ${status}${ui.role === "spectator" ? " \u00b7 watching" : ""}`;
  const turn = $("turn");
  if (table.status === "over") turn.textContent = "Match over";
  else if (table.status === "hand_over" || view.phase === "over") turn.textContent = "Hand over";
  else {
    const name = playerName(table, view.to_act);
    const mine = isPlayer() && view.to_act === ui.seat;
    if (view.phase === "answer") {
      // to_act answers; turn is the partner who asked.
      const asker = playerName(table, view.turn);
      turn.textContent = mine
        ? `${asker} asks you, ${name}: \u201cMay I go out?\u201d Answer yes or no`
        : `${name} answers ${asker}: may they go out?`;
    } else {
      const who = mine ? `Your turn, ${name}` : name;
      turn.textContent = `${who}: ${PHASE_WORDS[view.phase] || view.phase}`;
    }
  }
  turn.dataset.seat = String(view.to_act);
  turn.classList.toggle("mine", myTurn(msg));
}

function renderScores(msg) {
  const { table, view } = msg;
  const box = $("scores");
  box.replaceChildren();
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  table.sides.forEach((seats, side) => {
    const item = el("div", "score-side");
    item.dataset.side = String(side);
    if (side === mySide) item.classList.add("mine");
    if (table.winner === side) item.classList.add("winner");
    item.append(el("span", "score-names", sideTitle(table, side)));
    const score = el("span", "score-value", formatPoints(table.scores[side]));
    score.dataset.value = String(table.scores[side]);
    item.append(score);
    const minimum = (view.minimums || [])[side];
    if (minimum !== undefined && table.status === "playing") {
      const melded = Object.keys((view.melds || [])[side] || {}).length > 0;
      const min = el("span", "score-min", `first meld ${minimum}${melded ? " \u2713" : ""}`);
      min.dataset.minimum = String(minimum);
      min.title = melded ? "This side has made its first meld this hand" : "Points this side's first meld must reach";
      item.append(min);
    }
    box.append(item);
  });
  box.append(el("span", "score-target", `playing to ${formatPoints(table.target)}`));
}

function renderPlayers(msg) {
  const { table, view } = msg;
  const list = $("players");
  list.replaceChildren();
  for (const p of table.players) {
    const li = el("li", "player");
    li.dataset.seat = String(p.seat);
    const side = sideOfSeat(table, p.seat);
    li.dataset.side = String(side);
    if (p.seat === ui.seat && isPlayer()) li.classList.add("me");
    if (table.status === "playing" && view.to_act === p.seat && view.phase !== "over") li.classList.add("acting");
    const dot = el("span", "dot" + (p.connected || p.kind !== "human" ? " on" : ""));
    dot.setAttribute("aria-hidden", "true");
    const me = p.seat === ui.seat && isPlayer();
    const name = el("span", "player-name", p.name + (me && p.name.toLowerCase() !== "you" ? " (you)" : ""));
    li.append(dot, name);
    const facts = [];
    if (p.kind !== "human") facts.push(`computer (${p.kind})`);
    else facts.push(p.connected ? "online" : "away");
    if (view.dealer === p.seat) facts.push("dealer");
    if (view.sitting_out === p.seat) facts.push("sits out");
    li.append(el("span", "player-facts muted", facts.join(" \u00b7 ")));
    const size = (view.hand_sizes || [])[p.seat];
    if (size !== undefined && view.sitting_out !== p.seat) {
      const count = el("span", "hand-size", `${size} card${size === 1 ? "" : "s"}`);
      count.dataset.seat = String(p.seat);
      li.append(count);
    }
    const known = (view.known || [])[p.seat] || [];
    if (known.length && p.seat !== ui.seat) {
      const k = el("span", "known");
      k.append(el("span", "muted", "known: "));
      k.append(el("span", "known-cards", sortCards(known).join(" ")));
      k.title = "Cards this player took with the pile and has not played";
      li.append(k);
    }
    if (side !== null && table.sides[side].length > 1) li.append(el("span", "side-tag", `side ${sideLetter(side)}`));
    list.append(li);
  }
}

function renderSides(msg) {
  const { table, view } = msg;
  const box = $("sides");
  box.replaceChildren();
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  // Other sides first; the player's own side sits next to the hand.
  const order = table.sides.map((_, i) => i).sort((a, b) => (a === mySide) - (b === mySide) || a - b);
  for (const side of order) {
    const panel = el("section", "side");
    panel.dataset.side = String(side);
    if (side === mySide) panel.classList.add("mine");
    const head = el("h2", "side-head", sideTitle(table, side));
    panel.append(head);
    const reds = (view.red_threes || [])[side] || [];
    const melds = (view.melds || [])[side] || {};
    const row = el("div", "melds");
    if (reds.length) {
      const r = el("div", "red-threes");
      r.dataset.side = String(side);
      r.append(el("span", "meld-title", "Red threes"));
      const cards = el("div", "meld-cards");
      for (const code of reds) cards.append(makeCard(code, { small: true }));
      r.append(cards);
      row.append(r);
    }
    const ranks = Object.keys(melds).sort((a, b) => MELD_RANK_ORDER.indexOf(a) - MELD_RANK_ORDER.indexOf(b));
    const canastas = (view.canastas || [])[side] || {};
    for (const rank of ranks) row.append(renderMeld(side, rank, melds[rank], side === mySide, canastas[rank]));
    if (!ranks.length) {
      const minimum = (view.minimums || [])[side];
      row.append(el("p", "muted empty-melds", minimum ? `No melds yet (first meld needs ${minimum})` : "No melds yet"));
    }
    panel.append(row);
    box.append(panel);
  }
}

/** One meld; `kind` is the canasta's kind as the view names it ("natural", "mixed", "wild"), if it is one. */
function renderMeld(side, rank, cards, mine, kind) {
  const node = el(mine ? "button" : "div", "meld");
  if (mine) {
    node.type = "button";
    node.addEventListener("click", () => onMeldClick(rank));
  }
  node.dataset.side = String(side);
  node.dataset.rank = rank;
  const wilds = cards.filter(isWild).length;
  const title = el("span", "meld-title");
  title.append(el("span", "meld-rank", rank === "W" ? "Wild" : rankLabel(rank)));
  title.append(el("span", "meld-count", `\u00d7${cards.length}`));
  let label = `${cards.length} ${rankPlural(rank)}`;
  if (kind) {
    title.append(el("span", "badge " + kind, kind));
    node.classList.add("canasta", kind);
    label += `, ${kind} canasta`;
  }
  if (wilds) label += `, ${wilds} wild`;
  node.append(title);
  const row = el("div", "meld-cards");
  for (const code of sortCards(cards)) row.append(makeCard(code, { small: true }));
  node.append(row);
  node.setAttribute("aria-label", mine ? `${label}. Add the selected cards to it` : label);
  return node;
}

function renderCenter(msg) {
  const { table, view } = msg;
  $("stock-size").textContent = String(view.stock_size);
  const pile = view.pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const topBox = $("pile-top");
  topBox.replaceChildren();
  topBox.dataset.card = top || "";
  if (top) topBox.append(makeCard(top));
  else topBox.append(el("div", "card empty", "empty"));
  // Cards under the top peek out, so a discarded wild card (laid crosswise) still shows.
  const under = pile.slice(0, -1).filter((c) => isWild(c) || c === "3H" || c === "3D");
  topBox.classList.toggle("has-wild-under", under.length > 0);
  $("pile-size").textContent = String(pile.length);

  const state = $("pile-state");
  const parts = [];
  if (!pile.length) parts.push("empty");
  else {
    if (view.pile_frozen) parts.push("FROZEN");
    if (view.pile_blocked) {
      const why = isBlackThree(top) ? "black three" : isWild(top) ? "wild card" : "red three";
      parts.push(`blocked: ${why} on top`);
    }
    if (!view.pile_frozen && !view.pile_blocked) parts.push("open");
  }
  state.textContent = parts.join(" \u00b7 ");
  state.classList.toggle("frozen", Boolean(view.pile_frozen));
  state.classList.toggle("blocked", Boolean(top && view.pile_blocked));
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  if (mySide !== null && pile.length && !view.pile_frozen
      && Object.keys((view.melds || [])[mySide] || {}).length === 0) {
    state.append(el("span", "pile-note", " (frozen for your side until it melds)"));
  }
  if (under.length) state.append(el("span", "pile-note", ` \u00b7 under it: ${under.map(cardLabel).join(" ")}`));

  const log = table.log || [];
  const lastMove = log.length ? log[log.length - 1] : null;
  $("last-move").textContent = lastMove ? `Last: ${playerName(table, lastMove.seat)} \u2014 ${lastMove.move}` : "";
  renderPileChoices(msg);
}

function renderPileChoices(msg) {
  const box = $("pile-choices");
  box.replaceChildren();
  const legal = msg.legal || [];
  const offered = ui.choiceMoves ? ui.choiceMoves.filter((m) => legal.includes(m)) : [];
  const moves = offered.length ? offered : legal.filter((m) => actionOf(m) === "pile");
  if (!ui.choosing || !myTurn(msg) || !moves.length) {
    ui.choosing = false;
    ui.choiceMoves = null;
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.append(el("p", "choices-title", actionOf(moves[0]) === "pile" ? "Take the pile with:" : "Meld:"));
  for (const move of moves) {
    const button = el("button", "choice");
    button.type = "button";
    button.dataset.move = move;
    const cards = cardsInText(move);
    button.textContent = cards.length ? cards.map(cardLabel).join(" ") : "the top card onto your meld";
    button.title = move;
    button.addEventListener("click", () => sendMove(move));
    // Point at the cards this choice uses.
    const preview = () => markHighlight(keysFor(msg.view, cards));
    button.addEventListener("mouseenter", preview);
    button.addEventListener("focus", preview);
    box.append(button);
  }
  const cancel = el("button", "choice cancel", "Cancel");
  cancel.type = "button";
  cancel.addEventListener("click", closeChooser);
  box.append(cancel);
}

function closeChooser() {
  ui.choosing = false;
  if (ui.last) renderPileChoices(ui.last);
  markHighlight(ui.hintFor === (ui.last && ui.last.state) ? ui.highlight : new Set());
}

function renderHand(msg) {
  const { view } = msg;
  const hand = $("hand");
  const focusedKey = document.activeElement && document.activeElement.closest && hand.contains(document.activeElement)
    ? document.activeElement.dataset.key : null;
  hand.replaceChildren();
  const cards = handCards(view);
  $("hand-count").textContent = isPlayer() ? `(${cards.length} card${cards.length === 1 ? "" : "s"})` : "";
  if (!cards.length && isPlayer()) {
    hand.append(el("p", "muted", view.sitting_out === ui.seat ? "You sit out this hand." : "No cards in hand."));
  }
  let group = null;
  let groupKey = null;
  for (const card of cards) {
    const g = handGroupOf(card.code);
    if (g !== groupKey) {
      group = el("div", "hand-group");
      group.dataset.group = g;
      hand.append(group);
      groupKey = g;
    }
    const button = makeCard(card.code, { tag: "button" });
    button.dataset.key = card.key;
    const on = ui.selected.has(card.key);
    button.setAttribute("aria-pressed", String(on));
    button.classList.toggle("selected", on);
    button.classList.toggle("hint", ui.highlight.has(card.key));
    button.addEventListener("click", () => toggleCard(card.key));
    group.append(button);
  }
  if (focusedKey) {
    const again = hand.querySelector(`.card[data-key="${CSS.escape(focusedKey)}"]`);
    if (again) again.focus();
  }
  updateSelectionInfo();
}

function toggleCard(key) {
  if (ui.selected.has(key)) ui.selected.delete(key);
  else ui.selected.add(key);
  const button = $("hand").querySelector(`.card[data-key="${CSS.escape(key)}"]`);
  if (button) {
    const on = ui.selected.has(key);
    button.setAttribute("aria-pressed", String(on));
    button.classList.toggle("selected", on);
  }
  updateSelectionInfo();
}

function clearSelection() {
  ui.selected.clear();
  for (const button of $("hand").querySelectorAll(".card")) {
    button.setAttribute("aria-pressed", "false");
    button.classList.remove("selected");
  }
  closeChooser();
  updateSelectionInfo();
}

function markHighlight(keys) {
  for (const button of $("hand").querySelectorAll(".card")) button.classList.toggle("hint", keys.has(button.dataset.key));
}

function updateSelectionInfo() {
  const codes = selectedCodes();
  $("selection-info").textContent = codes.length ? `Selected: ${codes.map(cardLabel).join(" ")}` : "";
}

function renderActions(msg) {
  const { table, view } = msg;
  const words = legalActions(msg);
  const mine = myTurn(msg);
  for (const action of ACTIONS) {
    const button = $("btn-" + action);
    button.disabled = !words.has(action);
  }
  const answering = mine && view.phase === "answer";
  $("btn-yes").hidden = !answering && !words.has("yes");
  $("btn-no").hidden = !answering && !words.has("no");
  // Between hands and after the match only "Next hand" makes sense.
  const playing = table.status === "playing";
  for (const id of [...ACTIONS.filter((a) => a !== "yes" && a !== "no"), "hint", "clear"]) {
    $("btn-" + id).hidden = !playing;
  }
  $("move-form").hidden = !playing;
  const next = $("btn-next");
  next.hidden = !(isPlayer() && table.status === "hand_over");
  next.disabled = next.hidden;
  $("btn-hint").disabled = !mine;
  // Asking needs a partner and the ask_partner rule (on unless the rules say otherwise).
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  const noPartner = mySide !== null && (table.sides[mySide] || []).length < 2;
  const noAsking = view.rules && typeof view.rules === "object" && view.rules.ask_partner === false;
  if (playing) $("btn-ask").hidden = (noPartner || noAsking) && !words.has("ask");
  $("action-bar").classList.toggle("my-turn", mine);
}

function renderLog(msg) {
  const { table } = msg;
  const list = $("log");
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren();
  for (const entry of table.log || []) {
    const li = el("li", "log-entry");
    li.dataset.seat = String(entry.seat);
    li.append(el("span", "log-who", playerName(table, entry.seat)));
    li.append(moveText(entry.move));
    list.append(li);
  }
  if (!(table.log || []).length) list.append(el("li", "muted", "A new hand has been dealt."));
  if (nearBottom || list.dataset.rendered !== String(table.hand)) list.scrollTop = list.scrollHeight;
  list.dataset.rendered = String(table.hand);
}

/** A move's notation with its card codes coloured by suit (the text itself stays notation). */
function moveText(text) {
  const span = el("span", "log-move");
  for (const part of String(text).split(/(\s+|,)/)) {
    const code = normalizeCard(part);
    if (code && part.length === 2) {
      const c = el("span", "log-card " + (code === "JK" ? "joker" : "suit-" + code[1]), part);
      span.append(c);
    } else span.append(document.createTextNode(part));
  }
  return span;
}

// -- end of hand: the score sheet (seed 000) -------------------------------------------------

function currentResult(msg) {
  if (msg.view.result) return msg.view.result;
  const results = msg.table.results || [];
  return msg.table.status !== "playing" && results.length ? results[results.length - 1] : null;
}

function renderHandResult(msg) {
  const { table } = msg;
  const box = $("hand-result");
  const result = table.status !== "playing" || msg.view.phase === "over" ? currentResult(msg) : null;
  box.replaceChildren();
  box.hidden = !result;
  if (!result) return;
  box.append(el("h2", "", `Hand ${table.hand} is over`));
  const out = result.went_out;
  if (out !== null && out !== undefined) {
    box.append(el("p", "went-out", `${playerName(table, out)} went out${result.concealed ? " concealed" : ""}.`));
  } else box.append(el("p", "went-out", "Nobody went out: the stock ran out."));
  box.append(scoreSheet(msg, result));
  if (table.status === "hand_over") {
    box.append(el("p", "muted", isPlayer() ? "Press \u201cNext hand\u201d when everyone is ready." : "Waiting for the next deal."));
  }
}

/** The score sheet: one column per side, one row per item, as on seed 000's sheet. */
function scoreSheet(msg, result) {
  const { table } = msg;
  const sides = result.sides || [];
  const tableEl = el("table", "score-sheet");
  const head = el("tr");
  head.append(el("th", "", "What happened"));
  sides.forEach((_, side) => {
    const th = el("th", "", sideNames(table, side));
    th.scope = "col";
    head.append(th);
  });
  const thead = el("thead");
  thead.append(head);
  tableEl.append(thead);
  const tbody = el("tbody");
  const row = (label, cells, cls = "") => {
    const tr = el("tr", cls);
    const th = el("th", "", label);
    th.scope = "row";
    tr.append(th);
    for (const cell of cells) {
      const td = el("td", "", cell.text);
      if (cell.value !== undefined) td.dataset.value = String(cell.value);
      tr.append(td);
    }
    tbody.append(tr);
  };
  // The hand's rows come from the server (scoring.sheet_rows): text and points per side.
  for (const r of result.sheet || []) {
    row(r.label, r.cells.map((text, side) => ({ text, value: r.values[side] })), r.style);
  }
  row("Running total", table.scores.map((v) => ({ text: formatPoints(v), value: v })), "running");
  if (table.status !== "over") {
    row("Next first meld", table.minimums.map((v) => ({ text: String(v), value: v })), "muted-row");
  }
  tableEl.append(tbody);
  return tableEl;
}

function renderMatchResult(msg) {
  const { table } = msg;
  const box = $("match-result");
  box.replaceChildren();
  const winner = table.winner;
  box.hidden = winner === null || winner === undefined;
  if (box.hidden) return;
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  const title = mySide === winner ? "You win the match!" : `${sideNames(table, winner)} win${table.sides[winner].length > 1 ? "" : "s"} the match`;
  box.append(el("h2", "", title));
  const scores = table.sides.map((_, side) => `${sideNames(table, side)} ${formatPoints(table.scores[side])}`);
  box.append(el("p", "", `Final scores: ${scores.join(" \u00b7 ")} (target ${formatPoints(table.target)}).`));
  const again = el("a", "button primary", "New game");
  again.href = "/";
  box.append(again);
}

/** Every finished hand with its totals and running totals. */
function renderHistory(msg) {
  const { table } = msg;
  const box = $("results-history");
  const results = table.results || [];
  box.replaceChildren();
  if (!results.length) {
    box.append(el("p", "muted", "No hand finished yet."));
    return;
  }
  const t = el("table", "history");
  const head = el("tr");
  head.append(el("th", "", "Hand"));
  table.sides.forEach((_, side) => head.append(el("th", "", sideNames(table, side))));
  const thead = el("thead");
  thead.append(head);
  t.append(thead);
  const tbody = el("tbody");
  const running = table.sides.map(() => 0);
  results.forEach((result, index) => {
    const tr = el("tr");
    tr.append(el("th", "", String(index + 1)));
    const totals = result.totals || (result.sides || []).map((s) => s.total);
    totals.forEach((total, side) => {
      running[side] += total;
      const td = el("td");
      td.append(el("span", "", formatPoints(total)));
      td.append(el("span", "muted running", ` \u2192 ${formatPoints(running[side])}`));
      td.dataset.value = String(total);
      tr.append(td);
    });
    tbody.append(tr);
  });
  t.append(tbody);
  box.append(t);
}

// -- actions --------------------------------------------------------------------------

function setStatus(text, kind = "info") {
  const node = $("status");
  node.textContent = text;
  node.dataset.kind = kind;
}

function showNotice(text) {
  const box = $("notice");
  box.replaceChildren(el("p", "", text));
  const home = el("a", "button", "Go to the lobby");
  home.href = "/";
  box.append(home);
  box.hidden = false;
}

/** Warn this seat's player that `count` other connections hold the seat too. */
function showElsewhere(count) {
  $("elsewhere").hidden = count === 0;
  $("elsewhere-count").textContent = String(count);
}

function hideNotice() {
  $("notice").hidden = true;
}

function doDraw() {
  sendMove("draw");
}

function doMeld() {
  const cards = selectedCodes();
  if (!cards.length) {
    setStatus("Select the cards to meld first.", "error");
    return;
  }
  sendBuilt("meld", buildGroups(cards), cards);
}

/** The legal moves of `action` that lay exactly these cards (any grouping). */
function legalWithCards(action, cards) {
  const wanted = sortCards([...cards]).join(" ");
  return ((ui.last && ui.last.legal) || []).filter(
    (m) => actionOf(m) === action && sortCards(cardsInText(m)).join(" ") === wanted,
  );
}

/**
 * Send the move built from the selection; when the page cannot tell where the wild
 * cards go (several ranks selected), use the legal moves with exactly these cards.
 */
function sendBuilt(action, built, cards) {
  if (!built.error) {
    sendMove(action + " " + built.groups.join(", "));
    return;
  }
  const matches = legalWithCards(action, cards);
  if (matches.length === 1) sendMove(matches[0]);
  else if (matches.length > 1) {
    ui.choosing = true;
    ui.choiceMoves = matches;
    renderPileChoices(ui.last);
    setStatus("Choose where your wild cards go.", "info");
  } else setStatus(built.error, "error");
}

function onMeldClick(rank) {
  const cards = selectedCodes();
  if (!cards.length) {
    setStatus(`Select cards in your hand, then click your ${rankPlural(rank)} to add them.`, "info");
    return;
  }
  const built = buildGroups(cards, { targetRank: rank });
  if (built.error) setStatus(built.error, "error");
  else sendMove("meld " + built.groups.join(", "));
}

function doPile() {
  const msg = ui.last;
  if (!msg) return;
  const cards = selectedCodes();
  const pile = msg.view.pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  if (cards.length) {
    // The top card is implied: name only the cards from the hand.
    sendBuilt("pile", buildGroups(cards, { fallbackRank: top && !isWild(top) ? rankOf(top) : null }), cards);
    return;
  }
  const moves = (msg.legal || []).filter((m) => actionOf(m) === "pile");
  if (moves.length === 1) sendMove(moves[0]);
  else if (moves.length === 0) sendMove("pile");
  else {
    ui.choosing = true;
    renderPileChoices(msg);
    const first = $("pile-choices").querySelector("button");
    if (first) first.focus();
    setStatus("Choose how to take the pile, or select cards and press Take pile.", "info");
  }
}

function doDiscard() {
  const cards = selectedCodes();
  if (cards.length !== 1) {
    setStatus("select one card to discard", "error");
    return;
  }
  sendMove("discard " + cards[0]);
}

function doNext() {
  request("next", {}, "next");
}

function doHint() {
  setStatus("Thinking\u2026", "info");
  request("hint", {}, "hint");
}

function showHint(message) {
  setStatus(`Hint: ${message.move} \u2014 ${message.reason}`, "hint");
  if (!ui.last) return;
  ui.hintFor = ui.last.state;
  ui.highlight = keysFor(ui.last.view, cardsInText(message.move));
  markHighlight(ui.highlight);
}

function onTypedMove(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text) return;
  const word = actionOf(text);
  if (word === "next") doNext();
  else if (word === "hint") doHint();
  else sendMove(text);
}

const ACTION_HANDLERS = {
  draw: doDraw,
  pile: doPile,
  meld: doMeld,
  discard: doDiscard,
  ask: () => sendMove("ask"),
  yes: () => sendMove("yes"),
  no: () => sendMove("no"),
};

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
  if (event.key === "Escape") {
    if (typing) target.blur();
    clearSelection();
    setStatus("");
    return;
  }
  if (typing) return;
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    if (moveCardFocus(event.key === "ArrowLeft" ? -1 : 1)) event.preventDefault();
    return;
  }
  const key = event.key.toLowerCase();
  const answering = ui.last && myTurn(ui.last) && ui.last.view.phase === "answer";
  const handOver = ui.last && ui.last.table.status === "hand_over";
  const map = {
    d: doDraw, p: doPile, m: doMeld, x: doDiscard, a: ACTION_HANDLERS.ask, y: ACTION_HANDLERS.yes,
    n: handOver && !answering ? doNext : ACTION_HANDLERS.no, h: doHint,
    "/": () => $("move-input").focus(),
  };
  const handler = map[key];
  if (!handler || !isPlayer()) return;
  event.preventDefault();
  handler();
}

/** Arrow keys walk the hand. */
function moveCardFocus(step) {
  const cards = [...$("hand").querySelectorAll(".card")];
  const index = cards.indexOf(document.activeElement);
  if (index < 0) return false;
  const next = cards[Math.max(0, Math.min(cards.length - 1, index + step))];
  next.focus();
  return true;
}

function setFourColour(on) {
  document.body.classList.toggle("four-colour", on);
  try {
    localStorage.setItem("canasta:four-colour", on ? "1" : "0");
  } catch {
    /* storage unavailable */
  }
}

function start() {
  for (const action of ACTIONS) $("btn-" + action).addEventListener("click", ACTION_HANDLERS[action]);
  $("btn-next").addEventListener("click", doNext);
  $("btn-hint").addEventListener("click", doHint);
  $("btn-clear").addEventListener("click", () => {
    clearSelection();
    setStatus("");
  });
  $("move-form").addEventListener("submit", onTypedMove);
  $("btn-renew").addEventListener("click", () => send({ type: "renew", id: "renew" }));
  document.addEventListener("keydown", onKey);
  // Another seat's link for this table changes only the fragment: start over with it.
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
  connect();
}

start();
