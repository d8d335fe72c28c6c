// Collects each generation in a known mix: every 100 ms one blocking
// GC.Collect(0), every third step a GC.Collect(1) instead, every seventh a
// GC.Collect(2), for SECONDS, between quiet stretches in which nothing is
// collected. After each step and once a second in the quiet it prints the
// runtime's own counts, GC.CollectionCount(0..2) (inclusive: a gen2 GC
// counts for gen0 and gen1 too), with the wall clock; "phase" lines mark
// the busy stretch.
//
// usage: GenMix [IDLE_BEFORE] [SECONDS] [IDLE_AFTER]
using System;
using System.Threading;

static class Program
{
    static void Report() =>
        Console.WriteLine("{{\"gc0\":{0},\"gc1\":{1},\"gc2\":{2},\"wall_ms\":{3}}}", GC.CollectionCount(0),
            GC.CollectionCount(1), GC.CollectionCount(2), DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());

    static void Phase(string name) =>
        Console.WriteLine("{{\"phase\":\"{0}\",\"wall_ms\":{1}}}", name, DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());

    static void Quiet(double seconds)
    {
        var end = DateTime.UtcNow.AddSeconds(seconds);
        while (DateTime.UtcNow < end)
        {
            Report();
            Thread.Sleep(1000);
        }
    }

    static int Main(string[] args)
    {
        double idleBefore = args.Length > 0 ? double.Parse(args[0]) : 4;
        double seconds = args.Length > 1 ? double.Parse(args[1]) : 3;
        double idleAfter = args.Length > 2 ? double.Parse(args[2]) : 5;
        var keep = new object[256];
        Quiet(idleBefore);
        Phase("busy_start");
        var end = DateTime.UtcNow.AddSeconds(seconds);
        for (int step = 1; DateTime.UtcNow < end; step++)
        {
            for (int i = 0; i < keep.Length; i++)
                keep[i] = new byte[1024];
            int gen = step % 7 == 0 ? 2 : step % 3 == 0 ? 1 : 0;
            GC.Collect(gen, GCCollectionMode.Forced, blocking: true);
            Report();
            Thread.Sleep(100);
        }
        Phase("busy_end");
        Quiet(idleAfter);
        Report();
        GC.KeepAlive(keep);
        return 0;
    }
}
