"use strict";
// The player's own page: their name, their tables (their move first), this identity on another device, the names
// they hid, and forgetting it all.
const $ = (id) => document.getElementById(id);
let me = null, hidden = null, tables = null; // the lists as the server last gave them, said again in another language

async function renderHidden() {
  hidden = (await api("/api/me/hidden")).hidden || [];
  showHidden();
}

function showHidden() {
  $("hidden-list").replaceChildren(...hidden.map((id) => {
    const item = element("li", "line");
    const link = element("a", "", id);
    link.href = "/p/" + encodeURIComponent(id);
    const show = element("button", "", t("show_name"));
    show.type = "button";
    show.addEventListener("click", async () => { await api("/api/me/hide", { method: "POST", body: JSON.stringify({ player: id, hidden: false }) }); renderHidden(); });
    item.append(link, " ", show);
    return item;
  }));
}

// The tables the player sits at, as the server orders them: where it is their move first (the time left), then the
// others.
async function renderTables() {
  tables = await api("/api/me/tables");
  showTables();
}

function showTables() {
  const data = tables;
  $("tables-list").replaceChildren(...(data.seats.length ? data.seats.map((seat) => {
    const item = element("li", "line");
    const go = element("a", "button", t("go"));
    go.href = "/t/" + encodeURIComponent(seat.table);
    const others = seat.names.filter((name, index) => index !== seat.seat);
    item.append(element("strong", "", variantTitle(seat.variant, seat.variant)), " · ");
    others.forEach((name, index) => item.append(...(index ? [", "] : []), bdi(name)));
    if (seat.your_move) item.append(" ", element("span", "tag your-move", seat.left === null ? t("your_move") : t("your_move_left", { time: timeWords(seat.left) })));
    item.append(" ", go);
    return item;
  }) : [element("li", "empty", t("my_tables_none"))]));
}

async function main() {
  watchLanguage(() => { if (hidden) showHidden(); if (tables) showTables(); });
  me = await whoAmI();
  if (!me) { location.replace("/"); return; }
  $("name").value = me.name;
  $("rename-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = $("name").value;
    try {
      me = await api("/api/me", { method: "POST", body: JSON.stringify({ name: typed }) });
      $("status").textContent = t("saved");
    } catch (error) { $("status").replaceChildren(...nameRefusal(error, typed)); }
  });
  $("transfer").addEventListener("click", async () => {
    const data = await api("/api/me/transfer", { method: "POST", body: "{}" });
    const field = $("transfer-link");
    field.value = location.origin + "/me/claim#code=" + data.code;
    field.hidden = false;
    field.select();
  });
  $("forget").addEventListener("click", async () => {
    if (!window.confirm(t("forget_sure"))) return;
    await api("/api/me", { method: "DELETE", body: "{}" });
    $("status").textContent = t("forgotten");
    location.assign("/");
  });
  // Disabled in the page until here, so that a press while the player is still being read is not lost.
  for (const id of ["name", "save", "transfer", "forget"]) $(id).disabled = false;
  renderHidden();
  renderTables();
}

main();
