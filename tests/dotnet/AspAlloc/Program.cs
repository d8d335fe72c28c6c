// usage: AspAlloc PORT [BYTES_PER_REQUEST [ARRAY_BYTES]]
// GET / allocates BYTES_PER_REQUEST (default 1,000,000) in arrays of
// ARRAY_BYTES (default 10,000; 85,000 and more go to the large object heap)
// and answers "ok". GET /truth answers the runtime's own allocated-bytes total.
//
// GET /export?rows=N&stream=0|1 answers a CSV export of N rows, the before
// and after of a common fix: stream=0 builds the whole CSV in memory (a
// StringBuilder, its string, then its UTF-8 bytes: large objects for any
// sizeable N); stream=1 formats the rows into one pooled 16 KiB buffer and
// writes it out each time it fills. GET /counts answers the runtime's own
// "ALLOCATED_BYTES GEN0 GEN1 GEN2" (collection counts), the exports
// answered so far and the bytes the in-memory exports' handlers allocated
// on their own thread (GC.GetAllocatedBytesForCurrentThread), for the
// tests' truth. The last is there because GC.GetTotalAllocatedBytes sums
// only the heaps active at the call: under DATAS, which takes heaps away
// and gives them back, it falls and jumps (dotnet/runtime#131069, fixed
// after the .NET 10 runtime tested here).
//
// GET /collect calls GC.Collect() (the program's own induced collection)
// and answers GC.CollectionCount(2). GET /background?mb=N&seconds=S keeps
// N MiB of small linked objects (once) and, for S seconds on a thread of its
// own, starts a background gen2 collection (GC.Collect(2, Forced, blocking:
// false)) every millisecond, so that one is under way nearly all the time;
// it answers at once. Its first call also starts an in-process listener of
// the runtime's GC events (a background collection runs from its GCStart
// with Type 1 to the GCEnd of the same Count). GET /triggers answers one
// line for each induced collection asked for from another thread
// (GCTriggered, reason Induced): "ENDED_BEFORE MS_SINCE_END RUNNING", the
// background collections seen to end before it, the milliseconds since the
// last one ended, and 1 when one was under way; GET /backgrounds answers
// how many have ended so far.
// GET /fullgc answers the latest full blocking collection's
// "INDEX PROMOTED_BYTES" (GC.GetGCMemoryInfo(GCKind.FullBlocking)).
using System;
using System.Buffers;
using System.Buffers.Text;
using System.Text;

var port = args.Length > 0 ? int.Parse(args[0]) : 5000;
long perRequest = args.Length > 1 ? long.Parse(args[1]) : 1_000_000;
int arrayBytes = args.Length > 2 ? int.Parse(args[2]) : 10_000;
var builder = WebApplication.CreateSlimBuilder(args);
builder.Logging.ClearProviders();
builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
var app = builder.Build();
object? keep = null;
long exports = 0;
long handlerBytes = 0;
app.MapGet("/", () =>
{
    for (long done = 0; done < perRequest; done += arrayBytes)
        keep = new byte[arrayBytes - 24];
    return "ok";
});
app.MapGet("/truth", () => GC.GetTotalAllocatedBytes(true).ToString());
app.MapGet("/counts", () => string.Join(' ', GC.GetTotalAllocatedBytes(true), GC.CollectionCount(0),
    GC.CollectionCount(1), GC.CollectionCount(2), Interlocked.Read(ref exports), Interlocked.Read(ref handlerBytes)));
app.MapGet("/export", async (HttpContext ctx, int rows, int stream) =>
{
    ctx.Response.ContentType = "text/csv";
    if (stream == 0)
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        var sb = new StringBuilder();
        for (int i = 0; i < rows; i++)
            sb.Append(i).Append(",customer-").Append(i * 7919 % 100000).Append(',')
              .Append(i % 1000).Append('.').Append(i % 100).Append('\n');
        byte[] body = Encoding.UTF8.GetBytes(sb.ToString());
        Interlocked.Add(ref handlerBytes, GC.GetAllocatedBytesForCurrentThread() - before);
        await ctx.Response.Body.WriteAsync(body);
        Interlocked.Increment(ref exports);
        return;
    }
    byte[] buf = ArrayPool<byte>.Shared.Rent(16384);
    int used = 0;
    for (int i = 0; i < rows; i++)
    {
        if (buf.Length - used < 64)
        {
            await ctx.Response.Body.WriteAsync(buf.AsMemory(0, used));
            used = 0;
        }
        used += Row(buf.AsSpan(used), i);
    }
    await ctx.Response.Body.WriteAsync(buf.AsMemory(0, used));
    ArrayPool<byte>.Shared.Return(buf);
    Interlocked.Increment(ref exports);
});

