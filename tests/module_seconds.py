"""Write tests/module_seconds.json, the seconds each test module took, from a run's ``--durations=0`` report:
``python -m pytest -n 3 --dist loadfile --no-loadscope-reorder --durations=0 … > run.log;
python tests/module_seconds.py run.log``.  The suite's conftest.py runs the longest modules first, so that the
workers end together."""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

LINE = re.compile(r"^(\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(\S+?)::")


def module_seconds(report: str) -> dict[str, float]:
    seconds: collections.Counter[str] = collections.Counter()
    for line in report.splitlines():
        found = LINE.match(line)
        if found:
            seconds[found.group(2)] += float(found.group(1))
    return {module: round(total, 1) for module, total in seconds.most_common()}


if __name__ == "__main__":
    measured = module_seconds(Path(sys.argv[1]).read_text(errors="replace"))
    Path(__file__).with_name("module_seconds.json").write_text(json.dumps(measured, indent=1) + "\n")
    print(f"{len(measured)} modules, {sum(measured.values()):.0f} s in all")
