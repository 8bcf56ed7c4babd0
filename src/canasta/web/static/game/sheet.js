// The end of a hand and of the match, in a dialog that takes the focus: who went out, the
// itemised score sheet of every side (seed 000's sheet), running totals; at the end of the
// match the winner, the final scores and the hands played.
import { cardLabel, el, formatPoints, isRedSuit } from "/static/cards.js";
import { $, isPlayer, playerName, sideNames, sideOfSeat, ui } from "/static/game/state.js";

export function currentResult(msg) {
  if (msg.view.result) return msg.view.result;
  const results = msg.table.results || [];
  return msg.table.status !== "playing" && results.length ? results[results.length - 1] : null;
}

export function renderResultDialog(msg) {
  const { table } = msg;
  const dialog = $("result-dialog");
  const result = table.status !== "playing" || msg.view.phase === "over" ? currentResult(msg) : null;
  renderHandResult(msg, result);
  renderMatchResult(msg);
  dialog.classList.toggle("match-over", table.status === "over");
  if (!result) {
    if (dialog.open) dialog.close();
    ui.dialogShown = null;
    return;
  }
  const key = `${table.match || 1}:${table.hand}:${table.status}`;
  if (ui.dialogShown !== key) {
    ui.dialogShown = key;
    openResult();
  }
}

/** Show the result dialog and move the focus into it. */
export function openResult() {
  const dialog = $("result-dialog");
  if (!dialog.open) dialog.showModal();
  focusResultAction();
}

/** The focus on the result dialog's first action: ready for the next hand, a rematch, or the lobby. */
export function focusResultAction() {
  const next = $("btn-next");
  const rematch = $("btn-rematch");
  const target = !next.hidden && !next.disabled ? next : !rematch.hidden ? rematch : $("btn-lobby");
  target.focus();
}

/** The cards left in each hand, turned up at the end of the hand (the view's `hands_left`). */
function handsLeft(msg, out) {
  const { table, view } = msg;
  const left = view.hands_left || [];
  if (!left.length) return null;
  const list = el("ul", "hands-left");
  list.setAttribute("aria-label", "Cards left in each hand");
  left.forEach((cards, seat) => {
    if (view.sitting_out === seat) return;
    const item = el("li", "", `${playerName(table, seat)}: `);
    if (!cards.length) item.append(el("span", "muted", seat === out ? "went out" : "no cards"));
    for (const code of cards) item.append(el("span", isRedSuit(code) ? "red" : "", cardLabel(code)), " ");
    list.append(item);
  });
  return list;
}

function renderHandResult(msg, result) {
  const { table } = msg;
  const box = $("hand-result");
  box.replaceChildren();
  $("result-title").textContent = table.status === "over" ? "The match is over" : `Hand ${table.hand} is over`;
  if (!result) return;
  if (table.status === "over") box.append(el("h3", "", `Hand ${table.hand}`));
  const out = result.went_out;
  if (out !== null && out !== undefined) {
    const side = sideOfSeat(table, out);
    const mine = isPlayer() && out === ui.seat;
    const text = `${mine ? "You" : playerName(table, out)} went out${result.concealed ? " concealed" : ""}`
      + (table.sides[side].length > 1 ? ` for ${sideNames(table, side)}.` : ".");
    box.append(el("p", "went-out", text));
  } else box.append(el("p", "went-out", "Nobody went out: the stock ran out."));
  box.append(scoreSheet(msg, result));
  const left = handsLeft(msg, out);
  if (left) box.append(left);
  const next = $("btn-next");
  const ready = table.ready || [];
  const mineReady = isPlayer() && ready.includes(ui.seat);
  next.hidden = !(isPlayer() && table.status === "hand_over");
  next.disabled = next.hidden || mineReady;
  const rematch = $("btn-rematch");
  rematch.hidden = !(isPlayer() && table.status === "over");
  rematch.disabled = rematch.hidden || mineReady;
  rematch.textContent = mineReady ? "Rematch asked" : "Rematch";
  const wait = $("result-wait");
  const waiting = (table.waiting || []).filter((seat) => !(isPlayer() && seat === ui.seat));
  if (table.status === "playing") wait.hidden = true;
  else if (mineReady || (!isPlayer() && table.status === "hand_over")) {
    wait.hidden = false;
    const names = waiting.map((seat) => playerName(table, seat)).join(", ");
    const what = table.status === "over" ? "a rematch" : "the next hand";
    wait.textContent = names ? `Waiting for ${names} (${what}).` : `Waiting for ${what}.`;
  } else if (table.status === "over" && ready.length) {
    const names = ready.map((seat) => playerName(table, seat)).join(", ");
    wait.hidden = false;
    wait.textContent = `${names} asked for a rematch.`;
  } else wait.hidden = true;
}

