// A duplicate tournament's live standings (docs/tournament.md, "On the server"): polls the server every few
// seconds.  The link token after '#' (a person's seat link at one of its tables) says which table's played boards
// may be shown; it is sent in a header, never in the address.  After the tournament every board links each
// table's play of it, replayed at the table (static/tournament/replay.js).

const POLL_MS = 4000;
const id = decodeURIComponent(location.pathname.split("/").pop());
const token = location.hash.slice(1);

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text === null || text === undefined ? "" : String(text);
  if (className) td.className = className;
  row.append(td);
  return td;
}

/** Rows of [value, class] pairs or plain values; `mark(i)` says which rows are the requester's own. */
function fill(tbody, rows, classes = [], mark = () => false) {
  tbody.replaceChildren(...rows.map((values, i) => {
    const tr = document.createElement("tr");
    values.forEach((v, j) => cell(tr, v, classes[j]));
    if (mark(i)) tr.className = "you";
    return tr;
  }));
}

const roundOf = (t, board) => Math.floor(board / t.boards_per_round) + 1;

function boardText(t, table) {
  if (table.stopped) return "stopped at the round time";
  if (table.board === null) return "done";
  const round = t.rounds > 1 ? ` (round ${roundOf(t, table.board)})` : "";
  const late = table.late ? `, ${table.late} late` : "";
  return `${table.board + 1}${round}${late}`;
}

function clock(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function replayLink(t, table, board) { // drawn at the table by the game page's review, every hand face up
  const a = document.createElement("a");
  a.href = `/tournament/${encodeURIComponent(id)}/table/${table.table + 1}/board/${board + 1}`;
  a.textContent = `table ${table.table + 1}`;
  a.setAttribute("aria-label", `Board ${board + 1} as table ${table.table + 1} played it`);
  return a;
}

async function takeSeat(button, seat) {
  button.disabled = true;
  const status = document.getElementById("open-seat-status");
  try {
    const answer = await fetch(`/api/tournaments/${encodeURIComponent(id)}/tables/${seat.table + 1}/seats/${seat.seat + 1}`,
      { method: "POST", credentials: "same-origin" });
    const body = await answer.json().catch(() => ({}));
    if (answer.ok) {
      window.location.href = body.link;
      return;
    }
    status.textContent = answer.status === 401 ? "Sign in first (Your account), then take a seat."
      : body.message || `The server answered ${answer.status}.`;
    status.classList.add("error");
  } catch {
    status.textContent = "The server cannot be reached; try again.";
  }
  button.disabled = false;
}

function renderOpenSeats(t) {
  const box = document.getElementById("open-seats");
  const seats = token ? [] : t.open_seats || []; // a person with a seat has one
  box.hidden = !seats.length;
  document.getElementById("open-seat-list").replaceChildren(...seats.map((seat) => {
    const item = document.createElement("li");
    item.className = "room-seat";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Table ${seat.table + 1}, seat ${seat.seat + 1}`;
    button.addEventListener("click", () => takeSeat(button, seat));
    item.append(button);
    return item;
  }));
}

function render(t) {
  renderOpenSeats(t);
  document.title = `${t.name} · Canasta`;
  document.getElementById("title").textContent = t.name;
  const where = t.your_table === null ? "" : ` · you are at table ${t.your_table + 1}`;
  const rounds = t.rounds > 1 ? ` in ${t.rounds} rounds` : "";
  let time = "";
  if (!t.over && t.round_ends && t.rounds_closed < t.rounds) {
    time = ` · round ${t.rounds_closed + 1} ends at ${clock(t.round_ends[t.rounds_closed])}`;
  }
  document.getElementById("summary").textContent = `${t.preset}, ${t.tables.length} tables, ${t.boards} boards`
    + rounds + (t.over ? " · final results" : " · in play") + time + where;
  fill(document.querySelector("#tables tbody"), t.tables.map((table) => [
    table.table + 1,
    table.players.map((p, seat) => (table.away.includes(seat) ? `${p} (computer)` : p)).join(", "),
    boardText(t, table),
    `${table.played} of ${t.boards}`,
  ]), [], (i) => i === t.your_table);
  document.getElementById("standings-note").textContent = t.visible_boards
    ? (t.over ? `Final, over all ${t.boards} boards.` : `Over the first ${t.visible_boards} board(s).`)
    : "No board is shown yet: a board's results appear once your table (or, without a seat, every table) has played it.";
  fill(document.querySelector("#standings tbody"), t.standings.map((s) => [
    (s.tied ? "=" : "") + (s.rank ?? ""), s.entry, s.players.join(", "), s.boards, s.matchpoints,
    s.percent === null ? "" : s.percent,
  ]), ["", "", "", "num wide", "num", "num"]);
  const boards = document.getElementById("boards");
  if (!t.board_scores.length) {
    const p = document.createElement("p");
    p.className = "room-empty";
    p.textContent = "Each board appears here once it can be shown to you.";
    boards.replaceChildren(p);
    return;
  }
  boards.replaceChildren(...t.board_scores.map((scores, b) => {
    const section = document.createElement("section");
    const h = document.createElement("h3");
    const round = t.rounds > 1 ? `, round ${roundOf(t, b)}` : "";
    h.textContent = `Board ${b + 1}${round} (first-meld minimum ${t.minimums[b].join("/")})`;
    const table = document.createElement("table");
    table.className = "board-scores";
    const head = document.createElement("tr");
    const names = ["table", "entry", "totals", "net", ["matchpoints", "MP"], ["percent", "%"]];
    names.forEach((n, i) => {
      const th = document.createElement("th");
      if (Array.isArray(n)) { // the long word, and a short one for a phone
        const long = document.createElement("span");
        long.className = "long";
        long.textContent = n[0];
        const short = document.createElement("abbr");
        short.className = "short";
        short.title = n[0];
        short.textContent = n[1];
        th.append(long, short);
      } else th.textContent = n;
      if (i > 1) th.className = "num";
      head.append(th);
    });
    const thead = document.createElement("thead");
    thead.append(head);
    const body = document.createElement("tbody");
    fill(body, scores.map((s) => [s.table + 1, s.entry, s.totals ? s.totals.join("/") : "adjusted", s.net ?? "",
      s.matchpoints, s.percent]), ["", "", "num", "num", "num", "num"], (i) => scores[i].table === t.your_table);
    table.append(thead, body);
    section.append(h, table);
    if (t.over) { // after the tournament: each table's play of the board, every hand face up
      const links = document.createElement("p");
      links.className = "board-replays";
      links.append("Replays:");
      t.tables.forEach((tab) => {
        if (scores.some((s) => s.table === tab.table && s.totals)) links.append(replayLink(t, tab, b));
      });
      section.append(links);
    }
    return section;
  }));
}

async function poll() {
  try {
    const headers = token ? { "X-Canasta-Token": token } : {};
    const answer = await fetch(`/api/tournaments/${encodeURIComponent(id)}`, { headers, cache: "no-store" });
    if (answer.ok) {
      const t = await answer.json();
      render(t);
      if (t.over) return;
    } else {
      document.getElementById("summary").textContent = "There is no such tournament here.";
      return;
    }
  } catch {
    document.getElementById("summary").textContent = "Cannot reach the server; trying again…";
  }
  setTimeout(poll, POLL_MS);
}

poll();
