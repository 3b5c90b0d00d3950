"use strict";
// The table's connection opens as soon as the page starts to load, so that the server's answer is on its way while
// the rest of the page arrives; table.js takes the connection over and reads what came meanwhile.  (This script is
// loaded async: should it come after table.js has connected on its own, it opens nothing.)
const EARLY = window.rackoConnected ? null : (() => {
  const table = encodeURIComponent(decodeURIComponent(location.pathname.split("/").pop()));
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  const socket = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws/" + table);
  const early = { socket, frames: [], closed: null, taken: false };
  socket.onopen = () => socket.send(JSON.stringify({ type: "hello", token, version: 0 }));
  socket.onmessage = (event) => early.frames.push(event.data);
  socket.onclose = (event) => { early.closed = event; };
  return early;
})();
