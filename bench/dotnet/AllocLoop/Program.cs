// gctop's .NET benchmark target.
//
// usage: AllocLoop alloc [SECONDS]
//          allocation-bound loop; prints "ops_per_s N" once a second
//        AllocLoop gc GCS_PER_SECOND [SECONDS] [count]
//          induces gen0 collections at a paced rate (each one makes the
//          runtime emit a burst of GC events); prints "gcs_per_s N" once a
//          second, and with "count" also "events_per_s M": the events of
//          Microsoft-Windows-DotNETRuntime, GC keyword, Informational (what
//          gctop's session enables), counted by an in-process EventListener.
using System;
using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Threading;

sealed class GcEventCounter : EventListener
{
    public long Events;
    protected override void OnEventSourceCreated(EventSource source)
    {
        if (source.Name == "Microsoft-Windows-DotNETRuntime")
            EnableEvents(source, EventLevel.Informational, (EventKeywords)0x1);
    }
    protected override void OnEventWritten(EventWrittenEventArgs e)
    {
        if (e.EventSource.Name == "Microsoft-Windows-DotNETRuntime")
            Interlocked.Increment(ref Events);
    }
}

static class Program
{
    sealed class Node
    {
        public long Id;
        public object? Payload;
    }

    static int Alloc(double seconds)
    {
        var ring = new object[8192];
        var sw = Stopwatch.StartNew();
        long end = (long)(seconds * Stopwatch.Frequency);
        long nextPrint = Stopwatch.Frequency;
        long ops = 0, total = 0, sink = 0;
        while (true)
        {
            for (int i = 0; i < 1024; i++)
            {
                int k = (int)(total & 15);
                var arr = new long[k + 1];
                arr[0] = total;
                var n = new Node { Id = total, Payload = arr };
                ring[total & (ring.Length - 1)] = (total & 7) == 0 ? n : arr;
                sink += n.Id + arr.Length;
                total++;
                ops++;
            }
            long now = sw.ElapsedTicks;
            if (now >= nextPrint)
            {
                Console.WriteLine("ops_per_s " + ops);
                ops = 0;
                nextPrint += Stopwatch.Frequency;
                if (now >= end)
                    break;
            }
        }
        return sink == 42 ? 1 : 0;
    }

    static int Gc(double perSecond, double seconds, bool count)
    {
        using var listener = count ? new GcEventCounter() : null;
        var sw = Stopwatch.StartNew();
        long freq = Stopwatch.Frequency;
        long end = (long)(seconds * freq);
        long nextPrint = freq;
        long gcs = 0, done = 0, lastEvents = 0;
        var keep = new object[64];
        while (true)
        {
            long now = sw.ElapsedTicks;
            double due = (double)now / freq * perSecond;
            if (done < due)
            {
                keep[done & 63] = new byte[64];
                GC.Collect(0, GCCollectionMode.Forced, blocking: true);
                done++;
                gcs++;
            }
            else
            {
                long wait = (long)((done + 1 - due) / perSecond * 1000);
                Thread.Sleep(wait > 1 ? (int)Math.Min(wait, 50) : 0);
            }
            now = sw.ElapsedTicks;
            if (now >= nextPrint)
            {
                if (listener != null)
                {
                    long ev = Interlocked.Read(ref listener.Events);
                    Console.WriteLine("gcs_per_s " + gcs + " events_per_s " + (ev - lastEvents));
                    lastEvents = ev;
                }
                else
                {
                    Console.WriteLine("gcs_per_s " + gcs);
                }
                gcs = 0;
                nextPrint += freq;
                if (now >= end)
                    break;
            }
        }
        return 0;
    }

    static int Main(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : "alloc";
        if (mode == "alloc")
            return Alloc(args.Length > 1 ? double.Parse(args[1]) : 60);
        if (mode == "gc")
            return Gc(args.Length > 1 ? double.Parse(args[1]) : 1000,
                      args.Length > 2 ? double.Parse(args[2]) : 60,
                      args.Length > 3 && args[3] == "count");
        Console.Error.WriteLine("usage: AllocLoop alloc [SECONDS] | gc GCS_PER_SECOND [SECONDS] [count]");
        return 2;
    }
}
