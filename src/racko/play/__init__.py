"""The play layer, shared by every front end: a game with its seats (:mod:`racko.play.session`), the one play
loop (:mod:`racko.play.loop`), the expert's hints (:mod:`racko.play.hint`) and text renderings
(:mod:`racko.play.text`).  It depends on the engine and the bots only; front ends depend on it.
"""
