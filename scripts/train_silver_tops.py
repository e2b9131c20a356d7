"""Fit the silver-top model (vision/silver_tops.json) on synthetic frames.

Renders frames of :func:`vision.synth.random_scene` from seeds far from those the benchmark and
the tests use (100000 on by default), reads each one with the model switched off, and records
the ring features of every silver outline no pawn covers with the true top coin of its square.
A multinomial logistic regression with an L2 penalty is fitted to them (SciPy's L-BFGS; SciPy
comes with the dev dependencies). It prints the fit's errors on the last fifth of the frames,
held out, before writing the model fitted on all of them.

    .venv/bin/python scripts/train_silver_tops.py [--frames 1500] [--seed 100000] [--out PATH]

The shipped model came from 3,000 ordinary frames and 1,500 of mixed-change games only (which
hold most smaller-on-larger stacks), collected in separate processes and then fitted together:

    .venv/bin/python scripts/train_silver_tops.py --seed 100000 --save a.npz --out /dev/null
    .venv/bin/python scripts/train_silver_tops.py --seed 102000 --save b.npz --out /dev/null
    .venv/bin/python scripts/train_silver_tops.py --seed 104000 --frames 750 --mixed-change \
        --save c.npz --out /dev/null
    .venv/bin/python scripts/train_silver_tops.py --seed 105000 --frames 750 --mixed-change \
        --save d.npz --out /dev/null
    .venv/bin/python scripts/train_silver_tops.py --features a.npz b.npz c.npz d.npz
"""

from __future__ import annotations

import argparse
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
    first_seed: int, frames: int, mixed_change: bool
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
        scene = random_scene(seed, random_variation(seed, 35.0), mixed_change=mixed_change)
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
    features: np.ndarray, labels: np.ndarray, penalty: float, weights: np.ndarray
) -> tops.SilverTopModel:
    """Multinomial logistic regression on standardised features, L2 ``penalty`` per weight,
    each coin counted by its weight."""
    mean = features.mean(axis=0)
    scale = np.maximum(features.std(axis=0), 1e-6)
    x = (features - mean) / scale
    classes, width = len(KINDS), x.shape[1]
    onehot = np.eye(classes)[labels]
    share = (weights / weights.sum())[:, None]

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        coefficients, bias = flat[: classes * width].reshape(classes, width), flat[classes * width:]
        scores = x @ coefficients.T + bias
        scores -= scores.max(axis=1, keepdims=True)
        log_chance = scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))
        error = (np.exp(log_chance) - onehot) * share
        value = -(onehot * log_chance * share).sum() + penalty * (coefficients**2).sum() / 2
        grad_w = error.T @ x + penalty * coefficients
        grad_b = error.sum(axis=0)
        return float(value), np.concatenate([grad_w.ravel(), grad_b])

    start = np.zeros(classes * width + classes)
    result = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 3000})
    coefficients = result.x[: classes * width].reshape(classes, width)
    return tops.SilverTopModel(KINDS, mean, scale, coefficients, result.x[classes * width:])


def report(model: tops.SilverTopModel, features: np.ndarray, labels: np.ndarray, title: str
           ) -> None:
    guesses = model.probabilities(features).argmax(axis=1)
    wrong = Counter((KINDS[t], KINDS[g]) for t, g in zip(labels, guesses, strict=True) if t != g)
    print(f"{title}: {len(labels)} coins, {sum(wrong.values())} wrong {dict(wrong)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--penalty", type=float, default=3e-4)
    parser.add_argument("--out", type=Path, default=tops.MODEL_PATH)
    parser.add_argument("--features", type=Path, nargs="*", default=[],
                        help="fit on features saved before (.npz) instead of rendering")
    parser.add_argument("--weights", type=float, nargs="*", default=[],
                        help="with --features: how much each file's coins count (default 1 each)")
    parser.add_argument("--save", type=Path, help="save the features collected (.npz)")
    parser.add_argument("--mixed-change", action="store_true",
                        help="render only mixed-change boards (more smaller-on-larger stacks)")
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
        features, labels, frame_of = collect(args.seed, args.frames, args.mixed_change)
        weights = np.ones(len(labels))
    if args.save:
        np.savez_compressed(args.save, features=features, labels=labels, frames=frame_of)
    print("coins by true top:", Counter(KINDS[label] for label in labels))
    train = frame_of < int(args.frames * 0.8)
    held = fit(features[train], labels[train], args.penalty, weights[train])
    report(held, features[train], labels[train], "fitted frames")
    report(held, features[~train], labels[~train], "held-out frames")
    model = fit(features, labels, args.penalty, weights)
    args.out.write_text(model.to_json() + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
