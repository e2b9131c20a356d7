"""Fit the silver-top model (vision/silver_tops.json) on synthetic frames.

Renders frames of :func:`vision.synth.random_scene` from seeds far from those the benchmark and
the tests use (100000 on by default), reads each one with the model switched off, and records
the ring features of every silver outline with the true top coin of its square. A network with
one hidden layer (or with ``--hidden 0`` a multinomial logistic regression) is fitted to them
with an L2 penalty (SciPy's L-BFGS; SciPy comes with the dev dependencies). It prints the
fit's errors on the last fifth of the frames, held out, before writing the model fitted on all
of them.

    .venv/bin/python scripts/train_silver_tops.py [--frames 1500] [--seed 100000] [--out PATH]

The shipped model came from 2,400 ordinary frames and 1,500 of mixed-change games with four
pawns (which hold most smaller-on-larger stacks, and more coins under pawns), collected in
separate processes and then fitted together:

    .venv/bin/python scripts/train_silver_tops.py --seed 100000 --frames 1200 \
        --save a.npz --collect-only
    .venv/bin/python scripts/train_silver_tops.py --seed 102000 --frames 1200 \
        --save b.npz --collect-only
    .venv/bin/python scripts/train_silver_tops.py --seed 104000 --frames 750 --players 4 \
        --mixed-change --save c.npz --collect-only
    .venv/bin/python scripts/train_silver_tops.py --seed 105000 --frames 750 --players 4 \
        --mixed-change --save d.npz --collect-only
    .venv/bin/python scripts/train_silver_tops.py --features a.npz b.npz c.npz d.npz
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

import vision.read as read_module
from vision import silver_tops as tops
from vision.profile import VisionProfile
from vision.read import VisionConfig, read_frame_details
from vision.synth import random_scene, random_variation, render

KINDS = ("D", "N", "Q")


def collect(
    first_seed: int, frames: int, mixed_change: bool, players: int = 2
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, true top kinds (indices into KINDS) and frame numbers of every candidate."""
    recorded: dict[str, Any] = {}

    def record(model: Any, grey: Any, cover: Any, centres: Any, outline_px: Any,
               diameters: Any, kinds: list[str], ppm: float, profile: VisionProfile) -> Any:
        index, recorded["features"] = tops.silver_candidates(
            KINDS, grey, cover, centres, outline_px, diameters, kinds, ppm, profile
        )
        recorded["centres"] = centres[index]
        return list(kinds), np.ones(len(kinds)), np.zeros(len(kinds), dtype=bool)

    read_module.silver_tops = record  # type: ignore[assignment]
    read_module.default_model = lambda: None  # type: ignore[assignment]
    config = VisionConfig()
    profile = VisionProfile.default().only_kinds("PNDQ")
    rows, labels, frame_of = [], [], []
    for number, seed in enumerate(range(first_seed, first_seed + frames)):
        scene = random_scene(seed, random_variation(seed, 35.0), players=players,
                             mixed_change=mixed_change)
        frame = render(scene, seed)
        details = read_frame_details(config, frame.image, scene.geometry, profile)
        view = details.view
        for centre, features in zip(recorded["centres"], recorded["features"], strict=True):
            region = scene.geometry.region_at(view.to_mm(float(centre[0]), float(centre[1])))
            if region is None or region.name not in frame.truth:
                continue
            top = frame.truth[region.name].top
            if top in KINDS:
                rows.append(features)
                labels.append(KINDS.index(top))
                frame_of.append(number)
        if number % 50 == 49:
            print(f"  {number + 1} frames, {len(rows)} coins", flush=True)
    return np.array(rows), np.array(labels), np.array(frame_of)


