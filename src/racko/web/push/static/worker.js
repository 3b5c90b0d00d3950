"use strict";
// Rack-O's service worker: shows a "your turn" push as a notification, and a click on it opens (or focuses) the
// table's page. It fetches nothing and handles no request: the pages load as they always do.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// Only a path of this site: a push never opens another one.
function sameSite(url) {
  const resolved = new URL(typeof url === "string" ? url : "/", self.location.origin);
  return resolved.origin === self.location.origin ? resolved.href : self.location.origin + "/";
}

self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = {}; }
  const title = typeof message.title === "string" ? message.title : "Rack-O";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof message.body === "string" ? message.body : "",
    tag: typeof message.tag === "string" ? message.tag : "racko",
    renotify: true,
    data: { url: sameSite(message.url) },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const table = open.find((client) => client.url.split("#")[0] === url);
    if (table) return table.focus();
    return self.clients.openWindow(url);
  })());
});
