import sys

try:  # Ctrl-C while the packages above the command line's own guard load: one line, as later
    from reprocompare.commands.cli import main
except KeyboardInterrupt:
    sys.stderr.write("reprocompare: interrupted\n")
    sys.exit(130)

sys.exit(main())
