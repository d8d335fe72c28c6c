// Many allocation sites at once, for the layout's test: 26 methods
// (Sites.S00 to Sites.S25) each allocate about the same bytes of one of six
// array types, so the top-allocators pane holds 26 sites by frame and six
// by type, a list longer than the room the memory pane leaves beside it.
//
// usage: ManySites [ROUNDS_PER_SECOND] [SECONDS]   (a round is ~1 MB)
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

static class Sites
{
    public static object? Sink;

    [MethodImpl(MethodImplOptions.NoInlining)] public static void S00() { for (int i = 0; i < 40; i++) Sink = new byte[1000]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S01() { for (int i = 0; i < 40; i++) Sink = new int[250]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S02() { for (int i = 0; i < 40; i++) Sink = new long[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S03() { for (int i = 0; i < 40; i++) Sink = new char[500]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S04() { for (int i = 0; i < 40; i++) Sink = new double[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S05() { for (int i = 0; i < 40; i++) Sink = new object[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S06() { for (int i = 0; i < 40; i++) Sink = new byte[1000]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S07() { for (int i = 0; i < 40; i++) Sink = new int[250]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S08() { for (int i = 0; i < 40; i++) Sink = new long[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S09() { for (int i = 0; i < 40; i++) Sink = new char[500]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S10() { for (int i = 0; i < 40; i++) Sink = new double[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S11() { for (int i = 0; i < 40; i++) Sink = new object[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S12() { for (int i = 0; i < 40; i++) Sink = new byte[1000]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S13() { for (int i = 0; i < 40; i++) Sink = new int[250]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S14() { for (int i = 0; i < 40; i++) Sink = new long[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S15() { for (int i = 0; i < 40; i++) Sink = new char[500]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S16() { for (int i = 0; i < 40; i++) Sink = new double[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S17() { for (int i = 0; i < 40; i++) Sink = new object[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S18() { for (int i = 0; i < 40; i++) Sink = new byte[1000]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S19() { for (int i = 0; i < 40; i++) Sink = new int[250]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S20() { for (int i = 0; i < 40; i++) Sink = new long[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S21() { for (int i = 0; i < 40; i++) Sink = new char[500]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S22() { for (int i = 0; i < 40; i++) Sink = new double[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S23() { for (int i = 0; i < 40; i++) Sink = new object[125]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S24() { for (int i = 0; i < 40; i++) Sink = new byte[1000]; }
    [MethodImpl(MethodImplOptions.NoInlining)] public static void S25() { for (int i = 0; i < 40; i++) Sink = new int[250]; }

    public static readonly Action[] All = { S00, S01, S02, S03, S04, S05, S06, S07, S08, S09, S10, S11, S12, S13, S14, S15, S16, S17, S18, S19, S20, S21, S22, S23, S24, S25 };
}

static class Program
{
    static void Main(string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse(args[0]) : 40;
        int seconds = args.Length > 1 ? int.Parse(args[1]) : 30;
        var clock = Stopwatch.StartNew();
        long done = 0;
        while (clock.ElapsedMilliseconds < seconds * 1000L)
        {
            if (done * 1000 >= clock.ElapsedMilliseconds * rounds)
            {
                Thread.Sleep(2);
                continue;
            }
            foreach (var site in Sites.All)
                site();
            done++;
        }
    }
}
