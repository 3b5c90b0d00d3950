"use strict";
// A "use on another device" link: this browser becomes the player the code was made for (the code is used up).
async function main() {
  watchLanguage();
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  history.replaceState(null, "", location.pathname); // the code leaves the address bar at once
  const status = document.getElementById("claim-status");
  try {
    const player = await api("/api/me/claim", { method: "POST", body: JSON.stringify({ code }) });
    status.replaceChildren(...tNodes("claim_ok", { name: bdi(player.name) }));
    whoAmI();
  } catch (error) { status.textContent = t("claim_bad"); }
}

main();
