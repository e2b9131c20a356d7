"""Sets of frames with their truth, for the vision benchmark: where frames come from.

* ``synth``: the project's sprite renderer (:mod:`vision.synth`), which the demo's ``sim://``
  camera serves: coins painted matte, the reader's first tuning set.
* ``tuning``: the physically based renderer (:mod:`vision.synth.physical`), tuning family.
* ``heldout``: the same renderer's held-out family, which the reader is never tuned on.
* ``cold``: the tuning family's boards and cameras under a warm lamp, a cold window that
  flat coins mirror and a white balance that suits neither (:mod:`vision.synth.physical.cold`);
  a tuning set.
* ``stress``: tuning frames each with one condition of a real table pushed to its extreme
  (:mod:`vision.synth.physical.stress`), from seed ``FIRST_SEED`` on; a tuning set.
* a folder of ``frame_N.jpg`` (or ``.png``) with ``frame_N.json`` truth, in the layout of
  ``../shared/vision-samples`` (frames of a renderer written elsewhere).

Physically rendered frames take a second or two each, so they are rendered once, in parallel,
into a cache folder (PNG and JSON per seed) and read from there afterwards.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth import RegionTruth

#: Where physically rendered frames are kept between runs.
CACHE = Path(__file__).resolve().parent / ".cache"
#: The sets the benchmark knows by name (a folder path is also a set).
NAMED_SETS = ("synth", "tuning", "heldout", "cold", "stress")


@dataclass(frozen=True, eq=False)
class TruthFrame:
    """One frame with the truth of every region, and whatever its renderer says of it."""

    name: str
    image: np.ndarray
    truth: Mapping[str, RegionTruth]
    variants: tuple[str, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)


def frames(set_name: str, count: int, seed: int, workers: int = 2,
           max_tilt: float = 35.0) -> Iterator[TruthFrame]:
    """``count`` frames of ``set_name`` from ``seed`` on (a folder yields all it holds)."""
    if set_name == "synth":
        yield from _synth_frames(count, seed, max_tilt)
    elif set_name == "stress":
        from vision.synth.physical.stress import FIRST_SEED

        yield from _rendered_frames(set_name, count, FIRST_SEED + seed, workers)
    elif set_name in ("tuning", "heldout", "cold"):
        yield from _rendered_frames(set_name, count, seed, workers)
    else:
        yield from folder_frames(Path(set_name))


def _synth_frames(count: int, seed: int, max_tilt: float) -> Iterator[TruthFrame]:
    from vision.synth import random_scene, random_variation, render

    for index in range(seed, seed + count):
        scene = random_scene(index, random_variation(index, max_tilt))
        frame = render(scene, index)
        yield TruthFrame(f"synth {index}", frame.image, frame.truth, scene.variants)


def _render_one(job: tuple[str, int]) -> str:
    """Render one physical frame into the cache (in a worker process); its path."""
    from vision.synth.physical import random_table_scene, render_table

    family, seed = job
    folder = CACHE / family
    image_path, truth_path = folder / f"{seed}.png", folder / f"{seed}.json"
    if not (image_path.exists() and truth_path.exists()):
        scene = random_table_scene(seed, family=family)
        frame = render_table(scene, seed=0)
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(image_path), frame.image)
        truth = {name: {"coins": region.coins, "top": region.top, "pawn": region.pawn}
                 for name, region in frame.truth.items()}
        document = {"truth": truth, "meta": frame.meta(), "variants": list(scene.variants)}
        truth_path.write_text(json.dumps(document))
    return str(image_path)


def _rendered_frames(family: str, count: int, seed: int, workers: int
                     ) -> Iterator[TruthFrame]:
    jobs = [(family, index) for index in range(seed, seed + count)]
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            paths = list(pool.imap(_render_one, jobs))
    else:
        paths = [_render_one(job) for job in jobs]
    for (_, index), path in zip(jobs, paths, strict=True):
        yield _load(Path(path), Path(path).with_suffix(".json"), f"{family} {index}")


def folder_frames(folder: Path) -> Iterator[TruthFrame]:
    """Every ``NAME.jpg`` or ``NAME.png`` of ``folder`` beside a ``NAME.json`` truth."""
    for truth_path in sorted(folder.glob("*.json")):
        for suffix in (".jpg", ".png", ".jpeg"):
            image_path = truth_path.with_suffix(suffix)
            if image_path.exists():
                yield _load(image_path, truth_path, f"{folder.name}/{truth_path.stem}")
                break


def _load(image_path: Path, truth_path: Path, name: str) -> TruthFrame:
    document = json.loads(truth_path.read_text())
    image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
    if image is None:
        raise SystemExit(f"{image_path} is not an image: render it again or delete it.")
    truth = {region: RegionTruth(coins=value.get("coins") or "", pawn=value.get("pawn"))
             for region, value in document["truth"].items()}
    meta = document.get("meta", {})
    variants = tuple(document.get("variants", meta.get("variants", ())))
    return TruthFrame(name, image, truth, variants, meta)
