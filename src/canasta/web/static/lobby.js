// The lobby: create a table (GET /api/setup, POST /api/tables, docs/protocol.md),
// show the invite links, and keep them in localStorage for the creator.
import { el } from "/static/cards.js";

const $ = (id) => document.getElementById(id);
const STORE_PREFIX = "canasta:table:";
const NAME_MAX = 24;

// What the lobby knows about each option, in case the server sends only its type.
const OPTION_HELP = {
  draw: "Cards drawn from the stock each turn.",
  hand_size: "Cards dealt to each player.",
  decks: "Decks shuffled together (each with two jokers).",
  canastas_to_go_out: "Canastas a side needs before it may go out.",
  black_three_upcard: "A black three turned up at the deal: stays on top, or is covered like a wild card.",
  red_threes_at_deal: "Red threes are laid out as soon as the deal ends.",
  black_three_freezes: "A discarded black three freezes the pile like a wild card.",
  pile_always_frozen: "The pile is always frozen: take it only with a natural pair.",
  two_naturals_to_take: "Taking an unfrozen pile needs two natural cards from the hand.",
  no_pile_for_finished_canasta: "The pile may not be taken just to add to a finished canasta.",
  wild_card_melds: "Melds of 2s and jokers only are allowed.",
  wild_canasta_bonus: "Bonus for a canasta of wild cards (with wild card melds).",
  unfinished_wild_meld_penalty: "Penalty for an unfinished meld of wild cards (with wild card melds).",
  wilds_at_most_naturals: "A meld may not hold more wild cards than natural cards.",
  concealed_bonus: "Going out concealed scores 200 instead of 100.",
  ask_partner: "A player may ask the partner \u201cMay I go out?\u201d.",
};
// Options that only make sense with wild card melds.
const NEEDS_WILD_MELDS = ["wild_canasta_bonus", "unfinished_wild_meld_penalty"];

let setup = null; // the /api/setup answer

/** The chosen preset's rules (players, sides and each option's value). */
function presetRules(name) {
  const rules = setup.presets[name];
  if (rules && typeof rules === "object") return rules;
  // A bare preset name: fall back to each option's default (and 4 players).
  const out = { players: 4, sides: 2 };
  for (const [opt, info] of Object.entries(setup.options)) out[opt] = info.default;
  return out;
}

const humanize = (name) => name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

function presetLabel(name, rules) {
  const players = rules.players ? `${rules.players} players` : "";
  const teams = rules.players && rules.sides && rules.players !== rules.sides ? `, ${rules.sides} sides` : "";
  return `${humanize(name).replace(/-/g, " ")} (${players}${teams})`;
}

// -- building the form ----------------------------------------------------------------

function fillPresets() {
  const select = $("preset");
  select.replaceChildren();
  for (const name of Object.keys(setup.presets)) {
    const option = el("option", "", presetLabel(name, presetRules(name)));
    option.value = name;
    select.append(option);
  }
  if (setup.presets.classic) select.value = "classic";
}

function fillTargets(rules) {
  const select = $("target");
  const targets = setup.targets && setup.targets.length ? setup.targets : range(1000, 10000, 500);
  select.replaceChildren();
  for (const t of targets) {
    const option = el("option", "", t.toLocaleString("en-US"));
    option.value = String(t);
    select.append(option);
  }
  if (rules.target) select.value = String(rules.target);
}

function range(from, to, step) {
  const out = [];
  for (let v = from; v <= to; v += step) out.push(v);
  return out;
}

