"""Press-to-verdict on the real table when the board is already steady, and the screen's frame
rate while the table runs with the camera view live.

The camera is a paced loop of pre-rendered 1920x1080 synthetic frames of the board after a legal
move (a new frame every 1/30 s with its own noise, as a webcam delivers them), so rendering is not
measured. Everything else is the real thing: the Table's vision thread (steady gate on every frame,
reading of the first steady frame asked of the camera after the press), the referee and the
engine's candidates, the journal line fsynced, then the lights set through the panel driver to the
software twin. Each trial waits until the gate calls the board steady, presses END1 on the twin,
and times the verdict: when the control thread has set the lights (``Table.on_verdict``) and when
the twin has applied them. The move is then taken back (undo, confirm) for the next trial.

The screen part runs the real Screen (1920x1080) with the table feeding it snapshots and camera
pictures from the same paced camera, under SDL's dummy driver, or a real X server under Xvfb.
Target: the verdict within 150 ms of the press; the screen at 60 frames a second.

    .venv/bin/python bench/bench_table.py [--trials 30] [--screen-seconds 5]
    SDL_VIDEODRIVER=x11 xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python bench/bench_table.py
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from calibration.geometry import mat_for_game
from calibration.profile import VisionProfile
from companion.games import get_game
from companion.launch import HeadlessSink, seats_for
from companion.panel.driver import open_panel
from companion.record.entries import JournalHeader
from companion.record.journal import JournalWriter
from companion.referee import Lights, Phase, Referee
from companion.table import Table, TableParts, led_state
from vision.camera import Frame
from vision.gate import SteadyGate
from vision.read import VisionConfig, read_frame_details
from vision.synth import SynthScene, Variation, random_variation, render

GAME = get_game("coin-isolation")


class PacedCamera:
    """Pre-rendered frames in a loop, one every ``1 / fps`` seconds, stamped on arrival."""

    def __init__(self, images, fps=30.0):
        self.images = images
        self.period = 1.0 / fps
        self.index = 0
        self.start = time.monotonic()

    def read(self):
        due = self.start + self.index * self.period
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        frame = Frame(self.images[self.index % len(self.images)], time.monotonic(), self.index)
        self.index += 1
        return frame

    def close(self):
        pass


def board_frames(after, variation, count):
    """``count`` 1920x1080 renders of ``after`` (each with its own noise)."""
    scene = SynthScene.from_table(GAME.layout(after), variation=variation)
    return [render(scene, seed).image for seed in range(count)]


def setting(variation_seed):
    """The position, the move and the camera's variation of the benchmark."""
    position = GAME.new_position(2, (), seed=11)
    moves = sorted(GAME.legal_moves(position), key=lambda move: move.text())
    move = next(move for move in moves if len(move.regions()) == 1)
    variation = Variation() if variation_seed is None else random_variation(variation_seed)
    return position, move, variation


def build_table(position, images, folder, sink):
    referee = Referee(GAME, position, position=position)
    panel = open_panel("sim://")
    header = JournalHeader.from_position(position.to_json())
    parts = TableParts(
        game=GAME, referee=referee, camera=PacedCamera(images), reopen_camera=None, panel=panel,
        geometry=mat_for_game(GAME.name), profile=VisionProfile.default(), seats=seats_for(GAME, 2),
        record_folder=folder, journal=JournalWriter.create(folder, header),
    )
    return Table(parts, sink), panel


