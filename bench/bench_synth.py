"""Time the synthetic table's rendering per 1920x1080 frame (prints figures, asserts nothing).

Run: .venv/bin/python bench/bench_synth.py [N]   (N frames per case, default 20)
"""

import sys

from vision.synth.tool import main

if __name__ == "__main__":
    frames = sys.argv[1] if len(sys.argv) > 1 else "20"
    sys.exit(main(["--time", frames]))