/** One control per option (bool: checkbox, int: number, choice: select), set to the preset's values. */
function fillOptions(rules) {
  const box = $("options");
  box.replaceChildren();
  for (const [name, info] of Object.entries(setup.options)) {
    if (name === "target") continue; // its own select above
    const id = "opt-" + name;
    const row = el("div", "option-row");
    row.dataset.option = name;
    const label = el("label", "", humanize(name));
    label.htmlFor = id;
    let input;
    if (info.type === "bool") {
      input = el("input");
      input.type = "checkbox";
      input.checked = Boolean(rules[name]);
      row.classList.add("bool");
    } else if (info.type === "choice") {
      input = el("select");
      for (const choice of info.choices || []) {
        const option = el("option", "", choice);
        option.value = String(choice);
        input.append(option);
      }
      input.value = String(rules[name]);
    } else {
      input = el("input");
      input.type = "number";
      input.step = "1";
      input.value = String(rules[name] ?? "");
    }
    input.id = id;
    input.className = "option-input";
    input.dataset.option = name;
    input.dataset.type = info.type;
    if (OPTION_HELP[name]) {
      const help = el("span", "option-help", OPTION_HELP[name]);
      help.id = id + "-help";
      input.setAttribute("aria-describedby", help.id);
      if (info.type === "bool") row.append(input, label, help);
      else row.append(label, input, help);
    } else if (info.type === "bool") row.append(input, label);
    else row.append(label, input);
    box.append(row);
  }
  syncWildOptions();
}

/** Wild-meld bonus and penalty only apply with wild card melds: grey them out otherwise. */
function syncWildOptions() {
  const wild = document.querySelector('.option-input[data-option="wild_card_melds"]');
  if (!wild) return;
  for (const name of NEEDS_WILD_MELDS) {
    const input = document.querySelector(`.option-input[data-option="${name}"]`);
    if (input) input.disabled = !wild.checked;
  }
}

/** One row per seat: kind select, and a name for humans.  Keeps earlier choices where it can. */
function fillSeats(rules) {
  const box = $("seats");
  const old = readSeats();
  box.replaceChildren();
  const players = rules.players || 4;
  for (let seat = 0; seat < players; seat++) {
    const row = el("div", "seat-row");
    const kindId = `seat-kind-${seat}`;
    const label = el("label", "seat-label", seatTitle(seat, rules));
    label.htmlFor = kindId;
    const kind = el("select", "seat-kind");
    kind.id = kindId;
    kind.dataset.seat = String(seat);
    kind.append(seatOption("human", "Human"));
    const levels = setup.levels || [];
    const byLevel = el("optgroup");
    byLevel.label = "Computer, by level";
    for (const level of levels) byLevel.append(seatOption(level.kind, level.name, level.strength));
    const byName = el("optgroup");
    byName.label = "Computer, by name";
    for (const k of setup.bots || ["random", "basic", "expert", "search"]) {
      if (!levels.some((level) => level.kind === k)) byName.append(seatOption(k, `Computer: ${k}`));
    }
    if (levels.length) kind.append(byLevel);
    kind.append(byName);
    const name = el("input", "seat-name");
    name.type = "text";
    name.maxLength = NAME_MAX;
    name.dataset.seat = String(seat);
    name.placeholder = `Player ${seat + 1}`;
    name.setAttribute("aria-label", `Name of seat ${seat + 1}`);
    const prev = old[seat];
    kind.value = prev ? prev.kind : seat === 0 ? "human" : "expert";
    name.value = prev ? prev.name : seat === 0 ? "You" : "";
    const note = el("span", "seat-note small-note");
    note.dataset.seat = String(seat);
    kind.addEventListener("change", () => syncSeat(kind, name, note));
    syncSeat(kind, name, note);
    row.append(label, kind, name, note);
    box.append(row);
  }
  const sides = rules.sides || 2;
  const together = [];
  for (let side = 0; side < sides; side++) {
    const seats = range(0, players - 1, 1).filter((s) => s % sides === side).map((s) => s + 1);
    together.push(seats.join(" & "));
  }
  $("sides-note").textContent =
    players === sides ? "Everyone plays alone." : `Partners: seats ${together.join(", seats ")}.`;
}