def fit(
    features: np.ndarray, labels: np.ndarray, hidden: int, penalty: float, weights: np.ndarray,
    seed: int = 0,
) -> tops.SilverTopModel:
    """A network with one hidden layer of ``hidden`` ReLU units (none: multinomial logistic
    regression) on standardised features, fitted by L-BFGS to the weighted mean log loss plus
    an L2 ``penalty`` per weight. ``seed`` draws the starting weights."""
    mean = features.mean(axis=0)
    scale = np.maximum(features.std(axis=0), 1e-6)
    x = ((features - mean) / scale).astype(np.float32)
    widths = [x.shape[1], *([hidden] if hidden else []), len(KINDS)]
    shapes = [shape for inputs, outputs in itertools.pairwise(widths)
              for shape in ((outputs, inputs), (outputs,))]
    onehot = np.eye(len(KINDS), dtype=np.float32)[labels]
    share = (weights / weights.sum()).astype(np.float32)[:, None]

    def unpack(flat: np.ndarray) -> list[np.ndarray]:
        ends = np.cumsum([math.prod(shape) for shape in shapes])
        return [part.reshape(shape).astype(np.float32) for part, shape in
                zip(np.split(flat, ends[:-1]), shapes, strict=True)]

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        parts = unpack(flat)
        inputs = [x]
        for weight, bias in zip(parts[0:-2:2], parts[1:-2:2], strict=True):
            inputs.append(np.maximum(inputs[-1] @ weight.T + bias, 0.0))
        scores = inputs[-1] @ parts[-2].T + parts[-1]
        scores -= scores.max(axis=1, keepdims=True)
        log_chance = scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))
        value = -float((onehot * log_chance * share).sum()) + penalty / 2 * sum(
            float((weight.astype(np.float64) ** 2).sum()) for weight in parts[0::2])
        error = (np.exp(log_chance) - onehot) * share
        gradients: list[np.ndarray] = []
        for layer in range(len(widths) - 2, -1, -1):
            weight = parts[2 * layer]
            gradients[:0] = [error.T @ inputs[layer] + penalty * weight, error.sum(axis=0)]
            if layer:
                error = (error @ weight) * (inputs[layer] > 0)
        return value, np.concatenate([g.ravel() for g in gradients]).astype(np.float64)

    rng = np.random.default_rng(seed)
    start = np.concatenate([
        (rng.normal(0.0, math.sqrt(2 / shape[1]), shape) if len(shape) == 2 and hidden
         else np.zeros(shape)).ravel() for shape in shapes
    ])
    result = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 3000})
    parts = [part.astype(np.float64) for part in unpack(result.x)]
    layers = tuple(tops.DenseLayer(weight, bias) for weight, bias in
                   zip(parts[0::2], parts[1::2], strict=True))
    return tops.SilverTopModel(KINDS, mean, scale, layers)


def report(model: tops.SilverTopModel, features: np.ndarray, labels: np.ndarray, title: str
           ) -> None:
    """How many coins the model names wrongly (truth, guess), apart for coins a pawn hides
    part of; among all three kinds, not only those the outline allows."""
    guesses = model.probabilities(features).argmax(axis=1)
    by_pawns = features[:, tops.OPEN_FEATURE_COUNT:].any(axis=1)
    for part, chosen in (("open", ~by_pawns), ("by pawns", by_pawns)):
        wrong = Counter((KINDS[t], KINDS[g]) for t, g in
                        zip(labels[chosen], guesses[chosen], strict=True) if t != g)
        print(f"{title}, {part}: {chosen.sum()} coins, {sum(wrong.values())} wrong {dict(wrong)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--hidden", type=int, default=32,
                        help="hidden units (0: multinomial logistic regression)")
    parser.add_argument("--penalty", type=float, default=1e-4)
    parser.add_argument("--out", type=Path, default=tops.MODEL_PATH)
    parser.add_argument("--features", type=Path, nargs="*", default=[],
                        help="fit on features saved before (.npz) instead of rendering")
    parser.add_argument("--weights", type=float, nargs="*", default=[],
                        help="with --features: how much each file's coins count (default 1 each)")
    parser.add_argument("--save", type=Path, help="save the features collected (.npz)")
    parser.add_argument("--mixed-change", action="store_true",
                        help="render only mixed-change boards (more smaller-on-larger stacks)")
    parser.add_argument("--players", type=int, default=2,
                        help="pawns on each board (more: more coins under and beside pawns)")
    parser.add_argument("--collect-only", action="store_true",
                        help="with --save: collect and save the features, fit nothing")
    args = parser.parse_args()
    if args.features:
        saved = [np.load(path) for path in args.features]
        features = np.vstack([data["features"] for data in saved])
        labels = np.concatenate([data["labels"] for data in saved])
        frame_of = np.concatenate([data["frames"] + 10**6 * k for k, data in enumerate(saved)])
        counts = args.weights or [1.0] * len(saved)
        weights = np.concatenate([np.full(len(data["labels"]), weight)
                                  for data, weight in zip(saved, counts, strict=True)])
        args.frames = len(np.unique(frame_of))
        frame_of = np.unique(frame_of, return_inverse=True)[1]
    else:
        features, labels, frame_of = collect(args.seed, args.frames, args.mixed_change,
                                             args.players)
        weights = np.ones(len(labels))
    if args.save:
        np.savez_compressed(args.save, features=features, labels=labels, frames=frame_of)
        if args.collect_only:
            return
    print("coins by true top:", Counter(KINDS[label] for label in labels))
    train = frame_of < int(args.frames * 0.8)
    held = fit(features[train], labels[train], args.hidden, args.penalty, weights[train])
    report(held, features[train], labels[train], "fitted frames")
    report(held, features[~train], labels[~train], "held-out frames")
    model = fit(features, labels, args.hidden, args.penalty, weights)
    args.out.write_text(model.to_json() + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