def wait(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the table did not get there in time")
        time.sleep(0.001)


def press_to_verdict(position, images, trials):
    """Per trial: ms from the press to the lights set, to the twin's LEDs applied; verdicts."""
    folder = Path(tempfile.mkdtemp(prefix="bench-table-"))
    table, panel = build_table(position, images, folder, HeadlessSink())
    verdicts = []
    table.on_verdict(lambda verdict: verdicts.append((time.perf_counter(), verdict.verdict)))
    table.start()
    referee = table.parts.referee
    lights_ms, applied_ms, kinds = [], [], []
    try:
        wait(lambda: panel.connected)
        for _ in range(trials):
            wait(lambda: table.gate_reason == "steady")
            count = len(verdicts)
            pressed = time.perf_counter()
            panel.twin.press("END1")
            wait(lambda count=count: len(verdicts) > count)
            at, kind = verdicts[count]
            mover = 2 if kind == "green" else 1
            wanted = led_state(Lights(turn=mover, verdict=kind), 2).fitted(panel.twin.seats)
            wait(lambda wanted=wanted: panel.twin.leds == wanted)
            applied = time.perf_counter()
            lights_ms.append((at - pressed) * 1000)
            applied_ms.append((applied - pressed) * 1000)
            kinds.append(kind)
            if kind == "green":
                table.press("UNDO")
                wait(lambda: referee.phase is Phase.UNDO)
                table.press("CONFIRM")
                wait(lambda: referee.position == position and referee.phase is Phase.TURN)
            elif kind == "ask":
                table.press("UNDO")
                wait(lambda: referee.phase is Phase.TURN)
    finally:
        table.stop()
        panel.close()
    return lights_ms, applied_ms, kinds


def stage_times(position, after, images, repeat=5):
    """Median ms of the stages on the verdict's path, one at a time on this thread."""
    geometry, config, profile = mat_for_game(GAME.name), VisionConfig(), VisionProfile.default()
    gate = SteadyGate(geometry)
    gate_ms, read_ms, candidates_ms = [], [], []
    colours = {seat.colour: str(seat.number) for seat in seats_for(GAME, 2)}
    for index in range(repeat):
        image = images[index % len(images)]
        start = time.perf_counter()
        gate.look(index / 30, image, config.markers)
        gate_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        reading = read_frame_details(config, image, geometry, profile)
        read_ms.append((time.perf_counter() - start) * 1000)
        observation = reading.observation.relabel_pawns(colours)
        start = time.perf_counter()
        found = GAME.candidates(position, observation)
        candidates_ms.append((time.perf_counter() - start) * 1000)
    right = [GAME.apply(position, move) for move in found] == [after]
    return statistics.median(gate_ms), statistics.median(read_ms), \
        statistics.median(candidates_ms), right


def screen_rate(position, images, seconds):
    """Frames per second of Screen.step (capped at 60) while the table runs with a live camera."""
    from companion.display.screen import Screen

    folder = Path(tempfile.mkdtemp(prefix="bench-screen-"))
    screen = Screen((1920, 1080))
    table, panel = build_table(position, images, folder, screen)
    table.start()
    frames = 0
    camera_updates = set()
    try:
        end = time.monotonic() + 1.0
        while time.monotonic() < end:  # let the camera view start
            screen.step()
        start = time.perf_counter()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            screen.step()
            frames += 1
            camera = screen.snapshot.camera
            if camera is not None:
                camera_updates.add(camera.frame_number)
        elapsed = time.perf_counter() - start
    finally:
        table.stop()
        panel.close()
        screen.close()
    return frames / elapsed, len(camera_updates) / elapsed


def summary(values):
    ordered = sorted(values)
    p90 = ordered[max(0, round(0.9 * len(ordered)) - 1)]
    return (f"median {statistics.median(ordered):.0f} ms, p90 {p90:.0f} ms, "
            f"max {ordered[-1]:.0f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--screen-seconds", type=float, default=5.0)
    parser.add_argument("--variation", type=int, default=4,
                        help="seed of the synthetic camera's tilt and light (-1: straight, even)")
    args = parser.parse_args()
    position, move, variation = setting(None if args.variation < 0 else args.variation)
    after = GAME.apply(position, move)
    images = board_frames(after, variation, 6)
    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(f"board: {move.text()} played on a fresh board (seed 11); camera variation "
          f"{args.variation}, 1920x1080 at 30 fps, pre-rendered; "
          f"SDL driver {os.environ['SDL_VIDEODRIVER']}; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f}")
    gate_ms, read_ms, candidates_ms, right = stage_times(position, after, images)
    print(f"stages, one at a time: gate {gate_ms:.0f} ms per frame, reading the steady frame "
          f"{read_ms:.0f} ms, candidates {candidates_ms:.1f} ms "
          f"({'the move alone fits' if right else 'the reading does not fit the move alone'})")
    lights_ms, applied_ms, kinds = press_to_verdict(position, images, args.trials)
    counts = {kind: kinds.count(kind) for kind in sorted(set(kinds))}
    print(f"press -> lights set by the table ({args.trials} trials, verdicts {counts}): "
          f"{summary(lights_ms)}")
    print(f"press -> LEDs applied on the panel twin: {summary(applied_ms)}")
    fps, camera_fps = screen_rate(position, images, args.screen_seconds)
    print(f"screen with the table running (1920x1080, live camera view): {fps:.1f} fps drawn, "
          f"camera picture updated {camera_fps:.1f} times a second")
    print("targets: verdict within 150 ms of the press; screen at 60 fps")
    threading.Event().wait(0)


if __name__ == "__main__":
    main()
