"""The window loop under the dummy video driver, keys as panel buttons, headless screenshots."""

import threading

import numpy as np
import pygame
import pytest

from companion.display import pieces
from companion.display.screen import Screen, render_surface, save_screenshot
from companion.display.snapshot import Message, Snapshot


@pytest.fixture
def screen():
    quits = []
    window = Screen((1280, 720), on_quit=lambda: quits.append(True))
    window.quits = quits
    yield window
    window.close()


def window_pixel(x, y):
    return tuple(pygame.display.get_surface().get_at((x, y)))[:3]


def key(code):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0))


def test_show_draws_the_latest_snapshot_from_another_thread(screen):
    snapshots = [Snapshot(message=Message(f"message {i}", "warning")) for i in range(50)]
    pusher = threading.Thread(target=lambda: [screen.show(s) for s in snapshots])
    pusher.start()
    while pusher.is_alive():
        assert screen.step(wait=False)
    pusher.join()
    assert screen.step(wait=False)
    assert screen.snapshot is snapshots[-1]
    bar = screen._layout.message_bar
    assert window_pixel(bar.right - 12, bar.center[1]) == pieces.YELLOW


def test_keys_become_panel_buttons_in_order(screen):
    for code in (pygame.K_1, pygame.K_4, pygame.K_u, pygame.K_SPACE, pygame.K_RETURN, pygame.K_x):
        key(code)
    assert screen.step(wait=False)
    pressed = []
    while not screen.buttons.empty():
        pressed.append(screen.buttons.get_nowait())
    assert pressed == ["END1", "END4", "UNDO", "SELECT", "CONFIRM"]


def test_escape_requests_quit_once(screen):
    key(pygame.K_ESCAPE)
    assert not screen.step(wait=False)
    assert screen.quit_requested.is_set()
    screen.request_quit()
    assert screen.quits == [True]


def test_closing_the_window_requests_quit(screen):
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert not screen.step(wait=False)
    assert screen.quits == [True]


def test_run_returns_when_another_thread_asks_to_quit(screen):
    screen.show(Snapshot.example("turn"))
    timer = threading.Timer(0.2, screen.request_quit)
    timer.start()
    screen.run()
    timer.join()
    assert screen.quit_requested.is_set()


def test_the_full_screen_key_switches_and_switches_back(screen):
    key(pygame.K_F11)
    screen.step(wait=False)
    assert screen.fullscreen
    key(pygame.K_f)
    screen.step(wait=False)
    assert not screen.fullscreen
    # The dummy driver keeps the desktop size; a real window goes back to the size it had.
    assert screen._windowed_size == (1280, 720)


def test_a_resized_window_gets_a_new_layout(screen):
    screen.show(Snapshot.example("turn"))
    screen.step(wait=False)
    assert screen._layout.size == (1280, 720)
    pygame.display.set_mode((900, 900), pygame.RESIZABLE)
    screen.step(wait=False)
    layout = screen._layout
    assert layout.size == (900, 900)
    assert layout.window.contains(layout.board)
    a1 = layout.square("a1")
    assert window_pixel(a1.x + 1, a1.y + 1) in (pieces.DARK_SQUARE, pieces.LIGHT_SQUARE)


@pytest.mark.parametrize("state", ["turn", "ask", "rejected", "game-over"])
def test_save_screenshot_writes_a_png_of_the_requested_size(state, tmp_path):
    pygame.display.quit()  # headless: no window at all
    path = save_screenshot(Snapshot.example(state), tmp_path / f"screen-{state}.png", (1600, 900))
    assert path.exists() and path.stat().st_size < 400_000
    image = pygame.image.load(str(path))
    assert image.get_size() == (1600, 900)
    expected = pygame.surfarray.array3d(render_surface(Snapshot.example(state), (1600, 900)))
    assert np.array_equal(pygame.surfarray.array3d(image), expected)


def test_save_screenshot_names_a_bad_path(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    from companion.display.snapshot import DisplayError

    with pytest.raises(DisplayError, match="could not"):
        save_screenshot(Snapshot(), tmp_path / "file" / "x.png")


def test_a_screenshot_requested_from_another_thread_is_saved_by_the_loop(screen, tmp_path):
    screen.show(Snapshot.example("rejected"))
    target = tmp_path / "shots" / "window.png"
    worker = threading.Thread(target=screen.request_screenshot, args=(target,))
    worker.start()
    worker.join()
    screen.step(wait=False)
    image = pygame.image.load(str(target))
    assert image.get_size() == (1280, 720)
    bar = screen._layout.message_bar
    assert tuple(image.get_at((bar.right - 12, bar.center[1])))[:3] == pieces.VERMILLION


def test_an_exposed_window_is_redrawn_whole(screen):
    screen.show(Snapshot.example("turn"))
    screen.step(wait=False)
    assert screen.draw_frame() == []
    pygame.display.get_surface().fill((255, 0, 255))  # as if another window had painted over it
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    screen.step(wait=False)
    assert window_pixel(5, 5) == pieces.BACKGROUND


def test_camera_frames_from_their_own_thread_join_the_referees_snapshots(screen):
    from companion.display.snapshot import CameraView

    red = np.zeros((360, 640, 3), np.uint8)
    red[:] = (0, 0, 255)
    screen.show(Snapshot.example("rejected"))
    feeder = threading.Thread(target=screen.show_camera, args=(CameraView(red, None, 7),))
    feeder.start()
    feeder.join()
    screen.step(wait=False)
    camera = screen._layout.camera
    assert window_pixel(*camera.center) == (255, 0, 0)
    assert screen.snapshot.message == Snapshot.example("rejected").message
    assert screen.snapshot is screen.snapshot  # combined once, not per frame
    screen.show(Snapshot.example("turn"))  # a new snapshot keeps the fed camera
    screen.step(wait=False)
    assert window_pixel(*camera.center) == (255, 0, 0)
    screen.show_camera(None)
    screen.step(wait=False)
    assert window_pixel(*camera.center) != (255, 0, 0)
