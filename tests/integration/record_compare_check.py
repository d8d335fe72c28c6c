"""Checks shared by the record_compare_*.sh tests: each run of a gctop
--compare --json document held to the app's own counts (the .truth files of
record_compare_dotnet.shlib: /counts, "ALLOCATED GEN0 GEN1 GEN2 EXPORTS
HANDLER_BYTES", before gctop, before and after the requests, after gctop;
then the requests made)."""
import json


def truth(path):
    t = [int(x) for x in open(path).read().split()]
    c = [t[i:i + 6] for i in range(0, 24, 6)]
    answered = c[2][4] - c[1][4]
    return {"per_request": (c[2][0] - c[1][0]) / max(1, answered), "gen2": c[3][3] - c[0][3],
            "handler_per_request": (c[2][5] - c[1][5]) / max(1, answered),
            "answered": answered, "made": t[24], "counts": c}


def gen2_per_min(run):
    g = [x["per_min"] for x in run["collections_per_min"] if x["generation"] == "gen2"]
    return g[0] if g else None


def check_runs(test, cmp_json, pace, truth_files, configs=None):
    """Prints PASS/FAIL lines; returns the runs and their truths."""
    def check(ok, what):
        print(("PASS" if ok else "FAIL") + ": " + test + ": " + what, flush=True)
    runs = json.load(open(cmp_json))["runs"]
    truths = [truth(p) for p in truth_files]
    check(len(runs) == len(truths), "%d runs, one per recording" % len(runs))
    for i, (run, t) in enumerate(zip(runs, truths)):
        name = run["file"].rsplit("/", 1)[-1]
        check(t["answered"] == t["made"], "%s: the app answered the %d export requests made between its counts (%d; counts %s)" % (
            name, t["made"], t["answered"], t["counts"]))
        b = run["alloc"]["bytes_per_op_median"]
        datas = bool(configs) and configs[i][1]
        if datas:
            # GC.GetTotalAllocatedBytes sums only the heaps DATAS has active
            # at the call, so it falls when DATAS takes heaps away
            # (dotnet/runtime#131069, in the .NET 10 runtime tested here):
            # the truth is then the export handlers' own bytes, each counted
            # on its thread (GC.GetAllocatedBytesForCurrentThread); they are
            # all of a request's bytes but Kestrel's few KiB
            t = dict(t, per_request=t["handler_per_request"])
        check(run["alloc"]["ops_name"] == "requests", "%s: operations are requests (%s)" % (name, run["alloc"]["ops_name"]))
        # the bound dotnet_aspnet holds each steady interval to: 5% and one
        # interval's share of a request (one request cut by the interval's
        # edge: counted when it starts, its bytes on both sides). The
        # median is weighted by operations, so it is a steady interval's:
        # the intervals at the two ends of the requests hold fewer than a
        # second's requests each, together less than half of them
        check(b is not None and abs(b - t["per_request"]) <= 0.05 * t["per_request"] + t["per_request"] / pace,
              "%s: bytes per request %s vs the app's %.0f%s (5%% and 1/%d request)" % (
                  name, b, t["per_request"], " (its handlers' own, as DATAS makes the total unreliable)" if datas else "", pace))
        per_min = gen2_per_min(run)
        seen = per_min * run["duration_s"] / 60 if per_min is not None else None
        check(seen is not None and round(seen) == t["gen2"] and abs(seen - round(seen)) < 1e-6,
              "%s: gen2 collections over the run %s, the app counted %d" % (name, seen, t["gen2"]))
        check(run["target"]["runtime"] == "dotnet", "%s: a .NET target" % name)
        if configs:
            gc, datas = configs[i]
            check(run["gc"]["name"] == gc and ("DATAS" in run["gc"]["mode"]) == datas,
                  "%s: GC %s, DATAS %s (%s)" % (name, gc, datas, run["gc"]))
    return runs, truths
