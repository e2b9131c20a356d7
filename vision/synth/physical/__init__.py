"""A physically based renderer of the Coin Isolation table, for benchmarking the reader.

Frames are traced, not painted: a pinhole webcam with radial distortion looks down on the
printed mat (its albedo from :func:`calibration.mats.render_mat`) lying on a table; coins are
metal cylinders of their true size with rounded edges, rims and relief, stacked and sometimes
leaning; pawns are plastic solids of revolution. Light comes from a disc lamp (soft shadows),
the room and sometimes a window; metals reflect it through rough lobes (glints, dull old
pennies), laminated paper and tables add gloss. A webcam pipeline (vignetting, aberration,
blur, Bayer noise, partial white balance, tone curve, sharpening, JPEG) makes the frame.

It imports nothing of the vision reader (``vision/read.py`` and its helpers): its picture of the
table comes from physics, not from what the reader expects.

Modules: ``camera`` (pinhole, pose, lens, rays), ``materials`` (metals, pawn colours, black-body
colour), ``environment`` (lamp, room, window, ground in reflections), ``objects`` (solids, hits,
normals, shadow tests), ``relief`` (coin faces), ``textures`` (mat and table albedo), ``layout``
(where coins and pawns lie), ``scene`` (scenes and truth), ``assembly`` (scene to tracer model),
``trace`` (ray casting, edge supersampling), ``shadows``, ``shading``, ``sensor`` (the webcam),
``variation``, ``heldout`` and ``cold`` (the families), ``renderer`` (frames), ``tool``
(command line).

Not modelled: reflections of coins and pawns in other coins, light bounced between objects
(beyond the paper and table seen in reflections), hands, curled or creased paper.

Example::

    scene = random_table_scene(7, family="tuning")
    frame = render_table(scene, seed=0)        # frame.image: 1920x1080 BGR uint8
    frame.truth["b2"].top                      # the coin a camera sees on b2, or None
    frame.project([(85.0, 435.0, 0.0)])        # mat mm -> frame pixels, lens included
    frame.meta()                               # every parameter, JSON-ready

Families: :func:`tuning_variation` (broad ranges; the reader may be tuned on it),
:func:`heldout_variation` (different and wider; never tune on it) and
:func:`~vision.synth.physical.cold.cold_variation` (the tuning family's boards under a warm
lamp and a cold window coins mirror; a tuning set). Command line:
``python -m vision.synth.physical.tool --family tuning --seed 7 --out frame.jpg --json truth.json``.
"""

from vision.synth.physical.camera import Camera, build_camera
from vision.synth.physical.heldout import heldout_variation
from vision.synth.physical.renderer import TableFrame, render_table, scene_radiance
from vision.synth.physical.scene import (
    FAMILIES,
    SceneError,
    TableScene,
    calibration_scene,
    empty_scene,
    random_table_scene,
    variation_for,
)
from vision.synth.physical.variation import (
    CameraParams,
    LightParams,
    SensorParams,
    StyleParams,
    Variation,
    tuning_variation,
)

__all__ = [
    "FAMILIES",
    "Camera",
    "CameraParams",
    "LightParams",
    "SceneError",
    "SensorParams",
    "StyleParams",
    "TableFrame",
    "TableScene",
    "Variation",
    "build_camera",
    "calibration_scene",
    "empty_scene",
    "heldout_variation",
    "random_table_scene",
    "render_table",
    "scene_radiance",
    "tuning_variation",
    "variation_for",
]
