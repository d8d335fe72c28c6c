// The field's load shape: THREADS threads each build a CSV of CSV_MCHARS
// million characters in a StringBuilder, turn it into one string and then
// into UTF-8 bytes (both on the large-object heap), and drop them. That
// gives a high collection rate, background gen2 collections (the LOH budget
// triggers them) and foreground gen0/gen1 collections during them.
//
// Every REPORT_MS it prints one JSON line with the runtime's own figures
// (GC.GetTotalAllocatedBytes, GC.GetTotalPauseDuration, GC.CollectionCount),
// without suspending the runtime to do so (the precise allocated-bytes count
// would, and its suspensions would delay the collector's own, which moves
// the runtime's pause figure),
// stamped with CLOCK_MONOTONIC (Stopwatch on Linux) and the wall clock, so a
// test can read the truth at the moment of any gctop sample.
//
// usage: CsvLoad [THREADS] [CSV_MCHARS] [SECONDS] [IDLE_BEFORE] [IDLE_AFTER] [REPORT_MS]
using System;
using System.Diagnostics;
using System.Text;
using System.Threading;

static class Program
{
    static volatile bool stop;
    static long rows;

    static long MonoNs() => (long)(Stopwatch.GetTimestamp() * (1e9 / Stopwatch.Frequency));

    static void Report()
    {
        Console.WriteLine(
            "{{\"t_ns\":{0},\"wall_ms\":{1},\"alloc\":{2},\"pause_ns\":{3},\"gc0\":{4},\"gc1\":{5},\"gc2\":{6},\"rows\":{7}}}",
            MonoNs(), DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(), GC.GetTotalAllocatedBytes(false),
            GC.GetTotalPauseDuration().Ticks * 100, GC.CollectionCount(0), GC.CollectionCount(1),
            GC.CollectionCount(2), Interlocked.Read(ref rows));
    }

    static void Phase(string name) =>
        Console.WriteLine("{{\"phase\":\"{0}\",\"wall_ms\":{1},\"t_ns\":{2}}}", name,
            DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(), MonoNs());

    static void Build(object? arg)
    {
        int chars = (int)arg!;
        var rnd = new Random(Environment.CurrentManagedThreadId);
        long sink = 0;
        while (!stop)
        {
            var sb = new StringBuilder();
            long n = 0;
            while (sb.Length < chars && !stop)
            {
                // one small string per row (a field formatted on its own), the
                // rest appended in place
                string amount = (rnd.Next(100000) / 100.0).ToString("F2");
                sb.Append(n).Append(",customer-").Append(rnd.Next(100000)).Append(',')
                  .Append(amount).Append(',').Append(rnd.Next(1000000)).Append('\n');
                n++;
            }
            string csv = sb.ToString();
            byte[] utf8 = Encoding.UTF8.GetBytes(csv);
            // stop can come before the first row: an empty CSV has no middle
            // byte (the IndexOutOfRangeException that ended runs at the busy
            // phase's end)
            if (utf8.Length > 0)
                sink += utf8[utf8.Length / 2];
            Interlocked.Add(ref rows, n);
        }
        GC.KeepAlive(sink);
    }

    // With CSVLOAD_GCLOG=1: a thread that logs each collection the runtime
    // records (GC.GetGCMemoryInfo by kind: index, generation, whether
    // background, its pause durations), polling every millisecond, to hold
    // single pauses against the events.
    static void LogGcs()
    {
        var seen = new System.Collections.Generic.HashSet<long>();
        var kinds = new[] { GCKind.Ephemeral, GCKind.FullBlocking, GCKind.Background };
        while (!stop)
        {
            foreach (var k in kinds)
            {
                var i = GC.GetGCMemoryInfo(k);
                if (i.Index == 0 || seen.Contains(i.Index))
                    continue;
                // a background GC's second pause is known once it is over
                if (i.Concurrent && i.PauseDurations[1] == TimeSpan.Zero && GC.GetGCMemoryInfo(GCKind.Any).Index == i.Index)
                    continue;
                seen.Add(i.Index);
                Console.WriteLine("{{\"gc\":{0},\"gen\":{1},\"bgc\":{2},\"p0_ns\":{3},\"p1_ns\":{4},\"wall_ms\":{5}}}", i.Index, i.Generation,
                    i.Concurrent ? "true" : "false", i.PauseDurations[0].Ticks * 100, i.PauseDurations[1].Ticks * 100,
                    DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
            }
            Thread.Sleep(1);
        }
    }

    static int Main(string[] args)
    {
        int threads = args.Length > 0 ? int.Parse(args[0]) : 4;
        double mchars = args.Length > 1 ? double.Parse(args[1]) : 60;
        double seconds = args.Length > 2 ? double.Parse(args[2]) : 10;
        double idleBefore = args.Length > 3 ? double.Parse(args[3]) : 0;
        double idleAfter = args.Length > 4 ? double.Parse(args[4]) : 0;
        int reportMs = args.Length > 5 ? int.Parse(args[5]) : 50;

        Console.WriteLine("{{\"server\":{0},\"concurrent\":{1},\"threads\":{2}}}",
            System.Runtime.GCSettings.IsServerGC ? "true" : "false",
            AppContext.TryGetSwitch("System.GC.Concurrent", out bool c) ? (c ? "true" : "false") : "null", threads);
        long t0 = MonoNs();
        long busyStart = t0 + (long)(idleBefore * 1e9);
        long busyEnd = busyStart + (long)(seconds * 1e9);
        long end = busyEnd + (long)(idleAfter * 1e9);
        // CSVLOAD_START_FILE: the busy phase waits for this file too (a
        // test creates it once its gctop has sampled the quiet), so that
        // the quiet before it is there however slowly a loaded machine
        // starts gctop; the phases after it keep their lengths.
        string startFile = Environment.GetEnvironmentVariable("CSVLOAD_START_FILE");
        var workers = new Thread[threads];
        long next = t0;
        bool started = false, stopped = false;
        while (true)
        {
            long now = MonoNs();
            if (!started && now >= busyStart && startFile != null && !System.IO.File.Exists(startFile))
            {
                busyStart = now + 20_000_000L;
                busyEnd = busyStart + (long)(seconds * 1e9);
                end = busyEnd + (long)(idleAfter * 1e9);
            }
            if (!started && now >= busyStart)
            {
                Phase("busy_start");
                for (int i = 0; i < threads; i++)
                {
                    workers[i] = new Thread(Build);
                    workers[i].Start((int)(mchars * 1e6));
                }
                started = true;
                if (Environment.GetEnvironmentVariable("CSVLOAD_GCLOG") == "1")
                    new Thread(LogGcs) { IsBackground = true }.Start();
            }
            if (started && !stopped && now >= busyEnd)
            {
                stop = true;
                foreach (var w in workers)
                    w.Join();
                Phase("busy_end");
                stopped = true;
            }
            if (now >= next)
            {
                Report();
                next += reportMs * 1_000_000L;
                if (next < now)
                    next = now + reportMs * 1_000_000L;
            }
            if (now >= end)
                break;
            long sleep = Math.Min(next, started ? (stopped ? end : busyEnd) : busyStart) - MonoNs();
            if (sleep > 0)
                Thread.Sleep((int)Math.Max(1, sleep / 1_000_000));
        }
        Report();
        return 0;
    }
}
