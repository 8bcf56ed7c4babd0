// The end of a hand and of the match, in a dialog that takes the focus: who went out, the
// itemised score sheet of every side (seed 000's sheet), running totals; at the end of the
// match the winner, the final scores and the hands played.
import { el, formatPoints } from "/static/cards.js";
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
  if (!result) {
    if (dialog.open) dialog.close();
    ui.dialogShown = null;
    return;
  }
  const key = `${table.hand}:${table.status}`;
  if (ui.dialogShown !== key) {
    ui.dialogShown = key;
    openResult();
  }
}

/** Show the result dialog and move the focus into it. */
export function openResult() {
  const dialog = $("result-dialog");
  if (!dialog.open) dialog.showModal();
  const next = $("btn-next");
  const target = !next.hidden ? next : $("btn-lobby");
  target.focus();
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
  const next = $("btn-next");
  next.hidden = !(isPlayer() && table.status === "hand_over");
  next.disabled = next.hidden;
  $("result-wait").hidden = isPlayer() || table.status !== "hand_over";
}

/** Rows the engine built (the `views` branch's sheet), when the result carries them. */
function sentRows(result) {
  const rows = result.sheet || result.rows;
  if (!Array.isArray(rows) || !rows.length) return null;
  return rows.map((row) => {
    const label = Array.isArray(row) ? row[0] : row.label || row.name || "";
    const cells = Array.isArray(row) ? row.slice(1) : row.cells || row.values || [];
    return {
      label: String(label),
      cls: (!Array.isArray(row) && row.kind) || "",
      cells: cells.map((c) => (typeof c === "object" && c !== null
        ? { text: c.text ?? formatPoints(c.value), value: c.value }
        : { text: typeof c === "number" ? formatPoints(c) : String(c), value: typeof c === "number" ? c : undefined })),
    };
  });
}

/** The rows derived here from the result's items (until the engine sends its own). */
function derivedRows(msg, result) {
  const { table } = msg;
  const sides = result.sides || [];
  const wentOutSide = sideOfSeat(table, result.went_out);
  const rows = [];
  const row = (label, cells, cls = "") => rows.push({ label, cells, cls });
  const items = sides.map((s) => s.items || {});
  const count = (n, each) => ({ text: n ? `${n} \u00d7 ${each} = ${formatPoints(n * each)}` : "\u2013", value: n * each });
  row("Natural canastas", items.map((i) => count(i.natural_canastas || 0, 500)));
  row("Mixed canastas", items.map((i) => count(i.mixed_canastas || 0, 300)));
  const extra = items.map((i) => (i.canasta_bonus || 0) - 500 * (i.natural_canastas || 0) - 300 * (i.mixed_canastas || 0));
  if (items.some((i, k) => (i.wild_canastas || 0) > 0 || extra[k] !== 0)) {
    row("Wild card canastas", items.map((i, k) => ({ text: `${i.wild_canastas || 0}: ${formatPoints(extra[k])}`, value: extra[k] })));
  }
  row("Red threes", items.map((i) => {
    const n = i.red_threes || 0;
    const pts = i.red_three_points || 0;
    const text = !n ? "\u2013" : pts === 100 * n ? `${n} \u00d7 100 = ${formatPoints(pts)}` : `${n}: ${formatPoints(pts)}`;
    return { text, value: pts };
  }));
  row("Going out", items.map((i, side) => ({
    text: i.going_out ? formatPoints(i.going_out) + (result.concealed && side === wentOutSide ? " (concealed)" : "") : "\u2013",
    value: i.going_out || 0,
  })));
  row("Bonuses", sides.map((s) => ({ text: formatPoints(s.bonuses), value: s.bonuses })), "subtotal");
  row("Melded cards", items.map((i) => ({ text: formatPoints(i.melded || 0), value: i.melded || 0 })));
  row("Cards left in hand", items.map((i) => ({ text: formatPoints(i.in_hand || 0), value: i.in_hand || 0 })));
  row("Hand total", sides.map((s) => ({ text: formatPoints(s.total), value: s.total })), "total");
  return rows;
}

function scoreSheet(msg, result) {
  const { table } = msg;
  const tableEl = el("table", "score-sheet");
  const caption = el("caption", "visually-hidden", `Score sheet of hand ${table.hand}`);
  tableEl.append(caption);
  const head = el("tr");
  const corner = el("th", "", "Item");
  corner.scope = "col";
  head.append(corner);
  table.sides.forEach((_, side) => {
    const th = el("th", "", sideNames(table, side));
    th.scope = "col";
    if (isPlayer() && sideOfSeat(table, ui.seat) === side) th.classList.add("mine");
    head.append(th);
  });
  const thead = el("thead");
  thead.append(head);
  tableEl.append(thead);
  const tbody = el("tbody");
  const rows = sentRows(result) || derivedRows(msg, result);
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
  const t = el("table", cls);
  const caption = el("caption", "visually-hidden", "Hands played");
  t.append(caption);
  const head = el("tr");
  const corner = el("th", "", "Hand");
  corner.scope = "col";
  head.append(corner);
  table.sides.forEach((_, side) => {
    const th = el("th", "", sideNames(table, side));
    th.scope = "col";
    head.append(th);
  });
  const thead = el("thead");
  thead.append(head);
  t.append(thead);
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
