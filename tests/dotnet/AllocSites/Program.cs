// Three methods allocate in fixed proportions by bytes, paced to a steady
// rate on one thread:
//   Lines.Small  ~60%: byte[1000], small object heap
//   Lines.Large  ~30%: one byte[307176] per round, large object heap
//   Lines.Text   ~10%: strings made by System.String's constructor, so the
//                      innermost frame is the runtime's and the first
//                      application frame is Lines.Text
// With LATE_S, six more methods (Late.A to Late.F, ~10% each) take over
// Lines.Small's work one by one, from LATE_S seconds on, 0.7 s apart: each is
// compiled (once, fully optimised: no tier-up) when it is first called, at
// a moment no sampling window is timed to.
// Each site's bytes are measured exactly (GC.GetAllocatedBytesForCurrentThread
// around the call). Once a second it prints one JSON line with the per-site
// totals and GC.GetTotalAllocatedBytes, stamped with CLOCK_MONOTONIC.
//
// usage: AllocSites [ROUNDS_PER_SECOND] [SECONDS] [LATE_S]   (a round is ~1 MB)
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

static class Lines
{
    public static object? Sink;

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Small(int n)
    {
        for (int i = 0; i < n; i++)
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

static class Late
{
    const int N = 100;
    const MethodImplOptions Once = MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization;
    [MethodImpl(Once)] public static void A() { for (int i = 0; i < N; i++) Lines.Sink = new byte[1000]; }
    [MethodImpl(Once)] public static void B() { for (int i = 0; i < N; i++) Lines.Sink = new byte[1000]; }
    [MethodImpl(Once)] public static void C() { for (int i = 0; i < N; i++) Lines.Sink = new byte[1000]; }
    [MethodImpl(Once)] public static void D() { for (int i = 0; i < N; i++) Lines.Sink = new byte[1000]; }
    [MethodImpl(Once)] public static void E() { for (int i = 0; i < N; i++) Lines.Sink = new byte[1000]; }
    [MethodImpl(Once)] public static void F() { for (int i = 0; i < N; i++) Lines.Sink = new byte[1000]; }
    public static readonly Action[] Sites = { A, B, C, D, E, F };
    public static readonly string[] Names = { "Late.A", "Late.B", "Late.C", "Late.D", "Late.E", "Late.F" };
}

static class Program
{
    static long MonoNs() => (long)(Stopwatch.GetTimestamp() * (1e9 / Stopwatch.Frequency));

    static void Main(string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse(args[0]) : 50;
        int seconds = args.Length > 1 ? int.Parse(args[1]) : 30;
        long lateMs = args.Length > 2 ? (long)(double.Parse(args[2]) * 1000) : long.MaxValue;
        long small = 0, large = 0, text = 0;
        long[] late = new long[Late.Sites.Length];
        var clock = Stopwatch.StartNew();
        long done = 0;
        long nextReport = 0;
        while (clock.ElapsedMilliseconds < seconds * 1000L)
        {
            long ms = clock.ElapsedMilliseconds;
            if (ms >= nextReport)
            {
                var lateJson = new System.Text.StringBuilder();
                for (int k = 0; k < late.Length; k++)
                    lateJson.Append($",\"{Late.Names[k]}\":{late[k]}");
                Console.WriteLine("{{\"t_ns\":{0},\"Lines.Small\":{1},\"Lines.Large\":{2},\"Lines.Text\":{3},\"alloc\":{4}{5}}}",
                    MonoNs(), small, large, text, GC.GetTotalAllocatedBytes(true), lateJson);
                Console.Out.Flush();
                nextReport += 1000;
            }
            if (done * 1000 >= ms * rounds)
            {
                Thread.Sleep(2);
                continue;
            }
            int active = ms < lateMs ? 0 : (int)Math.Min(Late.Sites.Length, (ms - lateMs) / 700 + 1);
            for (int k = 0; k < active; k++)
            {
                long l0 = GC.GetAllocatedBytesForCurrentThread();
                Late.Sites[k]();
                late[k] += GC.GetAllocatedBytesForCurrentThread() - l0;
            }
            long b0 = GC.GetAllocatedBytesForCurrentThread();
            Lines.Small(600 - 100 * active);
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
