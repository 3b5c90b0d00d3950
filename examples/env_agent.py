"""Agents of racko's environments (racko.envs): functions from the observation vector and the action mask of the
seat to act to an action index, as a learner trained on the environments ends up with.  The same functions play in
the Gymnasium environment and, through the adapter, at a racko server:

    racko bot connect http://127.0.0.1:8000 --token rb_… --policy env:env_agent:sorting     (examples/ on PYTHONPATH)
    python examples/env_agent.py [EPISODES]          # sorting against racko's easy in racko/Classic-v0

`masked_random` plays any variant (a legal index at random); `sorting` reads the classic family's vector through
`racko.envs.layout` and puts each card in the slot of its tenth of the deck (High-Low: at random).
"""

from __future__ import annotations

import sys
from functools import lru_cache

import numpy as np

from racko.actions import DISCARD_INDEX, DRAW_INDEX, EXCHANGE_INDEX, RACKO_INDEX, TAKE_INDEX
from racko.envs import Block, layout
from racko.rules import RACK_SIZE, variant

RANDOM = np.random.default_rng()


def masked_random(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """Any legal action."""
    return int(RANDOM.choice(np.flatnonzero(action_mask)))


@lru_cache(maxsize=8)
def classic_blocks(length: int) -> tuple[int, dict[str, Block]] | None:
    """The deck size and the blocks of a classic-family vector of this length (None: High-Low's)."""
    for players in (2, 3, 4):
        rules = variant("classic").rules(players)
        blocks = layout(rules)
        if blocks[-1].stop == length:
            return rules.deck_size, {block.name: block for block in blocks}
    return None


def sorting(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """Rack-O whenever it may be called; a card goes to the slot of its tenth of the deck when the card there is not
    of that tenth; the top discard is taken only for that."""
    known = classic_blocks(len(observation))
    if known is None or len(action_mask) != RACKO_INDEX + 2:
        return masked_random(observation, action_mask)
    deck, blocks = known
    legal = set(np.flatnonzero(action_mask).tolist())

    def value(name: str) -> np.ndarray:
        block = blocks[name]
        return observation[block.start : block.stop]

    rack = np.rint(value("rack_values") * deck).astype(int)

    def slot_for(card: int) -> int:
        return min(RACK_SIZE - 1, (card - 1) * RACK_SIZE // deck)

    def misplaced(slot: int) -> bool:
        return slot_for(int(rack[slot])) != slot

    if RACKO_INDEX in legal:
        return RACKO_INDEX
    if DRAW_INDEX in legal:
        top = value("discard_top")
        if TAKE_INDEX in legal and top.any() and misplaced(slot_for(int(top.argmax()) + 1)):
            return TAKE_INDEX
        return DRAW_INDEX
    held = round(float(value("held_value")[0]) * deck)
    if held:
        slot = slot_for(held)
        if EXCHANGE_INDEX + slot in legal and (misplaced(slot) or DISCARD_INDEX not in legal):
            return EXCHANGE_INDEX + slot
        if DISCARD_INDEX in legal:
            return DISCARD_INDEX
    return masked_random(observation, action_mask)


def main(episodes: int) -> None:
    import gymnasium

    import racko.envs  # noqa: F401  # registers the environments

    env = gymnasium.make("racko/Classic-v0", opponents=["easy"], reward="round_win", two_player_rule=False)
    won = 0
    for episode in range(episodes):
        observation, info = env.reset(seed=episode)
        done = False
        while not done:
            observation, reward, done, _, info = env.step(sorting(observation, info["action_mask"]))
        won += reward > 0
    print(f"sorting won {won} of {episodes} rounds against easy")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
