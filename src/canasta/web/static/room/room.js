// The room (/room): the quick match with its countdown, the public tables (polled), the player's history.
import "/static/room/history.js";

const $ = (id) => document.getElementById(id);
const POLL_TABLES = 3000;
const POLL_QUEUE = 1000;
let ticket = null;
let queueTimer = null;
let deadline = null;

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  return { ok: response.ok, status: response.status, data };
}

function say(text, isError = false) {
  $("quick-status").textContent = text;
  $("quick-status").classList.toggle("error", isError);
}

function looking(on) {
  $("quick-find").hidden = on;
  $("quick-cancel").hidden = !on;
  $("quick-game").disabled = on;
  if (!on) {
    $("quick-countdown").textContent = "";
    clearTimeout(queueTimer);
    ticket = null;
  }
}

function countdown() {
  if (!ticket || deadline === null) return;
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  $("quick-countdown").textContent = left > 0 ? `${left} s` : "…";
  $("quick-countdown").setAttribute("data-seconds", String(left));
}
setInterval(countdown, 250);

async function pollQueue() {
  if (!ticket) return;
  const answer = await post("/api/quick/poll", { ticket });
  if (!answer.ok) {
    say(answer.data?.message || "The queue lost your place; look again.", true);
    looking(false);
    return;
  }
  if (answer.data.status === "seated") {
    say("Your table is ready.");
    window.location.href = answer.data.link;
    return;
  }
  deadline = Date.now() + answer.data.seconds_left * 1000;
  countdown();
  queueTimer = setTimeout(pollQueue, POLL_QUEUE);
}

$("quick-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const rated = new FormData($("quick-form")).get("rated") === "rated";
  const answer = await post("/api/quick", { game: $("quick-game").value, rated });
  if (!answer.ok) {
    say(answer.data?.message || `The server answered ${answer.status}.`, true);
    return;
  }
  ticket = answer.data.ticket;
  deadline = Date.now() + answer.data.wait * 1000;
  looking(true);
  say(`Looking for players; computers fill the empty seats after ${answer.data.wait} s.`);
  pollQueue();
});

$("quick-cancel").addEventListener("click", async () => {
  if (ticket) await post("/api/quick/leave", { ticket });
  looking(false);
  say("You left the queue.");
});

function seatItem(table, seat) {
  const item = el("li", undefined, "room-seat");
  if (seat.open) {
    const button = el("button", `Take seat ${seat.seat + 1}`);
    button.type = "button";
    button.addEventListener("click", async () => {
      button.disabled = true;
      const answer = await post(`/api/lobby/${encodeURIComponent(table.table)}/seats/${seat.seat}`, {});
      if (answer.ok) window.location.href = answer.data.link;
      else { say(answer.data?.message || "That seat is taken.", true); refreshTables(); }
    });
    item.append(button);
  } else {
    const rating = seat.rating === undefined ? "" : ` (${seat.rating.toFixed(1)})`;
    item.textContent = `${seat.seat + 1}. ${seat.name}${seat.computer ? " · computer" : ""}${rating}`;
  }
  return item;
}

async function refreshTables() {
  let data;
  try {
    const response = await fetch("/api/lobby", { credentials: "same-origin" });
    data = await response.json();
  } catch {
    return;
  }
  const games = $("quick-game");
  if (games.options.length < data.games.length) {
    games.replaceChildren(...data.games.map((g) => { const o = el("option", g); o.value = g; return o; }));
  }
  const list = $("open-tables");
  list.replaceChildren();
  if (!data.tables.length) list.append(el("li", "No public table right now: start a quick match.", "room-empty"));
  for (const table of data.tables) {
    const li = el("li");
    const line = el("div", undefined, "room-line");
    line.append(el("strong", table.preset));
    line.append(el("span", `to ${table.target.toLocaleString()}`));
    line.append(el("span", table.rated ? "rated" : "casual"));
    if (table.watch) {
      const watch = el("a", "Watch");
      watch.href = table.watch;
      watch.setAttribute("aria-label", `Watch the ${table.preset} table`);
      line.append(watch);
    }
    li.append(line);
    const seats = el("ul", undefined, "room-seats");
    seats.setAttribute("aria-label", "Seats");
    for (const seat of table.seats) seats.append(seatItem(table, seat));
    li.append(seats);
    list.append(li);
  }
}

refreshTables();
setInterval(refreshTables, POLL_TABLES);

// -- duplicate tournaments (issue 31; docs/tournament.md): the public tournaments, from GET /api/tournaments ------
async function refreshTournaments() {
  let data;
  try {
    const response = await fetch("/api/tournaments", { credentials: "same-origin" });
    data = await response.json();
  } catch {
    return;
  }
  let list = $("room-tournaments");
  if (!list) {
    const section = el("section", undefined, "panel");
    section.setAttribute("aria-labelledby", "tournaments-title");
    const title = el("h2", "Tournaments");
    title.id = "tournaments-title";
    const organise = el("a", "Organise a tournament");
    organise.href = "/tournament/new";
    const intro = el("p", "Duplicate tournaments: every table plays the same deals. ");
    intro.append(organise);
    list = el("ul", undefined, "room-tables");
    list.id = "room-tournaments";
    section.append(title, intro, list);
    $("open-tables").closest("section").after(section);
  }
  list.replaceChildren();
  if (!data.tournaments.length) list.append(el("li", "No public tournament right now.", "room-empty"));
  for (const t of data.tournaments) {
    const line = el("div", undefined, "room-line");
    const link = el("a", t.name);
    link.href = t.link;
    line.append(link, el("span", t.preset), el("span", `${t.tables} tables, ${t.boards} boards`));
    if (t.rounds > 1) line.append(el("span", `${t.rounds} rounds`));
    line.append(el("span", t.over ? "final results" : "in play"));
    const li = el("li");
    li.append(line);
    list.append(li);
  }
}

refreshTournaments();
setInterval(refreshTournaments, POLL_TABLES * 5);
// -- end of duplicate tournaments
