// Three methods allocate in fixed proportions by bytes, paced to a steady
// rate on one thread:
//   Lines.Small  ~60%: byte[1000], small object heap
//   Lines.Large  ~30%: one byte[307176] per round, large object heap
//   Lines.Text   ~10%: strings made by System.String's constructor, so the
//                      innermost frame is the runtime's and the first
//                      application frame is Lines.Text
// Each site's bytes are measured exactly (GC.GetAllocatedBytesForCurrentThread
// around the call). Once a second it prints one JSON line with the per-site
// totals and GC.GetTotalAllocatedBytes, stamped with CLOCK_MONOTONIC.
//
// usage: AllocSites [ROUNDS_PER_SECOND] [SECONDS]   (a round is ~1 MB)
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

static class Lines
{
    public static object? Sink;

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Small()
    {
        for (int i = 0; i < 600; i++)
            Sink = new byte[1000];
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Large()
    {
        Sink = new byte[307176];
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Text()
    {
        for (int i = 0; i < 914; i++)
            Sink = new string('c', 45);
    }
}

static class Program
{
    static long MonoNs() => (long)(Stopwatch.GetTimestamp() * (1e9 / Stopwatch.Frequency));

    static void Main(string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse(args[0]) : 50;
        int seconds = args.Length > 1 ? int.Parse(args[1]) : 30;
        long small = 0, large = 0, text = 0;
        var clock = Stopwatch.StartNew();
        long done = 0;
        long nextReport = 0;
        while (clock.ElapsedMilliseconds < seconds * 1000L)
        {
            long ms = clock.ElapsedMilliseconds;
            if (ms >= nextReport)
            {
                Console.WriteLine("{{\"t_ns\":{0},\"Lines.Small\":{1},\"Lines.Large\":{2},\"Lines.Text\":{3},\"alloc\":{4}}}",
                    MonoNs(), small, large, text, GC.GetTotalAllocatedBytes(true));
                Console.Out.Flush();
                nextReport += 1000;
            }
            if (done * 1000 >= ms * rounds)
            {
                Thread.Sleep(2);
                continue;
            }
            long b0 = GC.GetAllocatedBytesForCurrentThread();
            Lines.Small();
            long b1 = GC.GetAllocatedBytesForCurrentThread();
            Lines.Large();
            long b2 = GC.GetAllocatedBytesForCurrentThread();
            Lines.Text();
            long b3 = GC.GetAllocatedBytesForCurrentThread();
            small += b1 - b0;
            large += b2 - b1;
            text += b3 - b2;
            done++;
        }
    }
}
