"""`python -m companion` runs the command line."""

import gc
import sys

from companion.cli import main

code = main()
# The process ends here: the collection Python makes at exit need not walk every object the
# command made (a few milliseconds of a `companion rules` command that takes fifty).
gc.freeze()
sys.exit(code)
