"""The ids the server makes are typed on command lines, so none reads as an option (CI once made ``-vo4-4GqIZov``
and ``racko admin remove -vo4-4GqIZov`` was refused as an unknown option)."""

from __future__ import annotations

from racko.web.store import new_id


def test_no_id_starts_with_a_dash() -> None:
    made = [new_id() for _ in range(4000)]  # one in 64 would start with "-" without the guard
    assert not [made_id for made_id in made if made_id.startswith("-")]
    assert len(set(made)) == len(made)
    assert {len(made_id) for made_id in made} == {12}
    assert {len(new_id(6)) for _ in range(100)} == {8}
