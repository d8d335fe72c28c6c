// Leaks LeakedOrder objects in bursts of BURST every 500 ms among churn
// (short-lived strings and arrays), and before each burst prints a line:
//   leak <held> gen2 <GC.CollectionCount(2)> full <index> promoted <bytes> pause_us <us> gap_us <us>
// where full, promoted and pause_us are GC.GetGCMemoryInfo(GCKind.FullBlocking):
// the latest full blocking collection's index, its promoted bytes and
// pause; gap_us is the longest the ticker thread (awake every ms) stood
// still since the previous line: at least every pause in between.
// A collection that happens between two lines saw the first line's count,
// or one burst more if it came during the burst.
// Usage: CensusLeak [seconds] [baseline MiB of steady cache]
using System;
using System.Collections.Generic;
using System.Threading;

// Its 14 longs are its size (128 bytes an instance), never read or written.
#pragma warning disable CS0649
sealed class LeakedOrder
{
    public long A, B, C, D, E, F, G, H, I, J, K, L, M, N;
    public LeakedOrder(long id) { A = id; }
}
#pragma warning restore CS0649

sealed class CacheEntry
{
    public byte[] Data;
    public CacheEntry(int n) { Data = new byte[n]; }
}

static class Program
{
    const int BURST = 4000;
    static readonly List<LeakedOrder> leak = new();
    static readonly Dictionary<int, CacheEntry> cache = new();
    static volatile object? sink;
    static volatile bool done;
    static void Churn()
    {
        var rnd = new Random(7);
        while (!done)
        {
            for (int i = 0; i < 1000; i++)
                sink = i % 2 == 0 ? new string('x', 20 + rnd.Next(40)) : new byte[64 + rnd.Next(200)];
            Thread.Sleep(1);
        }
    }

    static void Report()
    {
        var info = GC.GetGCMemoryInfo(GCKind.FullBlocking);
        double pause = info.PauseDurations.Length > 0 ? info.PauseDurations[0].TotalMicroseconds : 0;
        double gap = StallTicker.TakeGapUs();
        Console.WriteLine($"leak {leak.Count} gen2 {GC.CollectionCount(2)} full {info.Index} " +
                          $"promoted {info.PromotedBytes} pause_us {pause:F0} gap_us {gap:F0}");
    }

    static void Main(string[] args)
    {
        int seconds = args.Length > 0 ? int.Parse(args[0]) : 60;
        int cacheMiB = args.Length > 1 ? int.Parse(args[1]) : 16;
        for (int i = 0; i < cacheMiB * 64; i++)
            cache[i] = new CacheEntry(16 * 1024 - 64);
        // the cache in gen2 now, rather than by a collection of the runtime's
        // own choosing during the censuses
        GC.Collect();
        var churn = new Thread(Churn) { IsBackground = true };
        churn.Start();
        StallTicker.Start();
        var end = DateTime.UtcNow.AddSeconds(seconds);
        long id = 0;
        while (DateTime.UtcNow < end)
        {
            Report();
            for (int i = 0; i < BURST; i++)
                leak.Add(new LeakedOrder(id++));
            Thread.Sleep(500);
        }
        done = true;
    }
}