/** The hand's score-sheet rows as the engine built them (scoring.sheet_rows): label, cells, values, style. */
function sentRows(result) {
  return (result.sheet || []).map((row) => ({
    label: String(row.label),
    cls: row.style || "",
    cells: (row.cells || []).map((text, side) => ({ text: String(text), value: (row.values || [])[side] })),
  }));
}

/** A table with a hidden caption and a head row: ``corner``, then one column per side (``markMine``: yours marked). */
function sidesTable(table, cls, caption, corner, markMine) {
  const tableEl = el("table", cls);
  tableEl.append(el("caption", "visually-hidden", caption));
  const head = el("tr");
  for (const [side, text] of [[null, corner], ...table.sides.map((_, side) => [side, sideNames(table, side)])]) {
    const th = el("th", "", text);
    th.scope = "col";
    if (markMine && side !== null && isPlayer() && sideOfSeat(table, ui.seat) === side) th.classList.add("mine");
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  tableEl.append(thead);
  return tableEl;
}

function scoreSheet(msg, result) {
  const { table } = msg;
  const tableEl = sidesTable(table, "score-sheet", `Score sheet of hand ${table.hand}`, "Item", true);
  const tbody = el("tbody");
  const rows = sentRows(result);
  rows.push({ label: "Running total", cells: table.scores.map((v) => ({ text: formatPoints(v), value: v })), cls: "running" });
  if (table.status !== "over") {
    rows.push({ label: "Next first meld", cells: table.minimums.map((v) => ({ text: String(v), value: v })), cls: "muted-row" });
  }
  for (const { label, cells, cls } of rows) {
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
  $("btn-lobby").hidden = box.hidden;
  if (box.hidden) return;
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  const plural = table.sides[winner].length > 1;
  const title = mySide === winner ? "You win the match!" : `${sideNames(table, winner)} win${plural ? "" : "s"} the match`;
  box.append(el("p", "winner", title));
  const list = el("ul", "final-scores");
  table.sides.forEach((_, side) => {
    const li = el("li", side === winner ? "won" : "", `${sideNames(table, side)}: ${formatPoints(table.scores[side])}`);
    list.append(li);
  });
  box.append(list);
  const hands = (table.results || []).length;
  box.append(el("p", "", `${hands} hand${hands === 1 ? "" : "s"} played, to ${formatPoints(table.target)}.`));
  box.append(historyTable(table, "history-final"));
}

/** Every finished hand with its totals and running totals. */
export function historyTable(table, cls) {
  const t = sidesTable(table, cls, "Hands played", "Hand", false);
  const tbody = el("tbody");
  const running = table.sides.map(() => 0);
  (table.results || []).forEach((result, index) => {
    const tr = el("tr");
    const th = el("th", "", String(index + 1));
    th.scope = "row";
    tr.append(th);
    const totals = result.totals || (result.sides || []).map((s) => s.total);
    totals.forEach((total, side) => {
      running[side] += total;
      const td = el("td");
      td.append(el("span", "", formatPoints(total)));
      td.append(el("span", "running", ` \u2192 ${formatPoints(running[side])}`));
      td.dataset.value = String(total);
      tr.append(td);
    });
    tbody.append(tr);
  });
  t.append(tbody);
  return t;
}

export function renderHistory(msg) {
  const box = $("results-history");
  box.replaceChildren();
  if (!(msg.table.results || []).length) {
    box.append(el("p", "muted", "No hand finished yet."));
    return;
  }
  box.append(historyTable(msg.table, "history"));
}
