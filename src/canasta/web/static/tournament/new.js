// The organiser's form (/tournament/new; docs/tournament.md, "On the server"): a signed-in player chooses the
// game, the boards and rounds, the tables and their seats (a person, with an invite link, or a computer level),
// the first-meld minimums, the times and who sees it.  Each field is checked here in one line, the server checks
// them all again (its one-line answer is shown as it is), and the answer's invite links are listed.

const $ = (id) => document.getElementById(id);
const PERSON = "human"; // a person invited by their link
const OPEN = "open"; // an open seat: in a public tournament anyone signed in may take it from its page
let setup = { presets: { classic: { players: 4, sides: 2 } }, levels: [{ kind: "expert", name: "Expert" }] };

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

const players = () => (setup.presets[$("t-preset").value] || { players: 4 }).players;

function seatSelect(table, seat, value) {
  const select = el("select");
  select.id = `t-seat-${table}-${seat}`;
  select.dataset.table = String(table);
  select.setAttribute("aria-label", `Table ${table + 1}, seat ${seat + 1}`);
  const person = el("option", "Person");
  person.value = PERSON;
  const open = el("option", "Open seat");
  open.value = OPEN;
  const computers = el("optgroup");
  computers.label = "Computer player";
  for (const level of setup.levels) {
    const option = el("option", level.name);
    option.value = level.kind;
    computers.append(option);
  }
  select.append(person, open, computers);
  select.value = value || PERSON;
  return select;
}

/** The seats chosen so far, by table (kept when the number of tables or the game changes). */
function chosen() {
  const tables = [];
  document.querySelectorAll("#t-table-rows select").forEach((select) => {
    const table = Number(select.dataset.table);
    (tables[table] ||= []).push(select.value);
  });
  return tables;
}

function renderTables(seats = chosen()) {
  const count = Math.max(0, Math.min(50, Math.floor(Number($("t-tables").value) || 0)));
  const rows = [];
  for (let t = 0; t < count; t += 1) {
    const row = el("div", undefined, "tournament-table-row");
    row.append(el("span", `Table ${t + 1}`, "seat-label"));
    const list = el("div", undefined, "tournament-seats");
    for (let s = 0; s < players(); s += 1) list.append(seatSelect(t, s, (seats[t] || [])[s]));
    row.append(list);
    rows.push(row);
  }
  $("t-table-rows").replaceChildren(...rows);
}

/** A whole number from a field, or an error naming the field. */
function whole(id, name, least, most) {
  const text = $(id).value.trim();
  const value = Number(text);
  if (text === "" || !Number.isInteger(value) || value < least || value > most) {
    throw new Error(`${name} must be a whole number from ${least} to ${most}`);
  }
  return value;
}

function parseOptions(text) {
  const options = {};
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const match = /^([a-z_]+)\s*=\s*(\S+)$/.exec(part);
    if (!match) throw new Error(`options are name=value, separated by commas: "${part.slice(0, 30)}" is not`);
    const [, name, raw] = match;
    options[name] = raw === "true" ? true : raw === "false" ? false : /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return options;
}

/** "50, 90/50": one entry per board, a number or one per side. */
function parseList(text, what) {
  const parts = text.split(/[,\s]+/).filter(Boolean);
  if (!parts.length) throw new Error(`give at least one ${what}`);
  return parts.map((part) => {
    const numbers = part.split("/").map((n) => Number(n));
    if (numbers.some((n) => !Number.isInteger(n))) throw new Error(`"${part.slice(0, 20)}" is not a ${what}`);
    return numbers.length === 1 ? numbers[0] : numbers;
  });
}

/** The request's body from the form, or an Error with one line saying what is wrong. */
function body() {
  const name = $("t-name").value.trim();
  if (name.length > 60) throw new Error("the name has at most 60 characters");
  const boards = whole("t-boards", "boards", 1, 200);
  const rounds = whole("t-rounds", "rounds", 1, boards);
  if (boards % rounds) throw new Error(`${boards} boards do not split into ${rounds} rounds of equal size`);
  const tables = chosen().map((seats) => seats.map((s) => (s === OPEN ? null : s)));
  if (tables.length < 2 || tables.length > 50) throw new Error("a tournament has 2 to 50 tables");
  const request = {
    name, preset: $("t-preset").value, options: parseOptions($("t-options").value), boards, rounds, tables,
    round_minutes: whole("t-round-minutes", "the round time", 0, 1440),
    away_minutes: whole("t-away", "the away time", 0, 1440), turn_seconds: whole("t-turn", "the turn timer", 0, 3600),
    public: document.querySelector("input[name=visibility]:checked").value === "public",
  };
  const kind = document.querySelector("input[name=minimum-kind]:checked").value;
  request[kind] = parseList($("t-minimums").value, kind === "schedule" ? "side total" : "first-meld minimum");
  return request;
}

