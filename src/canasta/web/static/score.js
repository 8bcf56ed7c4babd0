// The scorekeeper page (/score): a game played with real cards, kept in this browser (localStorage).
// The page does no arithmetic: every total, running total, minimum and winner comes from the
// server's POST /api/score, which adds the hands up with the engine's own scoring.

const STORE = "canasta-scorekeeper-v1";
const FORMAT = "canasta-score";
const VERSION = 1;
const UNDO_LIMIT = 100;

let setup = null; // GET /api/score/setup
let store = { game: null, undo: [], sheet: null };
let correcting = null; // the number of the hand being corrected, or null
let formKey = ""; // the entry form is rebuilt when the sides or the rules change

const $ = (id) => document.getElementById(id);
const fmt = (n) => (n < 0 ? "-" : "") + Math.abs(n).toLocaleString("en-US");

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// -- storage and the server ------------------------------------------------------------

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "null");
    if (data && data.game) store = { game: data.game, undo: data.undo || [], sheet: data.sheet || null };
  } catch (err) {
    store = { game: null, undo: [], sheet: null };
  }
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(store));
}

async function post(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json();
    return { ok: response.ok, data };
  } catch (err) {
    return { ok: false, offline: true, data: { message: "the server did not answer; your game is kept in this browser" } };
  }
}

function gameOf(sheet) {
  return { format: sheet.format, version: sheet.version, rules: sheet.rules, names: sheet.names, hands: sheet.hands };
}

// Ask the server for the sheet of `game`; keep it (with an undo step) when it is accepted.
async function commit(game, { undoable = true } = {}) {
  const answer = await post("/api/score", game);
  if (!answer.ok) {
    showError(answer.data.message);
    return false;
  }
  if (undoable && store.game) {
    store.undo.push(store.game);
    if (store.undo.length > UNDO_LIMIT) store.undo.shift();
  }
  store.game = gameOf(answer.data.sheet);
  store.sheet = answer.data.sheet;
  save();
  showError("");
  render();
  return true;
}

function showError(message) {
  $("score-error").textContent = message ? message[0].toUpperCase() + message.slice(1) : "";
}

// -- the setup form ----------------------------------------------------------------------

function presetInfo(name) {
  return setup.presets.find((p) => p.name === name) || setup.presets[0];
}

function fillSetup() {
  const preset = $("preset");
  preset.replaceChildren(...setup.presets.map((p) => el("option", { value: p.name, text: p.name })));
  const target = $("target");
  target.replaceChildren(
    ...setup.targets.map((t) => el("option", { value: String(t), text: fmt(t) })),
    el("option", { value: "custom", text: "Other…" }),
  );
  const names = $("names");
  names.replaceChildren(...[0, 1, 2].map((i) => el("div", { class: "form-row", "data-name-row": String(i) },
    el("label", { for: `name-${i}`, text: `Side ${i + 1}` }),
    el("input", { id: `name-${i}`, type: "text", maxlength: "40", placeholder: `Side ${i + 1}`, autocomplete: "off" }))));
  preset.addEventListener("change", presetChanged);
  $("sides").addEventListener("change", sidesChanged);
  target.addEventListener("change", () => {
    $("target-custom").hidden = target.value !== "custom";
    if (target.value === "custom") $("target-custom").focus();
  });
  presetChanged();
}

function presetChanged() {
  const info = presetInfo($("preset").value);
  $("sides").value = String(setup.sides.includes(info.sides) ? info.sides : 2);
  const target = $("target");
  if (setup.targets.includes(info.target)) {
    target.value = String(info.target);
    $("target-custom").hidden = true;
  } else {
    target.value = "custom";
    $("target-custom").hidden = false;
    $("target-custom").value = String(info.target);
  }
  sidesChanged();
}

function sidesChanged() {
  const sides = Number($("sides").value);
  for (const row of document.querySelectorAll("[data-name-row]")) row.hidden = Number(row.dataset.nameRow) >= sides;
}

function showSetup(show) {
  $("setup").hidden = !show;
  $("game").hidden = show || !store.game;
  $("setup-cancel").hidden = !store.game;
  if (show) $("preset").focus();
}

