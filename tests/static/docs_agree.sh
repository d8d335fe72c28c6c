#!/bin/sh
# README, the man page and --help say the same options and exit statuses,
# and --help fits an 80-column terminal (tests/static/docs_agree.py).
. tests/lib.sh
comparator docs_agree.py python3 tests/static/docs_agree.py "$GCTOP_BIN"
