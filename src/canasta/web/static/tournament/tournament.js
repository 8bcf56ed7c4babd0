// A duplicate tournament's live standings (docs/tournament.md, "On the server"): polls the server every few
// seconds.  The link token after '#' (a seat or spectator link of one of its tables) says which table's
// played boards may be shown; it is sent in a header, never in the address.

const POLL_MS = 4000;
const id = decodeURIComponent(location.pathname.split("/").pop());
const token = location.hash.slice(1);

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text === null || text === undefined ? "" : String(text);
  row.append(td);
  return td;
}

function fill(tbody, rows) {
  tbody.replaceChildren(...rows.map((values) => {
    const tr = document.createElement("tr");
    values.forEach((v) => cell(tr, v));
    return tr;
  }));
}

function render(t) {
  const where = t.your_table === null ? "" : ` · you are at table ${t.your_table + 1}`;
  document.getElementById("summary").textContent =
    `${t.preset}, ${t.tables.length} tables, ${t.boards} boards` + (t.over ? " · final results" : " · in play") + where;
  fill(document.querySelector("#tables tbody"), t.tables.map((table) => [
    table.table + 1,
    table.players.map((p, seat) => (table.away.includes(seat) ? `${p} (computer)` : p)).join(", "),
    table.stopped ? "stopped at the round time" : table.board === null ? "done" : table.board + 1,
    `${table.played} of ${t.boards}`,
  ]));
  document.getElementById("standings-note").textContent = t.visible_boards
    ? `Over the first ${t.visible_boards} board(s).`
    : "No board is shown yet: a board's results appear once your table (or, without a seat, every table) has played it.";
  fill(document.querySelector("#standings tbody"), t.standings.map((s) => [
    (s.tied ? "=" : "") + (s.rank ?? ""), s.entry, s.players.join(", "), s.boards, s.matchpoints,
    s.percent === null ? "" : s.percent,
  ]));
  const boards = document.getElementById("boards");
  boards.replaceChildren(...t.board_scores.map((scores, b) => {
    const section = document.createElement("section");
    const h = document.createElement("h3");
    h.textContent = `Board ${b + 1} (first-meld minimum ${t.minimums[b].join("/")})`;
    const table = document.createElement("table");
    table.className = "board-scores";
    const head = document.createElement("tr");
    ["table", "entry", "totals", "net", "matchpoints", "percent"].forEach((n) => {
      const th = document.createElement("th");
      th.textContent = n;
      head.append(th);
    });
    const body = document.createElement("tbody");
    fill(body, scores.map((s) => [s.table + 1, s.entry, s.totals ? s.totals.join("/") : "adjusted", s.net,
      s.matchpoints, s.percent]));
    table.append(head, body);
    section.append(h, table);
    if (t.over) { // after the tournament: each table's play of the board, every hand face up
      const links = document.createElement("p");
      links.className = "board-replays";
      links.append("Replays: ");
      t.tables.forEach((tab) => {
        if (tab.played <= b) return;
        const a = document.createElement("a");
        a.href = `/api/tournaments/${encodeURIComponent(id)}/tables/${tab.table + 1}/boards/${b + 1}/replay`;
        a.textContent = `table ${tab.table + 1}`;
        links.append(a, " ");
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