async function startGame(event) {
  event.preventDefault();
  const preset = $("preset").value;
  const sides = Number($("sides").value);
  const target = $("target").value === "custom" ? Number($("target-custom").value) : Number($("target").value);
  const rules = target === presetInfo(preset).target ? preset : { preset, target };
  const names = [];
  for (let i = 0; i < sides; i++) names.push($(`name-${i}`).value.trim() || `Side ${i + 1}`);
  const game = { format: FORMAT, version: VERSION, rules, names, hands: [] };
  const answer = await post("/api/score", game);
  if (!answer.ok) {
    alertSetup(answer.data.message);
    return;
  }
  store = { game: gameOf(answer.data.sheet), undo: [], sheet: answer.data.sheet };
  correcting = null;
  formKey = "";
  save();
  showSetup(false);
  render();
}

function alertSetup(message) {
  let note = $("setup-error");
  if (!note) {
    note = el("p", { id: "setup-error", class: "sk-error", role: "alert" });
    $("setup-form").append(note);
  }
  note.textContent = message;
}

// -- the hand form -------------------------------------------------------------------------

const ITEM_FIELDS = ["natural", "mixed", "wild", "red_threes", "out", "melded", "in_hand", "unfinished_wild"];

function buildEntries(sheet) {
  const key = JSON.stringify([sheet.names, sheet.rules]);
  if (key === formKey) return;
  formKey = key;
  const wild = sheet.wild_card_melds;
  const fieldsets = sheet.names.map((name, side) => {
    const items = ITEM_FIELDS.filter((f) => wild || (f !== "wild" && f !== "unfinished_wild")).map((f) => {
      const id = `item-${side}-${f}`;
      const label = el("label", { for: id, text: setup.items[f][0].toUpperCase() + setup.items[f].slice(1) });
      let input;
      if (f === "out") {
        input = el("select", { id, "data-item": f },
          el("option", { value: "", text: "no" }), el("option", { value: "out", text: "went out" }),
          el("option", { value: "concealed", text: "concealed" }));
      } else if (f === "unfinished_wild") {
        input = el("input", { id, type: "checkbox", "data-item": f });
      } else {
        input = el("input", { id, type: "number", min: "0", step: f === "melded" || f === "in_hand" ? "5" : "1",
          inputmode: "numeric", placeholder: "0", "data-item": f });
      }
      return [label, input];
    }).flat();
    const fieldset = el("fieldset", { class: "sk-entry", "data-side": String(side) },
      el("legend", { text: name }),
      el("div", { class: "sk-mode" },
        el("label", {}, el("input", { type: "radio", name: `mode-${side}`, value: "total", checked: true }), "Total"),
        el("label", {}, el("input", { type: "radio", name: `mode-${side}`, value: "items" }), "Itemised")),
      el("div", { class: "sk-total-part" },
        el("input", { id: `total-${side}`, class: "sk-total-input", type: "number", step: "5", inputmode: "numeric",
          placeholder: "e.g. 1315 or -200", "aria-label": `${name}: score for the hand` })),
      el("div", { class: "sk-items-part sk-items-grid", hidden: true }, ...items),
      el("p", { class: "sk-preview", id: `preview-${side}`, "aria-live": "polite" }));
    fieldset.addEventListener("change", () => { syncMode(fieldset); preview(side); });
    fieldset.addEventListener("input", () => preview(side));
    return fieldset;
  });
  $("entries").replaceChildren(...fieldsets);
}

function modeOf(side) {
  return document.querySelector(`input[name="mode-${side}"]:checked`).value;
}

function syncMode(fieldset) {
  const items = modeOf(fieldset.dataset.side) === "items";
  fieldset.querySelector(".sk-items-part").hidden = !items;
  fieldset.querySelector(".sk-total-part").hidden = items;
}

function setMode(side, mode) {
  document.querySelector(`input[name="mode-${side}"][value="${mode}"]`).checked = true;
  syncMode(document.querySelector(`fieldset[data-side="${side}"]`));
}

// One side's entry as typed, in the file's form; throws a message when a field is not a whole number.
function readEntry(side) {
  const name = store.game.names[side];
  if (modeOf(side) === "total") {
    const text = $(`total-${side}`).value.trim();
    if (text === "") throw `give ${name}'s score for the hand, or itemise it`;
    const total = Number(text);
    if (!Number.isInteger(total)) throw `${name}'s score must be a whole number, not ${text}`;
    return { total };
  }
  const entry = {};
  for (const input of document.querySelectorAll(`fieldset[data-side="${side}"] [data-item]`)) {
    const field = input.dataset.item;
    if (field === "out") entry.out = input.value;
    else if (field === "unfinished_wild") entry.unfinished_wild = input.checked;
    else {
      const text = input.value.trim();
      const value = text === "" ? 0 : Number(text);
      if (!Number.isInteger(value)) throw `${name}: ${setup.items[field]} must be a whole number, not ${text}`;
      entry[field] = value;
    }
  }
  return entry;
}

