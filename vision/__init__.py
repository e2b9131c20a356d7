"""Vision: camera sources, finding the mat, reading regions, the steady gate, a synthetic table."""
