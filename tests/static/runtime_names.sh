#!/bin/sh
# A runtime's name appears only in its folder and the registry
# (tests/static/runtime_names.py says what a name is and the exceptions).
. tests/lib.sh
comparator runtime_names.py python3 tests/static/runtime_names.py .
