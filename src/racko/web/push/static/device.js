"use strict";
// The push room's part of the player's page: "your turn" notifications on this device. The page registers the
// service worker (/push-worker.js, whose scope is the whole site), subscribes this browser to its push service with
// the server's public key when the person turns notifications on, and tells the server (POST /api/push/devices);
// turning them off unsubscribes and tells the server too (DELETE).

(() => {
  const button = document.getElementById("push-toggle");
  const state = document.getElementById("push-state");
  const devices = document.getElementById("push-devices");
  let key = null;
  let registration = null;
  let on = false;
  let count = 0;
  let said = null; // the last message, as a key and its values, said again in a language chosen later

  function say(message, values) {
    said = message ? [message, values] : null;
    state.textContent = message ? t(message, values) : "";
  }

  function render() {
    button.dataset.t = on ? "push_off" : "push_on";
    button.textContent = t(button.dataset.t);
    devices.textContent = key ? t("push_devices", { count }) : "";
    if (said) state.textContent = t(said[0], said[1]);
  }

  function keyBytes(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
    return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  }

  async function tellServer(subscription) {
    const data = subscription.toJSON();
    const answer = await api("/api/push/devices", {
      method: "POST", body: JSON.stringify({ endpoint: data.endpoint, keys: data.keys, lang: LANG }),
    });
    count = answer.devices;
  }

  // A browser subscribes through its own push service (Chrome's is Google's): it answers in a few seconds, or, out of
  // reach, never (the browser keeps trying).  Past this long the page says so; an answer that comes later still turns
  // notifications on while the page is open.
  const PATIENCE_MS = 15000;

  async function turnOn() {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") { say("push_denied"); return; }
    const asked = registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    const subscription = await Promise.race([asked, new Promise((done) => setTimeout(done, PATIENCE_MS, null))]);
    if (!subscription) {
      say("push_no_service");
      asked.then(subscribed).catch((error) => { say(...failure(error)); }).then(render);
      return;
    }
    await subscribed(subscription);
  }

  async function subscribed(subscription) {
    await tellServer(subscription);
    on = true;
    say("push_state_on");
  }

  // What failed, in words a person can act on: the server refused the subscription, this window may not receive pushes
  // (notifications allowed, but a private window, say: Chrome calls it "permission denied"), or the browser's push
  // service failed; else the browser's own words.
  function failure(error) {
    const words = (error && error.message) || String(error);
    if (error && error.status) return ["push_server_refused", { reason: words }];
    if (Notification.permission === "granted" && (error.name === "NotAllowedError" || /permission denied/i.test(words)))
      return ["push_refused_here"];
    if (error.name === "AbortError" || /push (service|server)/i.test(words)) {
      return ["push_service_failed", { reason: words }];
    }
    return ["push_failed", { reason: words }];
  }

  async function turnOff() {
    const subscription = await registration.pushManager.getSubscription();
    if (subscription) {
      const endpoint = subscription.endpoint;
      await subscription.unsubscribe();
      const answer = await api("/api/push/devices", { method: "DELETE", body: JSON.stringify({ endpoint }) });
      count = answer.devices;
    }
    on = false;
    say("push_state_off");
  }

  async function start() {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      say("push_unsupported");
      return;
    }
    const found = await api("/api/push");
    key = found.key;
    count = found.devices;
    if (!key) { say("push_unavailable"); render(); return; }
    registration = await navigator.serviceWorker.register("/push-worker.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.getSubscription();
    if (subscription && Notification.permission === "granted") {
      await tellServer(subscription); // the server keeps it (again): a device forgotten there is known again
      on = true;
    }
    say(on ? "push_state_on" : "push_state_off");
    render();
    button.disabled = false;
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        if (on) await turnOff(); else await turnOn();
      } catch (error) {
        say(...failure(error));
      }
      render();
      button.disabled = false;
      button.focus();
    });
  }

  languageWatchers.push(render); // said again once the language chosen is the page's (its words may come later)
  start().catch((error) => { say(...failure(error)); });
})();