function seatTitle(seat, rules) {
  const sides = rules.sides || 2;
  return `Seat ${seat + 1}` + (rules.players !== sides ? ` (side ${String.fromCharCode(65 + (seat % sides))})` : "");
}

/** One choice of a seat's select: a person, a level (with its measured strength) or a bot by name. */
function seatOption(value, text, title) {
  const option = el("option", "", text);
  option.value = value;
  if (title) option.title = title;
  return option;
}

/** A person's seat shows the name box; a level's seat, the level's measured strength. */
function syncSeat(kind, name, note) {
  name.hidden = kind.value !== "human";
  const level = (setup.levels || []).find((l) => l.kind === kind.value);
  note.textContent = level ? level.strength : "";
  note.hidden = !level;
}

function readSeats() {
  return [...document.querySelectorAll(".seat-kind")].map((kind) => ({
    kind: kind.value,
    name: document.querySelector(`.seat-name[data-seat="${kind.dataset.seat}"]`).value.trim(),
  }));
}

function onPresetChange() {
  const rules = presetRules($("preset").value);
  fillTargets(rules);
  fillOptions(rules);
  fillSeats(rules);
}

// -- creating a table -----------------------------------------------------------------

/** The options whose control differs from the preset's value. */
function changedOptions(rules) {
  const out = {};
  for (const input of document.querySelectorAll(".option-input")) {
    const name = input.dataset.option;
    if (input.disabled) continue;
    let value;
    if (input.dataset.type === "bool") value = input.checked;
    else if (input.dataset.type === "int") value = input.value === "" ? rules[name] : Number(input.value);
    else value = input.value;
    if (value !== rules[name]) out[name] = value;
  }
  return out;
}

function formBody() {
  const preset = $("preset").value;
  const rules = presetRules(preset);
  const body = { preset, target: Number($("target").value), seats: [] };
  const options = changedOptions(rules);
  if (Object.keys(options).length) body.options = options;
  const away = $("away-minutes").value.trim();
  if (away !== "" && Number.isFinite(Number(away))) body.away_minutes = Number(away);
  const turn = Number($("turn-seconds").value);
  if (Number.isFinite(turn) && turn > 0) body.turn_seconds = turn;
  for (const seat of readSeats()) {
    const entry = { kind: seat.kind };
    if (seat.kind === "human" && seat.name) entry.name = seat.name;
    body.seats.push(entry);
  }
  return body;
}

async function createTable(body) {
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.message ? data.message : `the server answered ${response.status}`;
    throw new Error(message);
  }
  const record = { ...data, created: Date.now(), preset: body.preset };
  try {
    localStorage.setItem(STORE_PREFIX + data.table, JSON.stringify(record));
  } catch {
    // private mode or full storage: the links are still shown on the page
  }
  return record;
}

function setStatus(text) {
  $("lobby-status").textContent = text;
}

async function onSubmit(event) {
  event.preventDefault();
  setStatus("");
  const button = $("create");
  button.disabled = true;
  try {
    const answer = await createTable(formBody());
    showCreated(answer);
  } catch (err) {
    setStatus(err.message || String(err));
  } finally {
    button.disabled = false;
  }
}

/** Play now: classic, you and an expert partner against two experts; straight to the table. */
async function onQuickPlay() {
  const button = $("quick-play");
  button.disabled = true;
  button.textContent = "Dealing\u2026";
  try {
    const answer = await createTable({
      preset: "classic",
      seats: [
        { kind: "human", name: "You" },
        { kind: "expert", name: "West" },
        { kind: "expert", name: "North" },
        { kind: "expert", name: "East" },
      ],
    });
    location.href = firstHumanLink(answer) || answer.spectator.link;
  } catch (err) {
    setStatus(err.message || String(err));
    button.disabled = false;
    button.textContent = "Play now";
  }
}

