"""Tools for studying the game: the arena and solitaire runs, the engine benchmark, replays and hints of records.

A front end beside the terminal: it uses the engine, the bots and the play layer, never another front end.
"""
