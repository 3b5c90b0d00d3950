"""The push room: "your turn" notifications for a person whose page is closed (Web Push, RFC 8030 and 8291, signed
with the server's VAPID keys, RFC 8292): the keys (:mod:`.keys`), each device's subscription and the pushes
(:mod:`.pushes`), where a push may go (:mod:`.reach`: the browsers' push services only, never inside a network),
the service worker and the routes (:mod:`.routes`)."""

from racko.web.push.keys import KEYS_FILE_SUFFIX, PushKeys, keys_at, keys_beside
from racko.web.push.pushes import CONTACT, DEAD, SCHEMA, Device, Pushes, turn_message
from racko.web.push.reach import KNOWN_SERVICES, PushReach, Unreachable, inside_a_network
from racko.web.push.routes import PushRoutes

__all__ = [
    "CONTACT",
    "DEAD",
    "KEYS_FILE_SUFFIX",
    "KNOWN_SERVICES",
    "SCHEMA",
    "Device",
    "PushKeys",
    "PushReach",
    "PushRoutes",
    "Pushes",
    "Unreachable",
    "inside_a_network",
    "keys_at",
    "keys_beside",
    "turn_message",
]
