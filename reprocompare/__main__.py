import sys

from reprocompare.commands.cli import main

sys.exit(main())
