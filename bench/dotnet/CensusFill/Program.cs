// Fills a live heap of about MiB mebibytes with small objects (a Node of
// 48 bytes holding a byte[] of 80-160 bytes, linked in a list: ~150 bytes
// an object pair, as a service's heap of records), prints "ready <objects>",
// then every 200 ms a line for each new full blocking collection:
//   full <index> pause_us <us> promoted <bytes> gap_us <longest stall of a
//   thread awake every ms since the previous line>
// Usage: CensusFill MiB
using System;
using System.Threading;

sealed class Node
{
    public Node? Next;
    public byte[] Data;
    public long Id;
    public Node(long id, int n) { Id = id; Data = new byte[n]; }
}

static class Program
{
    static Node? head;
    static void Main(string[] args)
    {
        long target = long.Parse(args[0]) << 20, bytes = 0, id = 0;
        var rnd = new Random(3);
        while (bytes < target)
        {
            int n = 80 + rnd.Next(80);
            head = new Node(id++, n) { Next = head };
            bytes += 48 + 24 + n;
        }
        GC.Collect();
        Console.WriteLine($"ready {2 * id}");
        StallTicker.Start();
        long seenIndex = GC.GetGCMemoryInfo(GCKind.FullBlocking).Index;
        for (;;)
        {
            Thread.Sleep(200);
            var info = GC.GetGCMemoryInfo(GCKind.FullBlocking);
            if (info.Index == seenIndex)
                continue;
            seenIndex = info.Index;
            double gap = StallTicker.TakeGapUs();
            Console.WriteLine($"full {info.Index} pause_us {info.PauseDurations[0].TotalMicroseconds:F0} " +
                              $"promoted {info.PromotedBytes} gap_us {gap:F0}");
        }
    }
}
