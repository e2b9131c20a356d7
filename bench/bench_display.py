"""Frames per second of the side screen: full draw and flip with a live camera view.

Runs the real Screen under SDL's dummy video driver (or the one SDL_VIDEODRIVER names, e.g. x11
under xvfb-run, where the window really is copied to an X server) at 1600x900 and 1920x1080.
Every frame gets a new 640x360 camera image (as the referee pushes camera frames), and every 60th
frame a changed snapshot (as after a move), so the figures include scaling each camera frame and
redrawing the static picture now and then. Target: 60 frames per second.

    .venv/bin/python bench/bench_display.py [--frames N]
    SDL_VIDEODRIVER=x11 xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python bench/bench_display.py
"""

import argparse
import os
import statistics
import time
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from companion.display.screen import Screen, render_surface
from companion.display.snapshot import (
    CameraView,
    Message,
    Snapshot,
    example_camera_image,
)


def camera_frames(count):
    """Distinct 640x360 camera images (lighting shifts from one to the next)."""
    stacks = dict(Snapshot.example().stacks)
    return [example_camera_image(stacks, {"c2": (230, 159, 0)}, seed=seed) for seed in
            range(count)]


def run(size, frames, images):
    """Frame times (seconds) of Screen.step without the frame cap, and the static redraw times."""
    screen = Screen(size)
    base = Snapshot.example("turn")
    states = [base, replace(base, message=Message("Ben: your turn.", "info"), to_move=2),
              Snapshot.example("ask"), Snapshot.example("rejected")]
    times, redraws, cpu = [], [], 0.0
    for frame in range(frames):
        image, corners = images[frame % len(images)]
        state = states[(frame // 60) % len(states)]
        screen.show(replace(state, camera=CameraView(image, corners, frame)))
        start, start_cpu = time.perf_counter(), time.process_time()
        screen.step(wait=False)
        elapsed = time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        (redraws if frame % 60 == 0 else times).append(elapsed)
    screen.close()
    return times, redraws, cpu / frames


def capped_rate(size, frames, images):
    """The frame rate Screen reports when it runs as in play: capped at 60, camera live."""
    screen = Screen(size)
    base = Snapshot.example("turn")
    for frame in range(frames):
        image, corners = images[frame % len(images)]
        screen.show(replace(base, camera=CameraView(image, corners, frame)))
        screen.step()
    rate = screen.frame_rate
    screen.close()
    return rate


def cold_draw_ms(size):
    """One draw of everything with no cache at all, as a headless screenshot does."""
    snapshot = Snapshot.example("turn")
    start = time.perf_counter()
    render_surface(snapshot, size)
    return (time.perf_counter() - start) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    args = parser.parse_args()
    images = camera_frames(30)
    driver = os.environ["SDL_VIDEODRIVER"]
    print(f"camera 640x360, new image every frame; {args.frames} frames per size; {driver} driver")
    for size in [(1600, 900), (1920, 1080)]:
        times, redraws, cpu = run(size, args.frames, images)
        mean = statistics.fmean(times)
        ordered = sorted(times)
        p99 = ordered[int(len(ordered) * 0.99) - 1]
        print(
            f"{size[0]}x{size[1]}: {1 / mean:6.0f} fps (mean {mean * 1000:.2f} ms/frame, "
            f"CPU {cpu * 1000:.2f} ms/frame, "
            f"p99 {p99 * 1000:.2f} ms, worst {max(times) * 1000:.2f} ms); "
            f"frame with a new snapshot: median {statistics.median(redraws) * 1000:.1f} ms, "
            f"worst {max(redraws) * 1000:.1f} ms; cold draw {cold_draw_ms(size):.0f} ms"
        )
    print(f"as in play (Screen.step capped at 60, 1920x1080, 180 frames): "
          f"{capped_rate((1920, 1080), 180, images):.1f} fps")
    print("target: 60 fps, i.e. at most 16.7 ms per frame; wall times include other processes'"
          " load, CPU time is this process's own")


if __name__ == "__main__":
    main()