const absolute = (link) => location.origin + link;
const firstHuman = (answer) => answer.seats.find((s) => s.link);
const firstHumanLink = (answer) => (firstHuman(answer) ? firstHuman(answer).link : null);

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Older browsers or an insecure origin: select a temporary field and copy.
    const field = el("textarea");
    field.value = text;
    document.body.append(field);
    field.select();
    try {
      document.execCommand("copy");
    } catch {
      /* nothing more to try */
    }
    field.remove();
  }
  const old = button.textContent;
  button.textContent = "Copied";
  setTimeout(() => (button.textContent = old), 1500);
}

function linkRow(label, link, attrs) {
  const row = el("li", "invite-row");
  row.append(el("span", "invite-label", label));
  const a = el("a", "link-text invite-link", absolute(link));
  a.href = link;
  for (const [k, v] of Object.entries(attrs)) a.dataset[k] = v;
  const copy = el("button", "copy", "Copy");
  copy.type = "button";
  copy.setAttribute("aria-label", `Copy the link for ${label}`);
  copy.addEventListener("click", () => copyText(absolute(link), copy));
  row.append(a, copy);
  return row;
}

function showCreated(answer) {
  const list = $("invites");
  list.replaceChildren();
  for (const seat of answer.seats) {
    if (!seat.link) continue;
    list.append(linkRow(`Seat ${seat.seat + 1}: ${seat.name}`, seat.link, { seat: String(seat.seat) }));
  }
  const bots = answer.seats.filter((s) => !s.link).map((s) => `${s.name} (seat ${s.seat + 1})`);
  if (bots.length) list.append(el("li", "small-note", `Computer players: ${bots.join(", ")}.`));
  const spectator = $("spectator-link");
  spectator.href = answer.spectator.link;
  spectator.textContent = absolute(answer.spectator.link);
  const play = $("play-link");
  const human = firstHuman(answer);
  play.href = human ? human.link : answer.spectator.link;
  play.textContent = human ? `Play as ${human.name}` : "Watch the table";
  $("created").hidden = false;
  $("created").scrollIntoView({ behavior: "smooth", block: "start" });
  showRecent();
}

/** Tables created in this browser (their links are only kept here). */
function showRecent() {
  const items = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(STORE_PREFIX)) continue;
    try {
      const record = JSON.parse(localStorage.getItem(key));
      if (record && record.table && Array.isArray(record.seats)) items.push(record);
    } catch {
      /* not ours */
    }
  }
  items.sort((a, b) => (b.created || 0) - (a.created || 0));
  const list = $("recent-list");
  list.replaceChildren();
  for (const record of items.slice(0, 8)) {
    const li = el("li", "recent-item");
    const when = record.created ? new Date(record.created).toLocaleString() : "";
    const names = record.seats.map((s) => s.name).join(", ");
    li.append(el("span", "recent-what", `${record.preset || "table"} \u00b7 ${names}`));
    if (when) li.append(el("span", "small-note", ` ${when}`));
    const human = firstHuman(record);
    const open = el("a", "button", human ? `Play as ${human.name}` : "Watch");
    open.href = human ? human.link : record.spectator.link;
    const show = el("button", "", "Links");
    show.type = "button";
    show.addEventListener("click", () => showCreated(record));
    li.append(open, show);
    list.append(li);
  }
  $("recent").hidden = items.length === 0;
}

// -- start ----------------------------------------------------------------------------

async function start() {
  $("quick-play").addEventListener("click", onQuickPlay);
  $("create-form").addEventListener("submit", onSubmit);
  $("preset").addEventListener("change", onPresetChange);
  $("options").addEventListener("change", syncWildOptions);
  for (const button of document.querySelectorAll("[data-copy-for]")) {
    button.addEventListener("click", () => copyText($(button.dataset.copyFor).textContent, button));
  }
  try {
    const response = await fetch("/api/setup");
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    setup = await response.json();
  } catch (err) {
    setStatus(`Could not load the game setup: ${err.message || err}`);
    return;
  }
  fillPresets();
  onPresetChange();
  showRecent();
}

start();
