"""From a scene to a camera frame with its ground truth.

:func:`scene_radiance` places the camera, builds the model, traces a ray per pixel and nine per
edge pixel, and shades them: the linear radiance reaching the lens (cached for the last few
scenes, so successive frames of a still camera cost only the sensor). :func:`render_table`
runs it through the webcam (:mod:`vision.synth.physical.sensor`) with the frame's noise ``seed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.geometry import MatGeometry
from vision.synth import RegionTruth
from vision.synth.physical.assembly import Model, build_model
from vision.synth.physical.camera import Camera, build_camera
from vision.synth.physical.layout import CoinPlacement, PawnPlacement
from vision.synth.physical.scene import TableScene
from vision.synth.physical.sensor import capped, develop
from vision.synth.physical.shading import shade, shade_frame
from vision.synth.physical.trace import Boxes, edge_pixels, first_pass, second_pass
from vision.synth.physical.variation import Variation

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, eq=False)
class TableFrame:
    """A rendered frame: ``image`` (BGR uint8, decoded from ``jpeg``, the bytes the webcam
    sent), ``truth`` per region, the ``variation`` (its sensor as applied), the ``camera``
    (pose in mat mm, intrinsics, lens) and where every coin and pawn lies."""

    image: Image
    truth: Mapping[str, RegionTruth]
    variation: Variation
    camera: Camera
    scene: TableScene
    coins: tuple[CoinPlacement, ...]
    pawns: tuple[PawnPlacement, ...]
    jpeg: bytes = b""

    def project(self, points_mm: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """World points in mat mm (N x 3, or N x 2 on the paper) -> frame pixels (N x 2)."""
        return self.camera.project(points_mm)

    def to_mat(self, pixels: npt.ArrayLike, z_mm: float = 0.0) -> npt.NDArray[np.float64]:
        """Frame pixels (N x 2) -> mat mm where their rays meet the plane at height z."""
        return self.camera.to_plane(pixels, z_mm)

    def truth_json(self) -> dict[str, dict[str, Any]]:
        """Per region: coins bottom to top, the top coin and the pawn colour (or None)."""
        return {name: {"coins": region.coins, "top": region.top, "pawn": region.pawn}
                for name, region in self.truth.items()}

    def meta(self) -> dict[str, Any]:
        """Every parameter of the frame, grouped as the variation groups them; ``camera`` also
        holds the camera they made (position, rotation, scale over the mat)."""
        geometry = self.scene.geometry
        corners = [(0.0, 0.0), (geometry.width_mm, 0.0), (0.0, geometry.height_mm),
                   (geometry.width_mm, geometry.height_mm)]
        scales = [self.camera.px_per_mm(corner) for corner in corners]
        params = self.variation.to_json()
        camera = {**params["camera"], **self.camera.to_json(), "px_per_mm_min": min(scales),
                  "px_per_mm_max": max(scales), "height_mm": self.camera.position[2]}
        return {
            "family": self.variation.family, "seed": self.variation.seed,
            "layout_seed": self.scene.layout_seed, "variants": list(self.scene.variants),
            "camera": camera, "light": params["light"], "style": params["style"],
            "sensor": params["sensor"],
            "loose_coins": sum(1 for coin in self.coins if coin.region is None),
        }


def _radiance(model: Model) -> F32:
    width, height = model.camera.size
    boxes = Boxes.of(model)
    first = first_pass(model, boxes)
    radiance = shade_frame(model, first)
    edges = edge_pixels(first, (width, height))
    if edges.size:
        second = second_pass(model, boxes, edges, first.blocker)
        radiance[edges] = shade(model, second).reshape(-1, 9, 3).mean(axis=1)
    return radiance.reshape(height, width, 3)


@lru_cache(maxsize=2)
def scene_radiance(scene: TableScene) -> tuple[F32, Model]:
    """Linear RGB radiance (H x W x 3) reaching the lens, and the model it was traced from."""
    camera = build_camera(scene.variation.camera, scene.geometry, scene.image_size)
    model = build_model(scene, camera)
    radiance = _radiance(model)
    radiance.flags.writeable = False
    return radiance, model


def marker_cell_px(camera: Camera, geometry: MatGeometry) -> float:
    """Size in pixels of a marker cell (a sixth of the marker) across its most foreshortened
    direction, on the most distant marker."""
    return min(camera.min_px_per_mm(m.centre) * m.side_mm / 6 for m in geometry.markers)


def render_table(scene: TableScene, seed: int = 0) -> TableFrame:
    """``scene`` as the webcam sees it; ``seed`` changes only the sensor noise.

    Blur beyond what leaves the markers readable is scaled down (:func:`sensor.capped`) and a
    laminated mat's glare is kept off the markers (:func:`assembly.glare_free`); the frame's
    ``variation`` holds the light and sensor as applied.
    """
    radiance, model = scene_radiance(scene)
    sensor = capped(scene.variation.sensor, marker_cell_px(model.camera, scene.geometry))
    image, jpeg = develop(radiance, sensor, seed)
    variation = replace(scene.variation, light=model.light, sensor=sensor)
    return TableFrame(image, scene.truth(), variation, model.camera, scene, model.coins,
                      model.pawns, jpeg)
