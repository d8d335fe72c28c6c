# Sourced by tests/run.sh and tests/lib.sh: puts the directory of the
# python3 interpreter first on PATH, once. Where python3 on PATH is
# pyenv's shim, every call runs three bash scripts (pyenv-exec,
# pyenv-version-name, pyenv-which) before the interpreter: measured 0.15 s
# a call on a quiet machine and 1.6 s beside the suite's workloads, for
# the same python. The suite calls python3 in every comparator and in
# many wait loops, so the shim cost minutes and most of the suite's system
# time. The interpreter is the one the shim would pick (sys.executable).
if [ -z "${GCTOP_PYTHON_DIR:-}" ]; then
	GCTOP_PYTHON_DIR=$(python3 -c 'import os, sys; print(os.path.dirname(sys.executable))' 2>/dev/null) || GCTOP_PYTHON_DIR=""
	if [ -n "$GCTOP_PYTHON_DIR" ]; then
		PATH="$GCTOP_PYTHON_DIR:$PATH"
		export PATH GCTOP_PYTHON_DIR
	fi
fi