const previewTimers = {};
function preview(side) {
  clearTimeout(previewTimers[side]);
  previewTimers[side] = setTimeout(async () => {
    const out = $(`preview-${side}`);
    if (modeOf(side) !== "items") {
      out.textContent = "";
      return;
    }
    let entry;
    try {
      entry = readEntry(side);
    } catch (message) {
      out.textContent = message;
      out.classList.add("sk-bad");
      return;
    }
    const answer = await post("/api/score/entry", { rules: store.game.rules, entry });
    out.classList.toggle("sk-bad", !answer.ok);
    out.textContent = answer.ok
      ? `${fmt(answer.data.bonuses)} bonuses + ${fmt(answer.data.cards)} cards = ${fmt(answer.data.total)}`
      : answer.data.message;
    out.dataset.total = answer.ok ? String(answer.data.total) : "";
  }, 120);
}

function clearForm() {
  for (const fieldset of document.querySelectorAll("fieldset.sk-entry")) {
    for (const input of fieldset.querySelectorAll("input[type=number], select")) input.value = "";
    for (const input of fieldset.querySelectorAll("input[type=checkbox]")) input.checked = false;
    setMode(fieldset.dataset.side, "total");
    const out = fieldset.querySelector(".sk-preview");
    out.textContent = "";
    out.classList.remove("sk-bad");
  }
}

function fillForm(entries) {
  entries.forEach((entry, side) => {
    if ("total" in entry) {
      setMode(side, "total");
      $(`total-${side}`).value = String(entry.total);
      return;
    }
    setMode(side, "items");
    for (const input of document.querySelectorAll(`fieldset[data-side="${side}"] [data-item]`)) {
      const value = entry[input.dataset.item];
      if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = value === undefined || value === 0 ? "" : String(value);
    }
    preview(side);
  });
}

async function submitHand(event) {
  event.preventDefault();
  let entries;
  try {
    entries = store.game.names.map((_, side) => readEntry(side));
  } catch (message) {
    showError(String(message));
    return;
  }
  const game = structuredClone(store.game);
  if (correcting !== null) game.hands[correcting - 1] = entries;
  else game.hands.push(entries);
  const wasCorrecting = correcting;
  correcting = null;
  if (await commit(game)) {
    clearForm();
    render();
    $(wasCorrecting ? "sheet" : "total-0").focus?.();
  } else {
    correcting = wasCorrecting;
  }
}

function startCorrection(number) {
  correcting = number;
  clearForm();
  fillForm(store.game.hands[number - 1]);
  showError("");
  render();
  $("hand-form").scrollIntoView({ block: "nearest" });
  $("total-0").focus();
}

// -- rendering ---------------------------------------------------------------------------------

function sheetQuery(sheet) {
  const params = new URLSearchParams();
  if (typeof sheet.rules === "object") {
    for (const [key, value] of Object.entries(sheet.rules)) if (key !== "preset") params.append(key, String(value));
  }
  return params;
}

function numberCell(value, attrs = {}) {
  return el("td", { ...attrs, class: [attrs.class, value < 0 ? "sk-negative" : ""].filter(Boolean).join(" ") || null,
    text: fmt(value) });
}

