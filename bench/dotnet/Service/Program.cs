// gctop's multi-threaded .NET benchmark target: what a busy service does per
// request, on several threads at once, without the network (a load
// generator on the same two cores would take the CPU it measures).
//
// usage: Service THREADS SECONDS [LARGE_EVERY]
//   Each thread handles "requests" in a loop: it builds an order of 24
//   lines (strings formatted per line), serialises it to JSON with
//   System.Text.Json, parses the JSON back, makes a summary string, and
//   every LARGE_EVERY-th request (16; 0: never) fills a 96 KiB buffer (the
//   large object heap, like a report or an upload). Prints once a second
//   "rps N alloc_mb_s M gc0 A gc1 B gc2 C heaps H pause_ms P": the
//   requests answered in that second, the runtime's own allocated
//   megabytes per second (AllocationSampled events come at about one per
//   100 KiB of it), the collections of each generation in that second, the
//   GC's heap count now (Server GC with DATAS changes it as it goes), the
//   milliseconds the GC paused the threads in that second and gen0's size
//   when the last collection began (its budget, in MB), the heap's size
//   after the last collection and the memory the GC has committed: what an
//   attached session may change in the GC, to tell it from the session's
//   own cost.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Text;
using System.Text.Json;
using System.Threading;

public sealed class Line
{
    public string Sku { get; set; } = "";
    public string Description { get; set; } = "";
    public int Quantity { get; set; }
    public double Price { get; set; }
}

public sealed class Order
{
    public long Id { get; set; }
    public string Customer { get; set; } = "";
    public DateTime Placed { get; set; }
    public List<Line> Lines { get; set; } = new();
    public Dictionary<string, string> Tags { get; set; } = new();
}

static class Program
{
    static long requests;
    static volatile bool stop;
    static int largeEvery = 16;
    const int LargeBytes = 96 * 1024;

    static Order Build(long id, Random rng)
    {
        var o = new Order { Id = id, Customer = "customer-" + (id * 7919 % 100000), Placed = DateTime.UtcNow };
        for (int i = 0; i < 24; i++)
            o.Lines.Add(new Line
            {
                Sku = $"SKU-{rng.Next(100000):D6}",
                Description = $"item {i} of order {id}: {rng.Next(1000)} units in stock",
                Quantity = rng.Next(1, 10),
                Price = rng.Next(100, 100000) / 100.0,
            });
        o.Tags["region"] = (id % 7).ToString();
        o.Tags["channel"] = (id & 1) == 0 ? "web" : "mobile";
        return o;
    }

    static long Handle(long id, Random rng)
    {
        var order = Build(id, rng);
        string json = JsonSerializer.Serialize(order);
        var back = JsonSerializer.Deserialize<Order>(json)!;
        double total = 0;
        foreach (var l in back.Lines)
            total += l.Quantity * l.Price;
        var sb = new StringBuilder();
        sb.Append(back.Customer.ToUpperInvariant()).Append(": ").Append(back.Lines.Count).Append(" lines, ")
          .Append(total.ToString("F2"));
        string summary = sb.ToString();
        long sink = json.Length + summary.Split(' ').Length;
        if (largeEvery > 0 && id % largeEvery == 0)
        {
            var buf = new byte[LargeBytes];
            int n = Encoding.UTF8.GetBytes(json, 0, Math.Min(json.Length, LargeBytes / 4), buf, 0);
            sink += buf[n / 2];
        }
        return sink;
    }

    static void Worker(int seed)
    {
        var rng = new Random(seed);
        long sink = 0, id = seed * 1_000_000_000L;
        while (!stop)
        {
            sink += Handle(id++, rng);
            Interlocked.Increment(ref requests);
        }
        if (sink == 42)
            Console.WriteLine("");
    }

    // The GC's heap count as it reports it (DATAS adapts it under Server GC).
    static object HeapCount()
    {
        return GC.GetConfigurationVariables().TryGetValue("HeapCount", out var v) ? v : "?";
    }

    static int Main(string[] args)
    {
        int threads = args.Length > 0 ? int.Parse(args[0]) : 4;
        double seconds = args.Length > 1 ? double.Parse(args[1]) : 60;
        largeEvery = args.Length > 2 ? int.Parse(args[2]) : 16;
        var workers = new Thread[threads];
        for (int i = 0; i < threads; i++)
        {
            int seed = i + 1;
            workers[i] = new Thread(() => Worker(seed)) { IsBackground = true, Name = "worker " + i };
            workers[i].Start();
        }
        var sw = Stopwatch.StartNew();
        long freq = Stopwatch.Frequency, next = freq, end = (long)(seconds * freq);
        long lastReq = 0, lastBytes = GC.GetTotalAllocatedBytes(false);
        var lastGcs = new int[3];
        for (int g = 0; g < 3; g++)
            lastGcs[g] = GC.CollectionCount(g);
        var lastPause = GC.GetTotalPauseDuration();
        while (true)
        {
            long wait = (next - sw.ElapsedTicks) * 1000 / freq;
            if (wait > 0)
                Thread.Sleep((int)wait);
            long req = Interlocked.Read(ref requests), bytes = GC.GetTotalAllocatedBytes(false);
            var line = new StringBuilder("rps " + (req - lastReq) + " alloc_mb_s " + (bytes - lastBytes) / 1000000);
            var gcs = new int[3];
            for (int g = 0; g < 3; g++)
                gcs[g] = GC.CollectionCount(g);
            // CollectionCount(g) counts the collections of g and older ones
            for (int g = 0; g < 3; g++)
                line.Append(" gc" + g + " " + (gcs[g] - lastGcs[g] - (g < 2 ? gcs[g + 1] - lastGcs[g + 1] : 0)));
            lastGcs = gcs;
            var pause = GC.GetTotalPauseDuration();
            line.Append(" heaps " + HeapCount() + " pause_ms " + (long)(pause - lastPause).TotalMilliseconds);
            // gen0's size when the last collection began: its budget, all heaps
            var info = GC.GetGCMemoryInfo(GCKind.Any);
            line.Append(" gen0_mb " + (info.Index > 0 ? info.GenerationInfo[0].SizeBeforeBytes / 1000000 : 0));
            line.Append(" heap_mb " + info.HeapSizeBytes / 1000000 + " committed_mb " + info.TotalCommittedBytes / 1000000);
            lastPause = pause;
            Console.WriteLine(line.ToString());
            lastReq = req;
            lastBytes = bytes;
            next += freq;
            if (next > end)
                break;
        }
        stop = true;
        foreach (var w in workers)
            w.Join();
        return 0;
    }
}
