"""Playing in a terminal: ``racko play`` (the full-screen app and plain text mode) and ``racko demo``.

A front end: it renders the play loop's steps (:mod:`racko.play.loop`) and turns keys and commands into actions.
"""
