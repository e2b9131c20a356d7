"""Calibration: printable mats (board geometry in millimetres, with markers) and camera profiles."""