function render() {
  const sheet = store.sheet;
  document.body.dataset.ready = "true";
  if (!sheet) {
    document.body.dataset.hands = "0";
    showSetup(true);
    return;
  }
  $("game").hidden = !$("setup").hidden;
  document.body.dataset.hands = String(sheet.rows.length);
  document.body.dataset.over = String(sheet.over);
  $("game-title").textContent = `${sheet.preset} · game to ${fmt(sheet.target)}`;
  $("game-status").textContent = sheet.status[0].toUpperCase() + sheet.status.slice(1) + ".";

  const head = $("sheet").tHead;
  head.replaceChildren(
    el("tr", {}, el("th", { class: "sk-hand-no", rowspan: "2", text: "Hand" }),
      ...sheet.names.map((name, side) => el("th", { class: "sk-side-name sk-side-start", colspan: "2", scope: "colgroup",
        "data-side": String(side), text: name }))),
    el("tr", {}, ...sheet.names.flatMap(() => [el("th", { class: "sk-side-start", text: "Hand" }), el("th", { text: "Total" })])));
  const body = $("sheet").tBodies[0];
  body.replaceChildren(...sheet.rows.map((row, i) => el("tr", { class: correcting === i + 1 ? "sk-editing" : null,
    "data-hand": String(i + 1) },
    el("th", { class: "sk-hand-no", scope: "row" }, String(i + 1),
      el("button", { type: "button", class: "sk-edit", "data-edit": String(i + 1), text: "Edit",
        "aria-label": `Correct hand ${i + 1}` })),
    ...row.flatMap((cell, side) => {
      const hand = numberCell(cell.total, { class: "sk-side-start", "data-side": String(side) });
      if (cell.bonuses !== null) hand.append(el("span", { class: "sk-items", text: `${fmt(cell.bonuses)} + ${fmt(cell.cards)}` }));
      return [hand, numberCell(cell.running, { class: "sk-total", "data-side": String(side), "data-running": String(cell.running) })];
    }))));
  for (const button of body.querySelectorAll("[data-edit]")) {
    button.addEventListener("click", () => startCorrection(Number(button.dataset.edit)));
  }
  $("sheet").tFoot.replaceChildren(
    el("tr", { class: "sk-totals" }, el("th", { class: "sk-hand-no", scope: "row", text: "Total" }),
      ...sheet.totals.map((t, side) => numberCell(t, { class: "sk-side-start", colspan: "2", id: `total-of-${side}`,
        "data-total": String(t) }))),
    el("tr", { class: "sk-minimum" }, el("th", { class: "sk-hand-no", scope: "row", text: "First meld next deal" }),
      ...sheet.minimums.map((m, side) => el("td", { class: "sk-side-start", colspan: "2", id: `minimum-of-${side}`,
        "data-minimum": String(m), text: String(m) }))));

  const banner = $("winner");
  banner.hidden = sheet.winner === null;
  banner.textContent = sheet.winner === null ? "" : `${sheet.status[0].toUpperCase()}${sheet.status.slice(1)}!`;

  buildEntries(sheet);
  $("hand-title").textContent = correcting !== null ? `Correct hand ${correcting}` : `Hand ${sheet.rows.length + 1}`;
  $("add-hand").textContent = correcting !== null ? "Save correction" : "Add hand";
  $("add-hand").disabled = sheet.over && correcting === null;
  $("cancel-correction").hidden = correcting === null;
  if (sheet.over && correcting === null) showError("The match is over: correct a hand or undo to go on.");
  $("undo").disabled = store.undo.length === 0;

  const preset = encodeURIComponent(sheet.preset);
  const query = sheetQuery(sheet);
  $("rules-pdf").href = `/sheets/${preset}/rules.pdf?${query}`;
  query.set("sides", String(sheet.names.length));
  $("score-pdf").href = `/sheets/${preset}/scoresheet.pdf?${query}`;
  const download = $("download");
  if (download.dataset.url) URL.revokeObjectURL(download.dataset.url);
  download.dataset.url = URL.createObjectURL(new Blob([JSON.stringify(store.game, null, 1) + "\n"],
    { type: "application/json" }));
  download.href = download.dataset.url;
}

async function undo() {
  const previous = store.undo.pop();
  if (!previous) return;
  correcting = null;
  const answer = await post("/api/score", previous);
  if (!answer.ok) {
    store.undo.push(previous);
    showError(answer.data.message);
    return;
  }
  store.game = gameOf(answer.data.sheet);
  store.sheet = answer.data.sheet;
  save();
  showError("");
  clearForm();
  render();
}

async function main() {
  const response = await fetch("/api/score/setup");
  setup = await response.json();
  fillSetup();
  load();
  $("setup-form").addEventListener("submit", startGame);
  $("setup-cancel").addEventListener("click", () => showSetup(false));
  $("hand-form").addEventListener("submit", submitHand);
  $("cancel-correction").addEventListener("click", () => { correcting = null; clearForm(); showError(""); render(); });
  $("undo").addEventListener("click", undo);
  $("new-game").addEventListener("click", () => showSetup(true));
  if (store.game) {
    // Recompute from the stored hands; if the server is out of reach, show the last sheet kept here.
    const answer = await post("/api/score", store.game);
    if (answer.ok) {
      store.sheet = answer.data.sheet;
      save();
    } else if (!answer.offline) {
      showError(`The saved game could not be read: ${answer.data.message}`);
    }
  }
  showSetup(!store.sheet);
  render();
  if (store.sheet) $("total-0").focus();
}

main();
