// The game page's tournament banner (docs/tournament.md, "On the server"): at a tournament's table, which board
// is played ("Club night — board 2 of 4, round 1") and, once the table has played every board, a link to the
// standings.  Asked once of the server with this seat's token; at any other table it shows nothing.
import { tableOf, tokenOf } from "/static/game/connection.js";

let info; // undefined: not asked yet; null: no tournament; else the server's answer
let asking = false;

async function ask() {
  asking = true;
  try {
    const answer = await fetch(`/api/tournaments/of-table/${encodeURIComponent(tableOf())}`, {
      headers: { "X-Canasta-Token": tokenOf() }, cache: "no-store",
    });
    info = answer.ok ? await answer.json() : null;
  } catch {
    info = undefined; // asked again with the next state
  }
  asking = false;
}

function banner() {
  let box = document.getElementById("tournament-banner");
  if (!box) {
    box = document.createElement("div");
    box.id = "tournament-banner";
    box.className = "tournament-banner";
    box.setAttribute("role", "status");
    const style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = "/static/tournament/banner.css";
    document.head.append(style);
    const header = document.querySelector(".topbar");
    if (header) header.after(box);
    else document.body.prepend(box);
  }
  return box;
}

/** Show the banner for the state message `msg` (its `table.hand`: the board dealt, from 1); true when the banner
 * has just appeared (the table's layout is measured again). */
export async function showTournament(msg) {
  if (info === undefined && !asking && tokenOf()) await ask();
  if (!info || !msg) return false;
  const added = !document.getElementById("tournament-banner");
  const { table } = msg;
  const board = Math.max(1, Math.min(table.hand, info.boards));
  const done = table.status === "over" || (table.results.length >= info.boards);
  const box = banner();
  const name = document.createElement("strong");
  name.textContent = info.name;
  const where = document.createElement("span");
  const roundNumber = Math.floor((board - 1) / info.boards_per_round) + 1;
  const long = document.createElement("span"); // a phone's narrower line: "board 2/4, round 1/2"
  const short = document.createElement("span");
  long.className = "long";
  short.className = "short";
  if (done) long.textContent = short.textContent = `all ${info.boards} boards played here`;
  else {
    long.textContent = `board ${board} of ${info.boards}`
      + (info.rounds > 1 ? `, round ${roundNumber} of ${info.rounds}` : "");
    short.textContent = `board ${board}/${info.boards}` + (info.rounds > 1 ? `, round ${roundNumber}/${info.rounds}` : "");
  }
  where.append(long, short);
  const link = document.createElement("a");
  link.href = `${info.link}#${encodeURIComponent(tokenOf())}`;
  link.target = "_blank";
  link.rel = "noopener";
  link.textContent = done ? "The tournament's results" : "Standings";
  box.dataset.board = String(board);
  box.dataset.done = String(done);
  box.replaceChildren(name, where, link);
  sayBoards(table, board);
  if (done) sayResults(link.href);
  return added;
}

/** At the end the result dialog leads to the tournament's results: its match verdict (the most points over the
 * boards) means nothing in a duplicate tournament, and no rematch follows. */
function sayResults(href) {
  const title = document.getElementById("result-title");
  if (title) title.textContent = `Every board of ${info.name} is played here`;
  const verdict = document.getElementById("match-result");
  if (verdict && !verdict.hidden && !verdict.querySelector(".tournament-end")) {
    const head = document.createElement("h3");
    head.className = "tournament-end";
    head.textContent = `${info.name}: all ${info.boards} boards played at this table`;
    const said = document.createElement("p");
    said.textContent = "Each board is scored against the other tables that held the same cards; the results are on "
      + "the tournament's page.";
    const totals = verdict.querySelector("table");
    verdict.replaceChildren(head, said, ...(totals ? [totals] : []));
  }
  const rematch = document.getElementById("btn-rematch");
  if (rematch) rematch.hidden = true;
  const results = document.getElementById("btn-lobby");
  if (results) {
    results.href = href;
    results.textContent = "The tournament's results";
  }
}

/** The table's own words for a match (hand 1 of a match to 5,000) said of boards: each board is one hand. */
function sayBoards(table, board) {
  const set = (id, text) => {
    const node = document.getElementById(id);
    if (node) node.textContent = text;
  };
  const status = { playing: "playing", hand_over: "board over", over: "all boards played" }[table.status] || table.status;
  set("table-status", `Board ${board} · ${status}`);
  set("match-facts", `Board ${board} of ${info.boards}`);
  set("table-facts", `Board ${board} of ${info.boards} of ${info.name}: one hand a board, the same cards at every `
    + "table; the side totals shown are the board's, which set its first-meld minimums.");
  for (const target of document.querySelectorAll(".score-target")) target.textContent = "board totals";
  const title = document.getElementById("result-title");
  if (title && table.status === "hand_over") title.textContent = `Board ${board} is over`;
  if (table.status === "over") set("turn", "All boards played");
  const next = document.getElementById("btn-next");
  if (next && next.firstChild) next.firstChild.textContent = "Ready for the next board ";
}
