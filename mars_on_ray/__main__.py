"""``python -m mars_on_ray ...`` is the ``mars-on-ray`` command line."""
import sys

from mars_on_ray.cli import main

sys.exit(main())
