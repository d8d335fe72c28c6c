"""Lists functions longer than a limit in C files: a function starts at a
line that opens a brace at column 0 after a signature, and ends at the
matching '}' in column 0 (the tree's style, which indent checks keep)."""
import sys

def long_functions(path, limit):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    out = []
    start = None
    for i, line in enumerate(lines):
        if line.startswith("{") and start is None:
            # the signature is the nearest line above starting in column 0
            j = i - 1
            while j > 0 and (not lines[j] or lines[j][0] in " \t"):
                j -= 1
            start = (j, lines[j].split("(")[0].split()[-1] if "(" in lines[j] else lines[j])
        elif line.startswith("}") and start is not None:
            n = i - start[0] + 1
            if n > limit:
                out.append((path, start[0] + 1, start[1].lstrip("*"), n))
            start = None
    return out

if __name__ == "__main__":
    limit = int(sys.argv[1])
    for p in sys.argv[2:]:
        for f, line, name, n in long_functions(p, limit):
            print("%s:%d: %s is %d lines" % (f, line, name, n))
