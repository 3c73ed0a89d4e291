#!/usr/bin/env bash
# What the tests need from the system, installed when missing (make test runs this): pdflatex with
# booktabs for the LaTeX tables, and Chromium, in which tests/test_redteam_report.py opens the
# Snakemake report to see that no script a user wrote runs. SLURM is set up by
# tests/cluster/start.sh, inside its own test. Without root or apt-get it says what is missing and
# leaves the tests to skip with the reason (under CI=true they fail instead).
set -u
missing=()
if ! command -v pdflatex >/dev/null 2>&1 || ! kpsewhich booktabs.sty >/dev/null 2>&1; then
    missing+=(texlive-latex-base texlive-latex-recommended)
fi
if ! command -v chromium >/dev/null 2>&1; then
    missing+=(chromium)
fi
if [ ${#missing[@]} = 0 ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "tests/system-packages.sh: installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null && exit 0
fi
echo "tests/system-packages.sh: ${missing[*]} missing and cannot be installed here (needs root" \
     "and apt-get): the LaTeX compile tests or the report's browser test will be skipped"
