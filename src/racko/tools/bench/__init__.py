"""The bench room: ``racko bench`` and what it measures with (docs/BENCHMARKS.md).

- ``commands.py``: ``racko bench engine|batch|server|page|review``, one subcommand per benchmark, each with only its
  own options.  The engine's benchmark is ``racko.tools.commands``'s, the review's ``racko.tools.review_commands``'s;
  the batch simulator's is the ``envs`` front end's, handed in by the command above both (``racko.cli``).
- ``processes.py``: real processes on this machine, for the benchmarks and the tests: a throw-away PostgreSQL server,
  ``racko serve`` processes and HAProxy in front of them, each on a free port of 127.0.0.1 and dying with its parent.
- ``server.py``: the load generator, simulated people at many tables, and the server benchmark.
- ``page.py``: how soon the table page draws its first state in Chromium (and how the browser is launched).
- ``review.py``: how long the browser's review takes, of a game played at the server.

The web server is measured from outside, as its users and its operator meet it: started by its own commands
(``racko serve``, ``racko proxy-config``) and spoken to over HTTP and WebSockets.  Nothing here imports
``racko.web``: the front ends never import each other.
"""