app.MapGet("/collect", () =>
{
    GC.Collect();
    return GC.CollectionCount(2).ToString();
});
object? graph = null;
BgcWatch? watch = null;
app.MapGet("/background", (int mb, int seconds) =>
{
    watch ??= new BgcWatch();
    graph ??= Graph(mb);
    var until = DateTime.UtcNow.AddSeconds(seconds);
    new Thread(() =>
    {
        watch.LoopTid = BgcWatch.gettid();
        while (DateTime.UtcNow < until)
        {
            GC.Collect(2, GCCollectionMode.Forced, blocking: false);
            Thread.Sleep(1);
        }
    }) { IsBackground = true }.Start();
    return "started";
});
app.MapGet("/triggers", () => watch == null ? "" : watch.Triggers());
app.MapGet("/backgrounds", () => watch == null ? "0" : Interlocked.Read(ref watch.Backgrounds).ToString());
app.MapGet("/fullgc", () =>
{
    var info = GC.GetGCMemoryInfo(GCKind.FullBlocking);
    return $"{info.Index} {info.PromotedBytes}";
});

Console.WriteLine("listening");
app.Run();
GC.KeepAlive(keep);

// mb MiB of 64-byte nodes, each pointing at the one before.
static object Graph(int mb)
{
    object?[]? head = null;
    for (long i = 0; i < (long)mb * 1024 * 1024 / 64; i++)
        head = new object?[] { head, null, null, null };
    return head!;
}

// One row, the same bytes as the StringBuilder's, formatted in place.
static int Row(Span<byte> b, int i)
{
    int n = 0;
    Utf8Formatter.TryFormat(i, b, out int w);
    n += w;
    "customer-"u8.CopyTo(b[(n + 1)..]);
    b[n] = (byte)',';
    n += 10;
    Utf8Formatter.TryFormat(i * 7919 % 100000, b[n..], out w);
    n += w;
    b[n++] = (byte)',';
    Utf8Formatter.TryFormat(i % 1000, b[n..], out w);
    n += w;
    b[n++] = (byte)'.';
    Utf8Formatter.TryFormat(i % 100, b[n..], out w);
    n += w;
    b[n++] = (byte)'\n';
    return n;
}

// The runtime's GC events in-process (see /background).
sealed class BgcWatch : System.Diagnostics.Tracing.EventListener
{
    public long Backgrounds;
    public volatile int LoopTid;
    readonly List<string> triggers = new();
    long bgc = -1;
    bool running;
    DateTime bgcEnd;

    [System.Runtime.InteropServices.DllImport("libc", SetLastError = false)]
    public static extern int gettid();

    public string Triggers()
    {
        lock (triggers)
            return string.Join('\n', triggers);
    }

    protected override void OnEventSourceCreated(System.Diagnostics.Tracing.EventSource source)
    {
        if (source.Name == "Microsoft-Windows-DotNETRuntime")
            EnableEvents(source, System.Diagnostics.Tracing.EventLevel.Informational,
                (System.Diagnostics.Tracing.EventKeywords)1);
    }

    protected override void OnEventWritten(System.Diagnostics.Tracing.EventWrittenEventArgs e)
    {
        if (e.Payload == null || e.Payload.Count == 0)
            return;
        long first = Convert.ToInt64(e.Payload[0]);
        if (e.EventId == 1 && e.Payload.Count > 3 && Convert.ToInt64(e.Payload[3]) == 1)
        {
            bgc = first;
            running = true;
        }
        else if (e.EventId == 2 && first == bgc && running)
        {
            running = false;
            bgcEnd = e.TimeStamp;
            Interlocked.Increment(ref Backgrounds);
        }
        else if (e.EventId == 35 && first == 1 && e.OSThreadId != LoopTid)
        {
            lock (triggers)
                triggers.Add($"{Interlocked.Read(ref Backgrounds)} {(e.TimeStamp - bgcEnd).TotalMilliseconds:F3} {(running ? 1 : 0)}");
        }
    }
}
