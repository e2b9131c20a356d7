"""Instructions per step of reading one frame: where bench_vision_work.py's total goes.

Renders the synthetic frame of ``--seed`` and the one before it (the warm-up), then reads
them under valgrind's callgrind in one OpenCV thread with a marker call (``zlib.adler32``)
on entry to and exit from every function named in ``--functions`` (``module.name`` or
``module.Class.method``; by default the read stage's main steps). Callgrind dumps its counts
at every marker, so the work between two markers is known exactly, and each function is
credited with the work done while it was open (inclusive, counted once per call however
deeply it recurses). Wall times drift on a shared machine; these counts do not. The
markers themselves add a few thousand instructions a call.

    PYTHONPATH=. .venv/bin/python bench/bench_vision_work_functions.py [--seed 1001]
        [--functions vision.read.read_view,vision.rims._ray_edges,...]
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

#: The read stage's main steps (as the modules that call them name them).
STEPS = (
    "vision.read.read_view", "vision.read._normalised", "vision.read.pawn_labels",
    "vision.candidates.measure_candidates", "vision.candidates.find_seeds",
    "vision.candidates.measure_outlines", "vision.rims._ray_edges", "vision.rims._refine",
    "vision.rims.consensus_circles", "vision.rims.fit_circles", "vision.rims._circle_profile",
    "vision.candidates._top_circles", "vision.candidates._faces_of_possible_coins",
    "vision.read._coin_kinds", "vision.read.fit_frame", "vision.read._inner_outline_doubt",
    "vision.read.unlike_paper", "vision.read.empty_doubts",
)


def mark_entry_and_exit(path: str, mark: Callable[[str], None]) -> None:
    """Replace the function at ``path`` (in its module, and in every ``vision`` module that
    imported it by name) by one that marks its entry and exit."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            owner: Any = importlib.import_module(".".join(parts[:cut]))
            break
        except ModuleNotFoundError:
            continue
    else:
        raise SystemExit(f"no module in {path}")
    for name in parts[cut:-1]:
        owner = getattr(owner, name)
    plain = getattr(owner, parts[-1])

    def marked(*arguments: Any, **keywords: Any) -> Any:
        mark(">" + path)
        try:
            return plain(*arguments, **keywords)
        finally:
            mark("<" + path)

    setattr(owner, parts[-1], marked)
    if not isinstance(owner, type):
        for module_name, module in list(sys.modules.items()):
            if module_name.startswith("vision") and getattr(module, parts[-1], None) is plain:
                setattr(module, parts[-1], marked)


def _read(folder: Path, seed: int, functions: list[str]) -> None:
    """Read the warm-up frame, then the frame of ``seed`` with every function marked; the
    markers' names go to ``folder / "names"`` in the order they were called."""
    import zlib

    import cv2

    cv2.setNumThreads(1)
    from calibration.geometry import coin_isolation_mat
    from calibration.profile import VisionProfile
    from vision.read import VisionConfig, read_frame

    names: list[str] = []
    active = False

    def mark(name: str) -> None:
        if active:
            names.append(name)
            zlib.adler32(name.encode())

    for path in functions:
        mark_entry_and_exit(path, mark)
    config, profile = VisionConfig(), VisionProfile.default().only_kinds("PNDQ")
    geometry = coin_isolation_mat()
    read_frame(config, np.load(folder / f"{seed - 1}.npy"), geometry, profile)
    image = np.load(folder / f"{seed}.npy")
    active = True
    mark("start")
    read_frame(config, image, geometry, profile)
    mark("end")
    (folder / "names").write_text("\n".join(names))


def inclusive_work(names: list[str], counts: list[int]) -> tuple[Counter[str], Counter[str]]:
    """Per function, the instructions while it was open and its calls, from the markers'
    names and the work done before each (the work before a marker is every open function's)."""
    work: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    open_functions: list[str] = []
    for name, count in zip(names, counts, strict=True):
        for function in set(open_functions):
            work[function] += count
        if name.startswith(">"):
            open_functions.append(name[1:])
            calls[name[1:]] += 1
        elif name.startswith("<"):
            open_functions.pop()
    return work, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1001)
    parser.add_argument("--functions", default=",".join(STEPS))
    parser.add_argument("--read", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    functions = [path for path in args.functions.split(",") if path]
    if args.read is not None:
        _read(args.read, args.seed, functions)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed; install it (apt-get install valgrind)")
    from bench.bench_vision_work import _render, marker_counts

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _render(folder, range(args.seed - 1, args.seed + 1))
        counts = marker_counts([__file__, "--read", str(folder), "--seed", str(args.seed),
                                "--functions", ",".join(functions)], "the reading")
        names = (folder / "names").read_text().splitlines()
    # The last dumps are the markers' (the one at "start" holds all before it), in order.
    work, calls = inclusive_work(names, counts[-len(names):])
    total = sum(counts[-len(names) + 1:])
    print(f"frame {args.seed}: {total / 1e6:.1f} million instructions from the first marker "
          "to the last (read_frame, markers included)")
    for function, count in work.most_common():
        print(f"{count / 1e6:9.2f} M {calls[function]:4d} calls  {function}")


if __name__ == "__main__":
    main()
