"""How 2c and 2d compare a configuration with the target alone: one process
a round, each configuration's block between two alone blocks, its ratio
to the mean of those two, so that the spread between processes does not
enter it."""
import statistics

from report import med, spread, fmt


def upper_quartile(v):
    """A block's throughput: other work on the two cores only ever takes
    throughput away, a second at a time, and an undisturbed block's seconds
    are within about 1% of each other; so its upper quartile, not its
    median, is the estimate that a stolen second does not move."""
    v = sorted(x for x in v if x is not None)
    return v[(3 * len(v)) // 4] if v else None


def block_ratio(blocks, i, est):
    """Block i's throughput over the mean of the alone blocks either side."""
    mine, around = est(blocks[i][1]), [est(blocks[i - 1][1]), est(blocks[i + 1][1])]
    return mine / statistics.mean(around) if mine and all(around) else None


def blocks_summary(rounds_blocks, configs):
    out = {c: {"ratios": [], "median_ratios": [], "ops": [], "target_cpu": [], "infos": []}
           for c in ["alone"] + configs}
    for blocks in rounds_blocks:
        for i, (c, v, share, info) in enumerate(blocks):
            out[c]["ops"].append(upper_quartile(v))
            out[c]["target_cpu"].append(share)
            if c == "alone":
                continue
            out[c]["ratios"].append(block_ratio(blocks, i, upper_quartile))
            out[c]["median_ratios"].append(block_ratio(blocks, i, med))
            out[c]["infos"].append(info)
    for c, o in out.items():
        o["ratio"] = med(o["ratios"]) if c != "alone" else 1.0
        o["ratio_spread"] = spread(o["ratios"]) if c != "alone" else (1.0, 1.0)
        o["ratio_of_medians"] = med(o["median_ratios"]) if c != "alone" else 1.0
        o["median_ops_per_s"] = med(o["ops"])
        o["target_cpu_share"] = med(o["target_cpu"])
        share = med([i.get("watcher_cpu_share") for i in o["infos"]])
        sps = med([i.get("samples_per_s") for i in o["infos"]])
        notes = ["target CPU %s%%" % fmt(o["target_cpu_share"] * 100)] if o["target_cpu_share"] else []
        if c != "alone":
            notes.append("medians' ratio %s" % fmt(o["ratio_of_medians"], "", 4))
        if share is not None:
            notes.append("watcher CPU %s%%" % fmt(share * 100))
        if sps:
            notes.append("%s samples/s" % fmt(sps))
        o["note"] = ", ".join(notes)
    return out
