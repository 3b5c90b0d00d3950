"""Run by tests/test_install.py in a virtual environment that holds the racko wheel and nothing else (no dependency):
the rules engine plays a round of every variant at every player count with seeded random legal moves, writes each
game's record and replays it, and no module outside the standard library and racko's engine is imported."""

import sys

STARTED_WITH = set(sys.modules)  # what the interpreter's start-up imported (site, a .pth file's hooks)
ENGINE = ("racko", "racko.highlow")
"""The engine's packages: its top level (modules directly in racko) and High-Low's."""


def main() -> None:
    import random

    import racko
    from racko.record import GameRecord, replay

    played = 0
    for kind in racko.VARIANTS:
        for players in racko.variant(kind).player_counts:
            rules = racko.variant(kind).rules(players, turn_cap=60)
            game = racko.Match(rules, seed=players)
            chooser = random.Random(players)
            while not game.results:  # one round: to Rack-O or to the turn cap
                game.apply(chooser.choice(game.legal_actions()))
            record = GameRecord.of(game)
            again = replay(GameRecord.loads(record.dumps()))
            assert again.totals == game.totals and again.log == game.log, (kind, players)
            played += 1
    imported = set(sys.modules) - STARTED_WITH
    ours = sorted(name for name in imported if name == "racko" or name.startswith("racko."))
    beyond_engine = [name for name in ours if name != "racko" and name.rsplit(".", 1)[0] not in ENGINE]
    assert not beyond_engine, f"the engine imported {beyond_engine}"
    others = {name.split(".")[0] for name in imported} - set(sys.stdlib_module_names) - {"racko", "__main__"}
    assert not others, f"the engine imported {sorted(others)}"
    print(f"{played} rounds of {len(racko.VARIANTS)} variants, {len(ours)} racko modules: standard library only")


if __name__ == "__main__":
    main()
