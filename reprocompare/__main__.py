import sys

from reprocompare.cli import main

sys.exit(main())
