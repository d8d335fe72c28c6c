// Allocates at a steady, paced rate: mostly small arrays, and one large
// (>85,000-byte, so LOH) array in every `largeEvery` allocations. A ring of
// survivors keeps gen1/gen2 busy. Once a second it prints one JSON line with
// the runtime's own figures, stamped with CLOCK_MONOTONIC (Stopwatch on Linux),
// which tests compare with gctop over the same window. The allocated bytes are
// read without suspending the runtime (GetTotalAllocatedBytes(false)): the
// precise count suspends it, and a suspension that collides with a
// background GC's final mark moves the runtime's own pause figure.
//
// usage: GcAlloc [MB_PER_SECOND] [SECONDS] [PINNED_MB] [IDLE_BEFORE] [IDLE_AFTER]
//   PINNED_MB > 0 also keeps that many MB of pinned (POH) buffers alive,
//   replacing a slice of them every second.
//   IDLE_BEFORE, IDLE_AFTER: quiet seconds around the allocating phase (still
//   reporting), so a test can compare totals over a window with calm edges.
using System;
using System.Diagnostics;
using System.Threading;

static class Program
{
    static long MonoNs() => (long)(Stopwatch.GetTimestamp() * (1e9 / Stopwatch.Frequency));

    static void Report()
    {
        var info = GC.GetGCMemoryInfo();
        long loh = info.GenerationInfo.Length > 3 ? info.GenerationInfo[3].SizeAfterBytes : -1;
        long poh = info.GenerationInfo.Length > 4 ? info.GenerationInfo[4].SizeAfterBytes : -1;
        Console.WriteLine(
            "{{\"t_ns\":{0},\"alloc\":{1},\"gc0\":{2},\"gc1\":{3},\"gc2\":{4},\"pause_ns\":{5},\"loh\":{6},\"poh\":{7},\"gc_index\":{8},\"server\":{9},\"available\":{10},\"wall_ms\":{11},\"frag\":[{12}]}}",
            MonoNs(), GC.GetTotalAllocatedBytes(false), GC.CollectionCount(0), GC.CollectionCount(1),
            GC.CollectionCount(2), (long)(GC.GetTotalPauseDuration().Ticks * 100), loh, poh, info.Index,
            System.Runtime.GCSettings.IsServerGC ? "true" : "false", info.TotalAvailableMemoryBytes,
            DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(),
            string.Join(",", Array.ConvertAll(info.GenerationInfo.ToArray(), g => g.FragmentationAfterBytes)));
    }

    // With GCALLOC_GCLOG=1: a thread that logs each background collection
    // the runtime records, with its two pauses as the runtime times them
    // (GC.GetGCMemoryInfo(GCKind.Background)), polling every 5 ms while the
    // program allocates and a second after (its own allocations must not
    // cause a collection in the quiet end the tests read).
    static long busyEndNs;

    static void LogBackgroundGcs()
    {
        long seen = 0;
        while (Interlocked.Read(ref busyEndNs) == 0 || MonoNs() < Interlocked.Read(ref busyEndNs) + 1_000_000_000)
        {
            var i = GC.GetGCMemoryInfo(GCKind.Background);
            if (i.Index != 0 && i.Index != seen && GC.GetGCMemoryInfo(GCKind.Any).Index != i.Index)
            {
                seen = i.Index;
                Console.WriteLine("{{\"gc\":{0},\"bgc\":true,\"p0_ns\":{1},\"p1_ns\":{2},\"wall_ms\":{3}}}", i.Index,
                    i.PauseDurations[0].Ticks * 100, i.PauseDurations[1].Ticks * 100,
                    DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
            }
            Thread.Sleep(5);
        }
    }

    static int Main(string[] args)
    {
        double mbPerSec = args.Length > 0 ? double.Parse(args[0]) : 40;
        double seconds = args.Length > 1 ? double.Parse(args[1]) : 60;
        int pinnedMb = args.Length > 2 ? int.Parse(args[2]) : 0;
        double idle = args.Length > 3 ? double.Parse(args[3]) : 0;
        double idleAfter = args.Length > 4 ? double.Parse(args[4]) : idle;

        const int largeSize = 200_000;
        const int largeEvery = 100;
        var ring = new object[4096];
        var largeRing = new byte[16][];
        var pinned = new byte[Math.Max(pinnedMb, 1) * 4][];
        if (pinnedMb > 0)
            for (int i = 0; i < pinned.Length; i++)
                pinned[i] = GC.AllocateArray<byte>(256 * 1024, pinned: true);

        var rnd = new Random(42);
        long nextReport = MonoNs();
        Report();
        nextReport += 1_000_000_000;
        nextReport = IdleUntil(MonoNs() + (long)(idle * 1e9), nextReport);
        Phase("busy_start");
        if (Environment.GetEnvironmentVariable("GCALLOC_GCLOG") == "1")
            new Thread(LogBackgroundGcs) { IsBackground = true }.Start();
        long start = MonoNs();
        long end = start + (long)(seconds * 1e9);
        long budget = 0;
        long n = 0;
        int pinSlot = 0;
        while (true)
        {
            long now = MonoNs();
            if (now >= end)
                break;
            if (now >= nextReport)
            {
                if (pinnedMb > 0)
                {
                    pinned[pinSlot] = GC.AllocateArray<byte>(256 * 1024, pinned: true);
                    pinSlot = (pinSlot + 1) % pinned.Length;
                }
                Report();
                nextReport += 1_000_000_000;
            }
            long target = (long)((now - start) / 1e9 * mbPerSec * 1_000_000);
            if (budget >= target)
            {
                Thread.Sleep(2);
                continue;
            }
            while (budget < target)
            {
                n++;
                if (n % largeEvery == 0)
                {
                    var big = new byte[largeSize];
                    largeRing[(n / largeEvery) % largeRing.Length] = big;
                    budget += largeSize;
                }
                else
                {
                    int size = 64 + rnd.Next(2000);
                    ring[rnd.Next(ring.Length)] = new byte[size];
                    budget += size;
                }
            }
        }
        Phase("busy_end");
        Interlocked.Exchange(ref busyEndNs, MonoNs());
        IdleUntil(MonoNs() + (long)(idleAfter * 1e9), nextReport);
        Report();
        GC.KeepAlive(pinned);
        return 0;
    }

    // Marks where the allocating phase starts and ends, in wall-clock time
    // (what gctop's JSON carries).
    static void Phase(string name) =>
        Console.WriteLine("{{\"phase\":\"{0}\",\"wall_ms\":{1}}}", name, DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());

    // Sleeps without allocating (beyond the report itself) until `until`,
    // reporting once a second; returns the next report time.
    static long IdleUntil(long until, long nextReport)
    {
        while (MonoNs() < until)
        {
            if (MonoNs() >= nextReport)
            {
                Report();
                nextReport += 1_000_000_000;
            }
            Thread.Sleep(20);
        }
        return nextReport;
    }
}