function copyButton(text) {
  const button = el("button", "Copy");
  button.className = "copy";
  button.type = "button";
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy";
    }
  });
  return button;
}

function showCreated(answer) {
  const page = new URL(answer.link, location.href).href;
  $("t-page").href = answer.link;
  $("t-page").textContent = `${answer.name}: ${page}`;
  const every = [`${answer.name}, the standings: ${page}`];
  const blocks = answer.tables.map((table) => {
    const block = el("div", undefined, "tournament-invites");
    block.append(el("h3", `Table ${table.table + 1}`));
    const list = el("ul", undefined, "invites");
    for (const seat of table.seats) {
      const item = el("li", undefined, "invite-row");
      if (seat.link) {
        const link = new URL(seat.link, location.href).href;
        every.push(`Table ${table.table + 1}, seat ${seat.seat + 1} (${seat.name}): ${link}`);
        item.append(el("span", `Seat ${seat.seat + 1}: ${seat.name}`, "invite-label"), el("span", link, "link-text"),
          copyButton(link));
      } else {
        item.append(el("span", `Seat ${seat.seat + 1}: ${seat.name}, a computer player`, "computer-seat"));
      }
      list.append(item);
    }
    block.append(list);
    return block;
  });
  const all = copyButton(every.join("\n"));
  all.textContent = "Copy every link";
  $("t-invites").replaceChildren(all, ...blocks);
  $("organise").hidden = true;
  $("t-created").hidden = false;
  $("t-created-title").focus?.();
  window.scrollTo(0, 0);
}

async function submit(event) {
  event.preventDefault();
  const error = $("t-error");
  let request;
  try {
    request = body();
  } catch (problem) {
    error.textContent = problem.message;
    return;
  }
  error.textContent = "";
  $("t-create").disabled = true;
  try {
    const answer = await fetch("/api/tournaments", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request),
      credentials: "same-origin",
    });
    let data = {};
    try { data = await answer.json(); } catch { data = {}; }
    if (answer.ok) showCreated(data);
    else {
      error.textContent = data.message || `The server answered ${answer.status}.`;
      if (answer.status === 401) $("signin-needed").hidden = false;
    }
  } catch {
    error.textContent = "The server cannot be reached; try again.";
  } finally {
    $("t-create").disabled = false;
  }
}

async function start() {
  $("organise").addEventListener("submit", submit);
  $("organise").addEventListener("input", () => { $("t-error").textContent = ""; });
  $("t-tables").addEventListener("input", () => renderTables());
  $("t-preset").addEventListener("change", () => renderTables());
  $("t-copy").addEventListener("click", () => {
    const seats = chosen();
    renderTables(seats.map(() => seats[0] || []));
  });
  document.querySelectorAll("input[name=minimum-kind]").forEach((radio) => radio.addEventListener("change", () => {
    const schedule = radio.value === "schedule" && radio.checked;
    if (!radio.checked) return;
    document.querySelector("label[for=t-minimums]").textContent = schedule ? "Side totals" : "Minimums";
    $("t-minimums").value = schedule ? "0, 1500, 3000" : "50";
    $("t-minimums-help").innerHTML = schedule
      ? "each board's side totals, used in turn (<code>0, 1500</code>; <code>1500/0</code> per side): the minimum follows from them as in a match"
      : "e.g. <code>50, 90, 120</code> (board 1: 50, board 2: 90, …, then again); <code>90/50</code> for different minimums per side.";
  }));
  renderTables([["expert", "expert", "expert", "expert"]]); // table 1: the par table; the others for people
  try {
    const me = await fetch("/api/me", { credentials: "same-origin" });
    if (!me.ok) $("signin-needed").hidden = false;
  } catch { /* the form still works; the server answers */ }
  try {
    const answer = await fetch("/api/setup");
    if (answer.ok) {
      setup = await answer.json();
      const select = $("t-preset");
      select.replaceChildren(...Object.keys(setup.presets).map((name) => {
        const option = el("option", name);
        option.value = name;
        return option;
      }));
      select.value = "classic";
      renderTables();
    }
  } catch { /* classic only */ }
}

start();
