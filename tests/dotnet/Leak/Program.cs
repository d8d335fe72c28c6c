// A leak among churn: a static linked list grows by RATE bytes a second
// (paced by the clock, so the rate holds whatever the scheduling), while
// CHURN threads allocate short-lived objects and replace medium-lived ones
// (which die old, so gen2 collections have garbage to find). Nothing is
// induced: the gen2 collections are the runtime's own.
//
// It prints JSON lines, t_ns being Stopwatch's timestamp (CLOCK_MONOTONIC
// in ns on Linux, gctop's clock):
//   {"t_ns":..,"retained":..,"gcs":[..],"allocated":..}  every 200 ms: the
//       bytes the leak holds, each chunk counted at its size as allocated
//       (measured once with GC.GetAllocatedBytesForCurrentThread), with
//       GC.CollectionCount(0..2) and GC.GetTotalAllocatedBytes for the log
//   {"t_ns":..,"gc_index":..,"kind":"blocking"|"background","promoted":..}
//       each new gen2 GC seen by GC.GetGCMemoryInfo(GCKind.FullBlocking /
//       GCKind.Background): its PromotedBytes, the runtime's live set
//   {"t_ns":..,"wall_ms":..,"oom":true,"retained":..}  at OutOfMemoryException
//       (wall_ms: the wall clock, which gctop's JSON "time" is in), then exit 3
//
// usage: Leak RATE_BYTES_PER_S CHURN_THREADS SECONDS [CHURN_BYTES_PER_S]
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

sealed class Node
{
    public readonly byte[] Data;
    public readonly Node? Next;
    public Node(byte[] data, Node? next) { Data = data; Next = next; }
}

static class Program
{
    const int ChunkData = 4000;
    static Node? head;
    static long retained;
    static readonly object outLock = new();
    static volatile bool dying;

    static long Now() => Stopwatch.GetTimestamp() * (1_000_000_000L / Stopwatch.Frequency);

    static void Print(string line)
    {
        lock (outLock)
            Console.WriteLine(line);
    }

    static void Died()
    {
        if (dying)
            return;
        dying = true;
        long kept = Interlocked.Read(ref retained);
        head = null; // room to print in
        Print($"{{\"t_ns\":{Now()},\"wall_ms\":{DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()},\"oom\":true,\"retained\":{kept}}}");
        Environment.Exit(3);
    }

    static long ChunkSize()
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        head = new Node(new byte[ChunkData], head);
        return GC.GetAllocatedBytesForCurrentThread() - before;
    }

    static void Leak(long rate)
    {
        try
        {
            long chunk = ChunkSize(), n = 1, start = Now();
            Interlocked.Exchange(ref retained, chunk);
            while (true)
            {
                long due = (long)((Now() - start) / 1e9 * rate) / chunk;
                for (; n < due; n++)
                {
                    head = new Node(new byte[ChunkData], head);
                    Interlocked.Add(ref retained, chunk);
                }
                Thread.Sleep(20);
            }
        }
        catch (OutOfMemoryException) { Died(); }
    }

    static void Churn(int seed, long rate)
    {
        var rnd = new Random(seed);
        var medium = new byte[4096][];
        try
        {
            long start = Now(), done = 0;
            while (true)
            {
                // short-lived: most of the bytes
                for (int i = 0; i < 64; i++)
                    done += new byte[rnd.Next(16, 2048)].Length;
                // large and short-lived: its LOH budget brings the runtime's own gen2 GCs
                if (rnd.Next(4) == 0)
                    done += new byte[100_000].Length;
                // medium-lived: one in 64 replaces an older one, which dies in gen1 or gen2
                medium[rnd.Next(medium.Length)] = new byte[rnd.Next(64, 1024)];
                double ahead = done / (double)rate - (Now() - start) / 1e9;
                if (ahead > 0.005)
                    Thread.Sleep((int)(ahead * 1000));
            }
        }
        catch (OutOfMemoryException) { Died(); }
    }

    static readonly HashSet<long> reported = new();

    static void Report(GCKind kind, string name)
    {
        var info = GC.GetGCMemoryInfo(kind);
        // Each GC once: GetGCMemoryInfo(Background) was seen to return the
        // index of a blocking gen2 that followed with the last background
        // GC's figures (.NET 10).
        if (info.Index == 0 || info.Generation != 2 || !reported.Add(info.Index))
            return;
        Print($"{{\"t_ns\":{Now()},\"gc_index\":{info.Index},\"kind\":\"{name}\",\"promoted\":{info.PromotedBytes}}}");
    }

    static int Main(string[] args)
    {
        long rate = long.Parse(args[0]);
        int threads = int.Parse(args[1]);
        double seconds = double.Parse(args[2]);
        long churn = args.Length > 3 ? long.Parse(args[3]) : 20_000_000;
        new Thread(() => Leak(rate)) { IsBackground = true }.Start();
        for (int i = 0; i < threads; i++)
        {
            int seed = i;
            new Thread(() => Churn(seed, churn)) { IsBackground = true }.Start();
        }
        long end = Now() + (long)(seconds * 1e9);
        try
        {
            while (Now() < end)
            {
                Report(GCKind.FullBlocking, "blocking");
                Report(GCKind.Background, "background");
                Print($"{{\"t_ns\":{Now()},\"retained\":{Interlocked.Read(ref retained)},\"gcs\":[{GC.CollectionCount(0)},{GC.CollectionCount(1)},{GC.CollectionCount(2)}],\"allocated\":{GC.GetTotalAllocatedBytes()}}}");
                Thread.Sleep(200);
            }
        }
        catch (OutOfMemoryException) { Died(); }
        return 0;
    }
}
