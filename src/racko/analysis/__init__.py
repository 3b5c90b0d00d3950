"""Learning from the computer players' judgement: a move's worth from a seat's own view (:mod:`.evaluate`), every
decision of a game graded (:mod:`.review`), hints that say why (:mod:`.explain`), the first lesson
(:mod:`.lesson`) and puzzles (:mod:`.puzzles`).

Below every front end (the terminal, the tools, the web server use it alike), above the computer players and the
play layer.  Everything returns plain data ready for JSON, takes progress callbacks where it is long, and prints
nothing.
"""
